// The uncompacted history of a research trajectory, for a re-run. Self-Sum agents and iterated summarization
// compact by themselves: a Self-Sum agent asks to summarize (its `summary` action, answered by the summary
// prompt), writes the summary, and the next segment opens with a user turn restating the query and that summary;
// an iterated-summarization attempt is prompted with the question and every earlier summary. Compared with
// another policy, those turns would be summaries of the recorded policy left in the history the re-run compacts.
// The original turns are all in the file (each segment's items, each attempt's reasoning and answer), and a
// re-run puts every one of them back (`newItemsPerCall`), so taking the recorded policy's own turns out leaves
// the history as it was before any summary. An iterated-summarization prompt is put back as the question alone.
import type { Item, Session } from '../model/types';

export interface ResearchHistory {
  /** Per call, the items it adds, without the recorded policy's turns. */
  fresh: Item[][];
  /** Ids taken out, in session order. */
  removedIds: string[];
  /** What was taken out, for the result's warnings; null when nothing was. */
  note: string | null;
}

const RESEARCH_FORMATS = new Set<Session['format']>(['self-sum', 'reasoning-trace']);

/**
 * Ids of the recorded policy's own turns: its summaries, the turns that restate them (`restatedIn`), and a
 * Self-Sum agent's summary actions with the summary prompt that answers them.
 */
export function recordedPolicyIds(session: Session): Set<string> {
  const ids = new Set<string>();
  if (!RESEARCH_FORMATS.has(session.format)) return ids;
  for (const c of session.compactions) {
    if (c.summaryId) ids.add(c.summaryId);
    if (c.restatedIn) ids.add(c.restatedIn);
  }
  session.items.forEach((it, i) => {
    if (it.kind === 'summary') ids.add(it.id);
    if (it.meta?.['carriesSummary'] === true) ids.add(it.id);
    if (it.meta?.['summaryTiming'] === true) {
      // The whole timing turn (its thought is about when to summarize) and the summary prompt answering it.
      ids.add(it.id);
      if (it.pairId) ids.add(it.pairId);
      const before = session.items[i - 1];
      if (before && before.kind === 'thinking' && before.role === 'assistant') ids.add(before.id);
    }
  });
  return ids;
}

/**
 * An iterated-summarization prompt restating earlier summaries, as it was before any summary: the first
 * prompt's text (the question), so each attempt still starts with its own user turn.
 */
function unsummarizedPrompts(session: Session): Map<string, Item> {
  const out = new Map<string, Item>();
  if (session.format !== 'reasoning-trace') return out;
  const first = session.items.find((it) => it.role === 'user' && it.kind === 'message');
  if (!first) return out;
  for (const c of session.compactions) {
    const carrier = c.restatedIn ? session.items.find((it) => it.id === c.restatedIn) : undefined;
    if (carrier && carrier.id !== first.id) out.set(carrier.id, { ...carrier, text: first.text, meta: { ...carrier.meta, withoutSummaries: true } });
  }
  return out;
}

export function researchHistory(session: Session, fresh: Item[][]): ResearchHistory {
  const ids = recordedPolicyIds(session);
  if (ids.size === 0) return { fresh, removedIds: [], note: null };
  const restored = unsummarizedPrompts(session);
  const removed = new Set<string>();
  const out = fresh.map((items) =>
    items.flatMap((it) => {
      const back = restored.get(it.id);
      if (back) return [back];
      if (!ids.has(it.id)) return [it];
      removed.add(it.id);
      return [];
    }),
  );
  const order = new Map(session.items.map((it, i) => [it.id, i]));
  const removedIds = [...removed].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const summaries = session.items.filter((it) => it.kind === 'summary').length;
  const what =
    session.format === 'self-sum'
      ? 'the summary actions and prompts, and the segment-opening turns restating the query and summary, were taken out'
      : 'were taken out of the prompts, which ask the question alone again';
  const note = summaries > 0 ? `the recorded ${summaries === 1 ? 'summary' : `${summaries} summaries`}, ${what}: the re-run compacts the original turns` : null;
  return { fresh: out, removedIds, note };
}
