// Splits one call's context into head / summary / middle / tail.
import type { Item } from '../model/types';
import type { ContextEntry, RegionName } from './context-types';

/** What the region rule reads of an item, as bits: reading them off items call after call costs more than the rule. */
export const SYSTEM_FLAG = 1;
export const RECAP_FLAG = 2;
export const USER_FLAG = 4;

export function regionFlags(item: Item): number {
  let f = 0;
  if (item.role === 'system' || item.role === 'developer') f |= SYSTEM_FLAG;
  if (item.kind === 'summary' || (item.kind === 'omission' && item.omission?.target === 'turns')) f |= RECAP_FLAG;
  if (item.role === 'user') f |= USER_FLAG;
  return f;
}

/**
 * With a recap in the context: head = everything before the first recap, summary = the recaps,
 * middle = anything between stacked recaps, tail = everything after the last one.
 * Without one: head = the leading system/developer items and the first user turn, tail = the rest.
 */
export function regionsOf(flags: ArrayLike<number>): RegionName[] {
  const frame = regionFrame(flags.length, (k) => flags[k]!);
  return Array.from({ length: flags.length }, (_, k) => regionAt(k, flags[k]!, frame));
}

/** Where the regions of a context of `n` items start and end, from each item's flags. */
export interface RegionFrame {
  firstRecap: number;
  lastRecap: number;
  /** Without a recap: items before this index are the head. */
  headEnd: number;
}

export function regionFrame(n: number, flagAt: (k: number) => number): RegionFrame {
  let firstRecap = -1;
  let lastRecap = -1;
  for (let k = 0; k < n; k++) {
    if (!(flagAt(k) & RECAP_FLAG)) continue;
    if (firstRecap < 0) firstRecap = k;
    lastRecap = k;
  }
  let headEnd = 0;
  if (firstRecap < 0) {
    while (headEnd < n && flagAt(headEnd) & SYSTEM_FLAG) headEnd++;
    if (headEnd < n && flagAt(headEnd) & USER_FLAG) headEnd++;
  }
  return { firstRecap, lastRecap, headEnd };
}

/** The region of the item at `k`, whose flags are `flags`. */
export function regionAt(k: number, flags: number, f: RegionFrame): RegionName {
  if (f.firstRecap < 0) return k < f.headEnd ? 'head' : 'tail';
  return k < f.firstRecap ? 'head' : flags & RECAP_FLAG ? 'summary' : k < f.lastRecap ? 'middle' : 'tail';
}

export function assignRegions(items: readonly Item[]): ContextEntry[] {
  const regions = regionsOf(items.map(regionFlags));
  return items.map((item, i) => ({ item, region: regions[i]! }));
}
