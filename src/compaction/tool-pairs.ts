// A tool call and its result are one unit: summarize or drop them together or not at all, so a rebuilt
// context never holds an orphaned result (course unit, inherited from drop-oldest).
import type { Item } from '../model/types';

const isToolItem = (it: Item) => it.kind === 'tool_call' || it.kind === 'tool_result';

/**
 * The key linking an item to its pair: the paired call's id once pairing matched them, else the provider
 * call id (an unmatched call or result still must not be separated from a same-id partner).
 */
function pairKey(it: Item): string | null {
  if (!isToolItem(it)) return null;
  if (it.pairId) return `p:${it.kind === 'tool_call' ? it.id : it.pairId}`;
  return it.callId ? `c:${it.callId}` : null;
}

/** Indices of each group of linked tool items present in `items` (a call and its results), groups of two or more. */
export function pairGroups(items: readonly Item[]): number[][] {
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => {
    const key = pairKey(it);
    if (key === null) return;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()].filter((g) => g.length > 1);
}

/** For every group of linked tool items, the span [first index, last index]. */
export function pairSpans(items: readonly Item[]): [number, number][] {
  return pairGroups(items).map((g) => [g[0]!, g[g.length - 1]!]);
}

/** Does a cut before index `cut` put one side of a tool pair before it and the other after? */
export function cutSplitsPair(items: readonly Item[], cut: number, spans: readonly [number, number][] = pairSpans(items)): boolean {
  return spans.some(([a, b]) => a < cut && cut <= b);
}

/**
 * The nearest cut that splits no pair, moving `earlier` (towards index 0) or `later`. Never moves past
 * `0` or `items.length`, both of which are always safe.
 */
export function safeCut(items: readonly Item[], cut: number, direction: 'earlier' | 'later', spans: readonly [number, number][] = pairSpans(items)): number {
  let c = Math.max(0, Math.min(items.length, cut));
  for (;;) {
    const crossing = spans.filter(([a, b]) => a < c && c <= b);
    if (crossing.length === 0) return c;
    c = direction === 'earlier' ? Math.min(...crossing.map(([a]) => a)) : Math.max(...crossing.map(([, b]) => b)) + 1;
  }
}

/**
 * Ids in `after` whose tool pair was in `before` but is missing from `after`: a split pair. An item
 * whose content was replaced in place (masked, omitted) keeps its id, so it still counts as present.
 */
export function splitPairs(before: readonly Item[], after: readonly Item[]): string[] {
  const kept = new Set(after.map((it) => it.id));
  const out: string[] = [];
  for (const group of pairGroups(before)) {
    const ids = group.map((i) => before[i]!.id);
    const present = ids.filter((id) => kept.has(id));
    if (present.length > 0 && present.length < ids.length) out.push(...present);
  }
  return out;
}
