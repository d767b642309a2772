// The re-fetch tax of a compaction: after it, agents fetch again what they had before it (the same file, the same
// command, the same URL). A tool call after the compaction that repeats a call whose result the compaction
// removed (same tool, same main argument, see call-target.ts) pays for that result again. When the file was
// written in between (an Edit or Write to it), the read returns something new: that re-read is counted apart.
import type { CallContext } from '../analysis/context-types';
import type { CompactionEvent, Item } from '../model/types';
import { callTarget, targetKey, type CallTarget } from './call-target';

export interface Refetch {
  /** The repeating tool call's item id, and the 1-based model call that made it (null when no call shows it). */
  callId: string;
  call: number | null;
  tool: string;
  target: string;
  /** Tokens of the repeated call's result. */
  tokens: number;
  /** The earlier call whose result the compaction removed. */
  earlierCallId: string;
  earlierCall: number | null;
}

export interface CompactionRefetch {
  /** 0-based index of the compaction in the session, and its id. */
  compaction: number;
  compactionId: string;
  /** Repeats of a removed result that fetched the same content again: the tax. */
  refetches: Refetch[];
  refetchTokens: number;
  /** Re-reads of a file written between the two reads: new content, not waste. */
  changedRereads: Refetch[];
}

export interface RefetchInput {
  items: readonly Item[];
  compactions: readonly CompactionEvent[];
  /** The model calls, to name each tool call by the 1-based call that made it. */
  calls: readonly Pick<CallContext, 'output'>[];
  count(text: string): number;
}

/** Where a compaction takes effect: its summary or boundary record, else right after the last item it removed. */
function positionOf(event: CompactionEvent, at: ReadonlyMap<string, number>): number {
  const anchors = [event.summaryId, event.atItemId].map((id) => (id ? at.get(id) : undefined)).filter((i): i is number => i !== undefined);
  if (anchors.length > 0) return Math.max(...anchors);
  const removed = event.replacedIds.map((id) => at.get(id) ?? -1);
  return removed.length > 0 ? Math.max(...removed) : -1;
}

/** The re-fetch tax of every compaction that records what it removed, in order. */
export function refetchTax(input: RefetchInput): CompactionRefetch[] {
  // Without a compaction that removed something there is no tax: no call's arguments need parsing.
  if (!input.compactions.some((e) => e.replacedIds.length > 0)) return [];
  const { items } = input;
  const at = new Map<string, number>();
  items.forEach((it, i) => at.set(it.id, i));
  const byId = new Map(items.map((it) => [it.id, it]));
  const madeBy = new Map<string, number>();
  input.calls.forEach((c, ci) => {
    for (const o of c.output) if (!madeBy.has(o.id)) madeBy.set(o.id, ci + 1);
  });
  const targets = items.map((it) => callTarget(it));
  const resultOf = (call: Item): Item | undefined => (call.pairId ? byId.get(call.pairId) : undefined);

  // Where each file is written (Edit, Write): a read after a write returns new content.
  const written = new Map<string, number[]>();
  targets.forEach((t, i) => {
    if (!t?.writes || !t.file) return;
    const list = written.get(t.file);
    if (list) list.push(i);
    else written.set(t.file, [i]);
  });

  const placed = input.compactions
    .filter((e) => e.replacedIds.length > 0)
    .map((event) => ({ event, pos: positionOf(event, at) }))
    .sort((a, b) => a.pos - b.pos);

  return placed.map(({ event, pos }, k) => {
    // Fetches whose result the compaction removed, by key: the latest such call before the compaction. Read from
    // the removed ids, not by scanning the items before it: a long session has thousands of compactions.
    const gone = new Map<string, { item: Item; index: number; target: CallTarget }>();
    for (const id of event.replacedIds) {
      const result = byId.get(id);
      if (result?.kind !== 'tool_result' || !result.pairId) continue;
      const index = at.get(result.pairId);
      if (index === undefined || index > pos) continue;
      const t = targets[index];
      if (!t || t.writes) continue;
      const key = targetKey(t);
      if ((gone.get(key)?.index ?? -1) < index) gone.set(key, { item: items[index]!, index, target: t });
    }
    const refetches: Refetch[] = [];
    const changedRereads: Refetch[] = [];
    // The calls made while this compaction's result was in effect: up to the next compaction.
    const end = k + 1 < placed.length ? placed[k + 1]!.pos : items.length - 1;
    const seen = new Set<string>();
    for (let i = pos + 1; i <= end && i < items.length; i++) {
      const t = targets[i];
      if (!t || t.writes) continue;
      const key = targetKey(t);
      const earlier = gone.get(key);
      // Only the first repeat pays for what the compaction took; later ones repeat the repeat.
      if (!earlier || seen.has(key)) continue;
      seen.add(key);
      const call = items[i]!;
      const result = resultOf(call);
      const row: Refetch = {
        callId: call.id,
        call: madeBy.get(call.id) ?? null,
        tool: t.tool,
        target: t.target,
        tokens: result ? input.count(result.text) : 0,
        earlierCallId: earlier.item.id,
        earlierCall: madeBy.get(earlier.item.id) ?? null,
      };
      const changed = t.file !== null && (written.get(t.file) ?? []).some((w) => w > earlier.index && w < i);
      (changed ? changedRereads : refetches).push(row);
    }
    return {
      compaction: event.index,
      compactionId: event.id,
      refetches,
      refetchTokens: refetches.reduce((n, r) => n + r.tokens, 0),
      changedRereads,
    };
  });
}
