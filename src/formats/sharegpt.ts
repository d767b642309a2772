// ShareGPT / AgentGym / LLaMA-Factory conversations: `{conversations: [{from, value}], system?, tools?}`.
// One trajectory per file. Turns become plain messages (human → user, gpt → assistant,
// observation → environment, tool → tool); `function_call` turns are tool calls answered by the next
// observation. Files whose agent turns carry Self-Sum or Agent-Omit tags go to those adapters instead.
import type { Document } from '../load/document';
import { emptySession, idFromFile, type FormatAdapter } from './adapter';
import { readTrajectory, trajectoryItems, trajectorySignals } from './trajectory';

export const sharegpt: FormatAdapter = {
  id: 'sharegpt',
  label: 'ShareGPT conversations',
  sniff(doc: Document) {
    const s = trajectorySignals(doc);
    // Below the Self-Sum / Agent-Omit scores, which recognize their tags in the same container.
    return s?.shape === 'conversations' ? 0.85 : 0;
  },
  parse(doc, ctx) {
    const traj = doc.kind === 'json' ? readTrajectory(doc.value, ctx) : null;
    const session = emptySession('sharegpt', ctx.file, idFromFile(ctx.file));
    if (!traj) {
      ctx.error({ path: ['conversations'] }, 'expected a `conversations` array of {from, value} turns');
      return [session];
    }
    if (traj.id) session.id = traj.id;
    session.model = traj.model;
    session.meta = { ...traj.meta };
    session.items = trajectoryItems(traj, ctx.file, { userTurnsAnswerCalls: false });
    return [session];
  },
};
