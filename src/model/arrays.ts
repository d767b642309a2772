// Array helpers that do not spread: `a.push(...b)` and `Math.max(...b)` pass every element as an argument,
// and past about a hundred thousand elements (a 1M-line request log) that overflows the stack.

/** Appends `source` to `target` one by one. */
export function pushAll<T>(target: T[], source: Iterable<T>): void {
  for (const x of source) target.push(x);
}

/** The largest value, `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let max = empty;
  for (const v of values) if (v > max) max = v;
  return max;
}
