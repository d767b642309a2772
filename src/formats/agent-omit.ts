// Agent-Omit trajectories: the agent omits its own thoughts (`<think> </think>`) and, by command,
// earlier observations (`<omit_tool_response_1_2></omit_tool_response_1_2>`).
//
// Accepted shape: any container of trajectory.ts (the paper's appendix uses a bare array), e.g.
//   [{"role":"system", …}, {"role":"user","content":"Question: …"},
//    {"role":"assistant","content":"<think>…</think>\n<tool_call>query</tool_call>"},
//    {"role":"environment","content":"<tool_response_1>…</tool_response_1>"},
//    {"role":"assistant","content":"<think> </think>\n<omit_tool_response_1></omit_tool_response_1><tool_call>…</tool_call>"},
//    {"role":"environment","content":"<omitted_tool_response_2></omitted_tool_response_2>"},
//    {"role":"assistant","content":"<think>…</think>\n<answer>10</answer>"}]
// Observation turns are numbered from 1 (`<tool_response_2>` is turn 2). An omitted observation leaves
// every later context: each command becomes an `omission` compaction replacing those turns' tool results.
// Exports show omitted observations either in full (original known) or as the placeholder (original lost).
import type { Document } from '../load/document';
import type { CompactionEvent, Item } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { readTrajectory, trajectoryItems, trajectorySignals, type Trajectory } from './trajectory';

const OMIT_TAG = /<omit(?:ted)?_tool_response_\d+/;

/** One `omission` compaction per omit command, replacing the tool results of the turns it names. */
export function omissionCompactions(items: Item[], ctx: ParseContext, traj: Trajectory): CompactionEvent[] {
  const compactions: CompactionEvent[] = [];
  const resultsByTurn = new Map<string, Item>();
  for (const item of items) {
    if (item.kind === 'tool_result' && typeof item.meta?.['turn'] === 'number') {
      resultsByTurn.set(String(item.meta['turn']), item);
      continue;
    }
    if (item.kind !== 'omission' || !item.omission) continue;
    const replacedIds: string[] = [];
    for (const ref of item.omission.refs) {
      const result = resultsByTurn.get(ref);
      if (result) replacedIds.push(result.id);
      else {
        const turnId = item.id.split('.')[0];
        const turn = traj.turns.find((t) => t.id === turnId);
        ctx.warn({ path: turn?.path ?? [] }, `${item.omission.marker ?? 'omit command'} names tool response ${ref}, which no earlier observation turn has`);
      }
    }
    compactions.push({
      id: `c${compactions.length}`,
      index: compactions.length,
      kind: 'omission',
      trigger: null,
      tokensBefore: null,
      tokensAfter: null,
      replacedIds,
      keptIds: [],
      summaryId: null,
      atItemId: item.id,
      source: item.source,
    });
  }
  return compactions;
}

export const agentOmit: FormatAdapter = {
  id: 'agent-omit',
  label: 'Agent-Omit trajectory',
  // Self-Sum and Agent-Omit read the same chat/ShareGPT containers, recognized by their tags.
  refines: ['sharegpt', 'openai-chat'],
  sniff(doc: Document) {
    const s = trajectorySignals(doc);
    if (!s) return 0;
    if (OMIT_TAG.test(s.agentText) || OMIT_TAG.test(s.otherText)) return 0.93;
    return s.hasEnvironmentRole && /<tool_call>/.test(s.agentText) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const traj = doc.kind === 'json' ? readTrajectory(doc.value, ctx) : null;
    const session = emptySession('agent-omit', ctx.file, idFromFile(ctx.file));
    if (!traj) {
      ctx.error({ path: ['messages'] }, 'expected a `messages` or `conversations` array, or an array of turns');
      return [session];
    }
    if (traj.id) session.id = traj.id;
    session.model = traj.model;
    session.meta = { ...traj.meta };
    session.items = trajectoryItems(traj, ctx.file, { userTurnsAnswerCalls: false });
    session.compactions = omissionCompactions(session.items, ctx, traj);
    session.meta['omittedThoughts'] = session.items.filter((it) => it.omission?.target === 'thought').length;
    session.meta['omittedObservations'] = new Set(session.compactions.flatMap((c) => c.replacedIds)).size;
    return [session];
  },
};
