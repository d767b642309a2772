import { describe, expect, it } from 'vitest';
import type { CallBands } from '../analysis/analysis-view';
import type { CompactionEvent } from '../model/types';
import { bandsTotal, bucketCalls, bucketOf, compactionThreshold, newInputByRegion, stackBands, usageSplit } from './budget-bars';

const bands = (b: Partial<CallBands>): CallBands => ({ system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0, ...b });

const compaction = (id: string, tokensBefore: number | null): CompactionEvent => ({
  id,
  index: 0,
  kind: 'summary',
  trigger: null,
  tokensBefore,
  tokensAfter: null,
  replacedIds: [],
  keptIds: [],
  summaryId: null,
  atItemId: null,
  source: { file: 'test', line: null },
});

describe('stackBands', () => {
  it('stacks the non-empty bands bottom-up in prompt order, output last', () => {
    // Call 7 of the coding-agent demo: right after the first compaction.
    const b = bands({ system: 1193, tools: 905, head: 48, tail: 245, newInput: 227, output: 246 });
    expect(stackBands(b)).toEqual([
      { key: 'system', value: 1193, from: 0, to: 1193 },
      { key: 'tools', value: 905, from: 1193, to: 2098 },
      { key: 'head', value: 48, from: 2098, to: 2146 },
      { key: 'tail', value: 245, from: 2146, to: 2391 },
      { key: 'newInput', value: 227, from: 2391, to: 2618 },
      { key: 'output', value: 246, from: 2618, to: 2864 },
    ]);
    expect(bandsTotal(b)).toBe(2864);
  });

  it('puts summary and middle between head and tail', () => {
    expect(stackBands(bands({ head: 1, summary: 2, middle: 3, tail: 4 })).map((s) => s.key)).toEqual(['head', 'summary', 'middle', 'tail']);
  });

  it('gives an empty call no segments and a zero total', () => {
    expect(stackBands(bands({}))).toEqual([]);
    expect(bandsTotal(bands({}))).toBe(0);
  });
});

describe('usageSplit', () => {
  it('takes OpenAI-style input as the whole prompt, cached tokens inside it', () => {
    expect(usageSplit({ input: 2376, output: 299, cacheRead: 1792, cacheWrite: null })).toEqual({
      prompt: 2376,
      cacheRead: 1792,
      cacheWrite: 0,
      uncached: 584,
      readReported: true,
      writeReported: false,
    });
  });

  it('adds Anthropic cache reads and writes to the uncached input', () => {
    expect(usageSplit({ input: 12, output: 40, cacheRead: 20_000, cacheWrite: 1_500 })).toEqual({
      prompt: 21_512,
      cacheRead: 20_000,
      cacheWrite: 1_500,
      uncached: 12,
      readReported: true,
      writeReported: true,
    });
  });

  it('is null without usage or without a prompt figure', () => {
    expect(usageSplit(null)).toBeNull();
    expect(usageSplit({ input: null, output: 10, cacheRead: 5, cacheWrite: null })).toBeNull();
  });

  it('never reports negative uncached tokens when cache reads exceed the prompt', () => {
    expect(usageSplit({ input: 100, output: 0, cacheRead: 120, cacheWrite: null })!.uncached).toBe(0);
  });
});

describe('compactionThreshold', () => {
  it('is the smallest context size at which a compaction fired', () => {
    expect(compactionThreshold([compaction('log1', 3702), compaction('log2', 3536)])).toBe(3536);
  });

  it('ignores compactions that do not record their size, and is null when none does', () => {
    expect(compactionThreshold([compaction('a', null), compaction('b', 9000)])).toBe(9000);
    expect(compactionThreshold([compaction('a', null)])).toBeNull();
    expect(compactionThreshold([])).toBeNull();
  });
});

describe('bucketCalls', () => {
  it('keeps one bucket per call when there is room', () => {
    expect(bucketCalls([5, 9, 3], 400)).toEqual([
      { start: 0, end: 0, peak: 0 },
      { start: 1, end: 1, peak: 1 },
      { start: 2, end: 2, peak: 2 },
    ]);
  });

  it('groups 2,000 calls into 400 buckets of 5, each drawn as its peak call', () => {
    const totals = Array.from({ length: 2000 }, (_, i) => (i % 5 === 3 ? 1000 + i : i));
    const b = bucketCalls(totals, 400);
    expect(b).toHaveLength(400);
    expect(b[0]).toEqual({ start: 0, end: 4, peak: 3 });
    expect(b[399]).toEqual({ start: 1995, end: 1999, peak: 1998 });
  });

  it('makes the last bucket shorter when calls do not divide evenly, and takes the first peak on ties', () => {
    expect(bucketCalls([1, 1, 1, 2, 2], 2)).toEqual([
      { start: 0, end: 2, peak: 0 },
      { start: 3, end: 4, peak: 3 },
    ]);
  });

  it('is empty without calls', () => {
    expect(bucketCalls([], 400)).toEqual([]);
  });
});

describe('bucketOf', () => {
  it('finds the bucket of a call', () => {
    const b = bucketCalls(Array.from({ length: 11 }, () => 1), 4);
    expect(b.map((x) => [x.start, x.end])).toEqual([
      [0, 2],
      [3, 5],
      [6, 8],
      [9, 10],
    ]);
    expect([0, 2, 3, 8, 10].map((i) => bucketOf(b, i))).toEqual([0, 0, 1, 2, 3]);
    expect(bucketOf([], 3)).toBe(-1);
  });
});

describe('newInputByRegion', () => {
  it('splits the new input of the call after a compaction into the new summary and the new tail turns', () => {
    const entries = [
      { id: 'sys', region: 'head' as const, tokens: 1044, variant: false, isNew: false },
      { id: 'u1', region: 'head' as const, tokens: 54, variant: false, isNew: false },
      { id: 'sum', region: 'summary' as const, tokens: 199, variant: false, isNew: true },
      { id: 'a9', region: 'tail' as const, tokens: 242, variant: false, isNew: false },
      { id: 'u9', region: 'tail' as const, tokens: 30, variant: false, isNew: true },
      { id: 'r9', region: 'tail' as const, tokens: 7, variant: false, isNew: true },
      { id: 'sys2', region: 'tail' as const, tokens: 12, variant: false, isNew: true },
    ];
    expect(newInputByRegion(entries, (id) => id.startsWith('sys'))).toEqual([
      { region: 'summary', tokens: 199 },
      { region: 'tail', tokens: 37 },
    ]);
  });

  it("given the call's bands, gives each part in their units, so the note never gives a band another figure", () => {
    const entries = [
      { id: 'sum', region: 'summary' as const, tokens: 3698, variant: false, isNew: true },
      { id: 'u9', region: 'tail' as const, tokens: 30, variant: false, isNew: true },
      { id: 'r9', region: 'tail' as const, tokens: 90, variant: false, isNew: true },
      { id: 'h1', region: 'head' as const, tokens: 40, variant: false, isNew: true },
    ];
    // The bands hold the items at their fitted size: the new summary is the whole summary band, the head and tail
    // parts share the new-input band as their counts do (40 : 120).
    expect(newInputByRegion(entries, () => false, { summary: 3739, newInput: 164 })).toEqual([
      { region: 'head', tokens: 41 },
      { region: 'summary', tokens: 3739 },
      { region: 'tail', tokens: 123 },
    ]);
    // An old summary beside a new one: the new one's share of the band.
    const twoSummaries = [{ id: 'old', region: 'summary' as const, tokens: 1000, variant: false, isNew: false }, { ...entries[0]! }];
    expect(newInputByRegion(twoSummaries, () => false, { summary: 4800, newInput: 0 })).toEqual([{ region: 'summary', tokens: Math.round((4800 * 3698) / 4698) }]);
  });

  it('is empty when nothing is new', () => {
    expect(newInputByRegion([{ id: 'a', region: 'tail', tokens: 5, variant: false, isNew: false }], () => false)).toEqual([]);
  });
});
