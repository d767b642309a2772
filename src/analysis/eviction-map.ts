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
  const known = new Set<string>();
  const perCall = calls.map((call) => {
    const inContext = new Map(call.entries.map((e) => [e.item.id, e.item]));
    for (const id of inContext.keys()) known.add(id);
    const snapshot = new Set(known);
    for (const o of call.output) known.add(o.id);
    return { inContext, known: snapshot };
  });
  return items
    .filter((it) => it.kind !== 'compaction')
    .map((item) => ({
      item,
      labels: perCall.map(({ inContext, known: k }, ci): EvictionLabel | null => {
        const seen = inContext.get(item.id);
        if (seen) return labelInContext(item, seen);
        if (!k.has(item.id)) return null;
        const r = removals.get(item.id);
        return r && r.fromCall <= ci ? r.label : 'dropped';
      }),
    }));
}
