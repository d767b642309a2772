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
  const n = flags.length;
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (!(flags[i]! & RECAP_FLAG)) continue;
    if (first < 0) first = i;
    last = i;
  }
  const out = new Array<RegionName>(n);
  if (first >= 0) {
    for (let i = 0; i < n; i++) out[i] = i < first ? 'head' : flags[i]! & RECAP_FLAG ? 'summary' : i < last ? 'middle' : 'tail';
    return out;
  }
  let headEnd = 0;
  while (headEnd < n && flags[headEnd]! & SYSTEM_FLAG) headEnd++;
  if (headEnd < n && flags[headEnd]! & USER_FLAG) headEnd++;
  for (let i = 0; i < n; i++) out[i] = i < headEnd ? 'head' : 'tail';
  return out;
}

export function assignRegions(items: readonly Item[]): ContextEntry[] {
  const regions = regionsOf(items.map(regionFlags));
  return items.map((item, i) => ({ item, region: regions[i]! }));
}
