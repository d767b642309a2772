// Every original item against every call — verbatim, summarized, omitted, masked or dropped — as runs of calls
// with one label, built from the context spans (a label per item per call would be items × calls).
import type { Item } from '../model/types';
import type { Span } from './context-timeline';
import type { EvictionLabel } from './context-types';
import type { LabelRun } from './eviction-runs';
import type { Removal } from './replay';

export interface EvictionRow {
  item: Item;
  /** Calls with one label each, in order; calls before the item existed are in no run. */
  runs: LabelRun[];
}

function labelInContext(original: Item, seen: Item): EvictionLabel {
  if (original.omission?.target === 'thought') return 'omitted';
  if (seen.text !== original.text || (seen.omission && !original.omission)) return 'masked';
  if (seen.omission?.target === 'tool_result' || seen.omission?.target === 'observation') return 'masked';
  return 'verbatim';
}

export function evictionMap(
  items: readonly Item[],
  calls: readonly { output: readonly Item[] }[],
  spans: readonly Span[],
  removals: ReadonlyMap<string, Removal>,
): EvictionRow[] {
  const n = calls.length;
  const byItem = new Map<string, Span[]>();
  for (const s of spans) {
    const list = byItem.get(s.item.id);
    if (list) list.push(s);
    else byItem.set(s.item.id, [s]);
  }
  // An item produced by a call is known from the next call on, even when no context holds it.
  const producedBy = new Map<string, number>();
  calls.forEach((call, ci) => {
    for (const o of call.output) if (!producedBy.has(o.id)) producedBy.set(o.id, ci + 1);
  });
  return items
    .filter((it) => it.kind !== 'compaction')
    .map((item) => {
      const own = byItem.get(item.id) ?? [];
      let known = producedBy.get(item.id) ?? Infinity;
      for (const s of own) if (s.from < known) known = s.from;
      const runs: LabelRun[] = [];
      if (known >= n) return { item, runs };
      const r = removals.get(item.id);
      // Most items of a long session are sent from one call on and never removed: their runs without the sort below.
      const one = own.length === 1 && !r ? own[0]! : null;
      if (one && known <= one.from && one.from < one.to && one.to <= n) {
        if (known < one.from) runs.push({ label: 'dropped', start: known, end: one.from - 1 });
        runs.push({ label: labelInContext(item, one.item), start: one.from, end: one.to - 1 });
        if (one.to < n) runs.push({ label: 'dropped', start: one.to, end: n - 1 });
        return { item, runs };
      }
      const cuts = new Set<number>([known, n]);
      for (const s of own) cuts.add(s.from).add(s.to);
      if (r) cuts.add(r.fromCall);
      const points = [...cuts].filter((p) => p >= known && p <= n).sort((a, b) => a - b);
      for (let k = 0; k + 1 < points.length; k++) {
        const at = points[k]!;
        const seen = own.find((s) => s.from <= at && at < s.to);
        const label: EvictionLabel = seen ? labelInContext(item, seen.item) : r && r.fromCall <= at ? r.label : 'dropped';
        const last = runs[runs.length - 1];
        if (last && last.label === label && last.end === at - 1) last.end = points[k + 1]! - 1;
        else runs.push({ label, start: at, end: points[k + 1]! - 1 });
      }
      return { item, runs };
    });
}
