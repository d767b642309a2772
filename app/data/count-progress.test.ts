import { describe, expect, it } from 'vitest';
import { PROGRESS_EVERY_MS, progressSource } from './count-progress';

describe('progressSource', () => {
  it('shows the first tick, drops ticks that come sooner than the interval, and always shows the final one', () => {
    let t = 0;
    const source = progressSource(() => t);
    const seen: (number | undefined)[] = [];
    source.subscribe(() => seen.push(source.get()?.done));
    expect(source.get()).toBeNull();

    source.set({ done: 0, total: 10 });
    t += 5;
    source.set({ done: 3, total: 10 }); // too soon: dropped
    expect(source.get()?.done).toBe(0);
    t += PROGRESS_EVERY_MS;
    source.set({ done: 6, total: 10 });
    t += 1;
    source.set({ done: 10, total: 10 }); // final: shown however soon
    expect(seen).toEqual([0, 6, 10]);
    expect(source.get()).toEqual({ done: 10, total: 10 });
  });

  it('stops telling a listener once it unsubscribes', () => {
    const source = progressSource(() => 0);
    let calls = 0;
    const off = source.subscribe(() => calls++);
    source.set({ done: 1, total: 2 });
    off();
    source.set({ done: 2, total: 2 });
    expect(calls).toBe(1);
  });
});
