// Self-Sum trajectories: the agent decides itself when to summarize, and each summary starts a new segment.
//
// Accepted shape: one flat chronological list in any container of trajectory.ts, e.g.
//   {"task"?, "success"?, "reward"?, "messages": [
//     {"role":"system", …},
//     {"role":"user", "content": "<query>"},                                   segment 1 starts (U^(0) = q)
//     {"role":"assistant", "content": "<think>…</think><action>go to countertop 1</action>"},
//     {"role":"user" | "environment", "content": "<observation>"},            answers the action
//     …
//     {"role":"assistant", "content": "<think>…</think><action>summary</action>"},   summarization-timing turn
//     {"role":"user", "content": "<summary prompt>"},                          optional
//     {"role":"assistant", "content": "<summary>…</summary>"},                 summarization-content turn: closes segment 1
//     {"role":"user", "content": "<query + summary>"},                         segment 2 starts (U^(1) = (q, s_1))
//     …]}
// Items get meta.segment = k (from 1); the user turn that starts segment k+1 gets meta.carriesSummary.
// Each summary → a `summary` compaction replacing the items of the segment it closes (and the previous
// summary, which the new segment no longer restates), keeping the query; `restatedIn` names the user turn
// that carries both into the next segment, which is then sent that turn and what follows it, nothing earlier.
import type { Document } from '../load/document';
import type { CompactionEvent, Item } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter } from './adapter';
import { readTrajectory, trajectoryItems, trajectorySignals } from './trajectory';

const SUMMARY_ACTION = /^\s*summar(?:y|ize|ise)\s*$/i;

function isTimingCall(item: Item): boolean {
  return item.kind === 'tool_call' && (SUMMARY_ACTION.test(item.text) || SUMMARY_ACTION.test(item.name ?? ''));
}

/** Segments and summary compactions over items in chronological order. Mutates the items' meta. */
export function selfSumSegments(items: Item[]): CompactionEvent[] {
  const compactions: CompactionEvent[] = [];
  const query = items.find((it) => it.role === 'user' && it.kind === 'message');
  let segment = 1;
  let open: Item[] = [];
  let timing: Item | null = null;
  let previousSummary: Item | null = null;
  let restatePending = false;
  for (const item of items) {
    if (restatePending && item.role === 'user' && item.kind === 'message') {
      item.meta = { ...item.meta, carriesSummary: true };
      // The next segment is sent U^(k) = (q, s_k) in this turn, not the query and the summary again beside it.
      compactions[compactions.length - 1]!.restatedIn = item.id;
      restatePending = false;
    }
    item.meta = { ...item.meta, segment };
    if (isTimingCall(item)) {
      item.meta = { ...item.meta, summaryTiming: true };
      timing = item;
    }
    if (item.kind !== 'summary') {
      open.push(item);
      continue;
    }
    compactions.push({
      id: `c${compactions.length}`,
      index: compactions.length,
      kind: 'summary',
      // The agent chose the moment with its summary action; without one the trigger is unknown.
      trigger: timing ? 'agent' : null,
      tokensBefore: null,
      tokensAfter: null,
      // A new segment restates only the query and the newest summary, so the previous summary goes too.
      replacedIds: [...(previousSummary ? [previousSummary.id] : []), ...open.filter((it) => it !== query && it.role !== 'system' && it.role !== 'developer').map((it) => it.id)],
      keptIds: query ? [query.id] : [],
      summaryId: item.id,
      atItemId: item.id,
      source: item.source,
    });
    segment++;
    open = [];
    timing = null;
    previousSummary = item;
    restatePending = true;
  }
  return compactions;
}

export const selfSum: FormatAdapter = {
  id: 'self-sum',
  label: 'Self-Sum trajectory',
  // Self-Sum and Agent-Omit read the same chat/ShareGPT containers, recognized by their tags.
  refines: ['sharegpt', 'openai-chat'],
  sniff(doc: Document) {
    const s = trajectorySignals(doc);
    if (!s) return 0;
    if (/<summary>/.test(s.agentText)) return 0.92;
    return /<action>/.test(s.agentText) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const traj = doc.kind === 'json' ? readTrajectory(doc.value, ctx) : null;
    const session = emptySession('self-sum', ctx.file, idFromFile(ctx.file));
    if (!traj) {
      ctx.error({ path: ['messages'] }, 'expected a `messages` or `conversations` array, or an array of turns');
      return [session];
    }
    if (traj.id) session.id = traj.id;
    session.model = traj.model;
    session.meta = { ...traj.meta };
    session.items = trajectoryItems(traj, ctx.file, { userTurnsAnswerCalls: true });
    session.compactions = selfSumSegments(session.items);
    session.meta['segments'] = session.compactions.length + 1;
    return [session];
  },
};
