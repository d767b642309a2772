// Every original item against every call: verbatim, summarized, omitted, masked or dropped.
import type { Item } from '../model/types';
import type { CallContext, EvictionLabel } from './context-types';
import type { Removal } from './replay';

export interface EvictionRow {
  item: Item;
  /** One label per call; null before the item existed. */
  labels: (EvictionLabel | null)[];
}

function labelInContext(original: Item, seen: Item): EvictionLabel {
  if (original.omission?.target === 'thought') return 'omitted';
  if (seen.text !== original.text || (seen.omission && !original.omission)) return 'masked';
  if (seen.omission?.target === 'tool_result' || seen.omission?.target === 'observation') return 'masked';
  return 'verbatim';
}

export function evictionMap(items: readonly Item[], calls: readonly CallContext[], removals: ReadonlyMap<string, Removal>): EvictionRow[] {
  // The first call at which each item is known: sent in its context, or produced by an earlier call.
  // (A copy of the known set per call made this quadratic in memory on long sessions.)
  const knownFrom = new Map<string, number>();
  const perCall = calls.map((call, ci) => {
    const inContext = new Map(call.entries.map((e) => [e.item.id, e.item]));
    for (const id of inContext.keys()) if (!knownFrom.has(id)) knownFrom.set(id, ci);
    for (const o of call.output) if (!knownFrom.has(o.id)) knownFrom.set(o.id, ci + 1);
    return inContext;
  });
  return items
    .filter((it) => it.kind !== 'compaction')
    .map((item) => ({
      item,
      labels: perCall.map((inContext, ci): EvictionLabel | null => {
        const seen = inContext.get(item.id);
        if (seen) return labelInContext(item, seen);
        if ((knownFrom.get(item.id) ?? Infinity) > ci) return null;
        const r = removals.get(item.id);
        return r && r.fromCall <= ci ? r.label : 'dropped';
      }),
    }));
}
