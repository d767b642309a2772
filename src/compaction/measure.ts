// Token size of items the way the cache analysis counts them: role/kind header plus text.
import { serializeItem } from '../cache/item-hash';
import type { Item } from '../model/types';

export function itemTokens(item: Item, count: (text: string) => number): number {
  return count(serializeItem(item));
}

export function contextTokens(items: readonly Item[], count: (text: string) => number): number {
  let n = 0;
  for (const it of items) n += itemTokens(it, count);
  return n;
}

/** A counter that remembers each item object's tokens: a rerun measures the same items on every call. */
export function itemTokenMemo(count: (text: string) => number): (item: Item) => number {
  const memo = new WeakMap<Item, number>();
  return (item) => {
    let n = memo.get(item);
    if (n === undefined) {
      n = itemTokens(item, count);
      memo.set(item, n);
    }
    return n;
  };
}
