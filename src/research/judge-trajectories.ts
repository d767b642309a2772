// The trajectories the Self-Sum judge (src/corpus/judge.ts, the paper's Table 10) reads in the inspector: the
// recorded one, and the one a re-run would have written — the same turns with the re-run's summaries where it
// compacted, the recorded policy's own summary turns taken out. The judge then scores both on one rubric.
import { modelCalls } from '../analysis/calls';
import { recordedPolicyIds } from '../compaction/research-history';
import type { Item, Session } from '../model/types';

/** What the judge needs of a re-run compaction. */
export interface RerunSummary {
  /** 0-based call the compaction ran before. */
  callIndex: number;
  summaryId: string | null;
  summaryText: string | null;
}

/**
 * The session as the re-run would have written it: the recorded policy's summaries and the turns that restate
 * them out, and each re-run summary just before the call it was compacted for. Compactions without a summary
 * (a marker, masking in place) add nothing the judge could score.
 */
export function rerunTrajectory(session: Session, events: readonly RerunSummary[]): Session {
  const policy = recordedPolicyIds(session);
  const calls = modelCalls(session);
  const before = new Map<string, Item[]>();
  for (const e of events) {
    if (e.summaryText === null || e.summaryText.trim() === '') continue;
    const first = calls[e.callIndex]?.itemIds[0];
    if (!first) continue;
    const item: Item = { id: e.summaryId ?? `rerun.${e.callIndex}.summary`, kind: 'summary', role: 'assistant', text: e.summaryText, source: { file: '(rerun)', line: null }, meta: { rerun: true } };
    before.set(first, [...(before.get(first) ?? []), item]);
  }
  const items = session.items.flatMap((it) => {
    if (policy.has(it.id) || (policy.size === 0 && it.kind === 'summary')) return [...(before.get(it.id) ?? [])];
    return [...(before.get(it.id) ?? []), it];
  });
  return { ...session, id: `${session.id} (re-run)`, items, compactions: [] };
}

/** Summaries the judge would read in a session. */
export const judgedSummaries = (session: Session) => session.items.filter((it) => it.kind === 'summary');
