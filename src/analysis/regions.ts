// Splits one call's context into head / summary / middle / tail.
import type { Item } from '../model/types';
import type { ContextEntry, RegionName } from './context-types';

function isRecap(item: Item): boolean {
  return item.kind === 'summary' || (item.kind === 'omission' && item.omission?.target === 'turns');
}

/**
 * With a recap in the context: head = everything before the first recap, summary = the recaps,
 * middle = anything between stacked recaps, tail = everything after the last one.
 * Without one: head = the leading system/developer items and the first user turn, tail = the rest.
 */
export function assignRegions(items: readonly Item[]): ContextEntry[] {
  const recaps = items.map((it, i) => (isRecap(it) ? i : -1)).filter((i) => i >= 0);
  if (recaps.length > 0) {
    const first = recaps[0]!;
    const last = recaps[recaps.length - 1]!;
    return items.map((item, i) => {
      let region: RegionName;
      if (i < first) region = 'head';
      else if (isRecap(item)) region = 'summary';
      else if (i < last) region = 'middle';
      else region = 'tail';
      return { item, region };
    });
  }
  let headEnd = 0;
  while (headEnd < items.length && (items[headEnd]!.role === 'system' || items[headEnd]!.role === 'developer')) headEnd++;
  if (headEnd < items.length && items[headEnd]!.role === 'user') headEnd++;
  return items.map((item, i) => ({ item, region: i < headEnd ? 'head' : 'tail' }));
}
