// The bars of the token budget chart: stacked bands per call, reported usage, compaction threshold, bucketing.
import type { CallBands, CallEntryView } from '../analysis/analysis-view';
import type { RegionName } from '../analysis/context-types';
import { promptTokens } from '../model/usage';
import type { CompactionEvent, Usage } from '../model/types';

export type BandKey = keyof CallBands;

/** Bottom to top: the order the prompt is sent in, then the output. */
export const BAND_ORDER: readonly BandKey[] = ['system', 'tools', 'head', 'summary', 'middle', 'tail', 'newInput', 'output'];

export const BAND_LABEL: Record<BandKey, string> = {
  system: 'System',
  tools: 'Tools',
  head: 'Head',
  summary: 'Summary',
  middle: 'Middle',
  tail: 'Tail',
  newInput: 'New input',
  output: 'Output',
};

export interface StackSegment {
  key: BandKey;
  value: number;
  /** Cumulative tokens below the segment. */
  from: number;
  /** Cumulative tokens at its top: from + value. */
  to: number;
}

/** The non-empty bands of a call, stacked in `BAND_ORDER`. */
export function stackBands(bands: CallBands): StackSegment[] {
  const out: StackSegment[] = [];
  let from = 0;
  for (const key of BAND_ORDER) {
    const value = Math.max(0, bands[key]);
    if (value === 0) continue;
    out.push({ key, value, from, to: from + value });
    from += value;
  }
  return out;
}

/** Height of the stacked bar: input plus output. */
export function bandsTotal(bands: CallBands): number {
  let n = 0;
  for (const key of BAND_ORDER) n += Math.max(0, bands[key]);
  return n;
}

export interface UsageSplit {
  /** Whole prompt as reported (see `promptTokens`). */
  prompt: number;
  cacheRead: number;
  cacheWrite: number;
  /** prompt − read − write, never below 0. */
  uncached: number;
  /** The provider reported a cache-read figure (otherwise `cacheRead` is 0 by default, not by report). */
  readReported: boolean;
  writeReported: boolean;
}

/**
 * Reported prompt tokens split into cache read, cache write and uncached; null when no prompt total is reported.
 * `reported` is the call's prompt as the engine reads it (by the provider's convention); without it, from usage alone.
 */
export function usageSplit(usage: Usage | null, reported?: number | null): UsageSplit | null {
  if (!usage) return null;
  const prompt = reported !== undefined ? reported : promptTokens(usage);
  if (prompt === null) return null;
  const cacheRead = Math.max(0, usage.cacheRead ?? 0);
  const cacheWrite = Math.max(0, usage.cacheWrite ?? 0);
  return {
    prompt,
    cacheRead,
    cacheWrite,
    uncached: Math.max(0, prompt - cacheRead - cacheWrite),
    readReported: usage.cacheRead !== null,
    writeReported: usage.cacheWrite !== null,
  };
}

/**
 * The compaction threshold the session shows: the smallest context size at which a compaction fired
 * (`tokensBefore`). Null when no compaction records one.
 */
export function compactionThreshold(compactions: readonly CompactionEvent[]): number | null {
  let min: number | null = null;
  for (const c of compactions) {
    if (c.tokensBefore === null || !(c.tokensBefore > 0)) continue;
    if (min === null || c.tokensBefore < min) min = c.tokensBefore;
  }
  return min;
}

export interface Bucket {
  /** First call index in the bucket. */
  start: number;
  /** Last call index, inclusive. */
  end: number;
  /** The call drawn for the bucket: the one with the largest total, first on ties. */
  peak: number;
}

/**
 * Groups `totals.length` calls into at most `maxBars` consecutive buckets of equal size (the last may
 * be shorter), each drawn as its peak call so the chart never hides how high the context got.
 * With `maxBars` ≥ the number of calls every call is its own bucket.
 */
export function bucketCalls(totals: readonly number[], maxBars: number): Bucket[] {
  const n = totals.length;
  if (n === 0) return [];
  const size = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(maxBars))));
  const out: Bucket[] = [];
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size) - 1;
    let peak = start;
    for (let i = start + 1; i <= end; i++) if (totals[i]! > totals[peak]!) peak = i;
    out.push({ start, end, peak });
  }
  return out;
}

/** Index of the bucket holding call `index` (buckets as made by `bucketCalls`). */
export function bucketOf(buckets: readonly Bucket[], index: number): number {
  if (buckets.length === 0) return -1;
  const size = buckets[0]!.end - buckets[0]!.start + 1;
  return Math.min(buckets.length - 1, Math.max(0, Math.floor(index / size)));
}

/**
 * What the call's new input is made of, by the region its items sit in. System-role items are left out, as the
 * system band holds them. Given the call's bands, the sizes are in their units (the recorded items at their fitted
 * size, what the bands add up to the reported prompt with), so the note beside a band never gives another figure
 * for it: a new summary is its share of the summary band (a recap stays in that band), the other new items share
 * the new-input band, each in proportion to what we count.
 */
export function newInputByRegion(
  entries: readonly CallEntryView[],
  isSystem: (id: string) => boolean,
  bands?: Pick<CallBands, 'summary' | 'newInput'>,
): { region: RegionName; tokens: number }[] {
  const by = new Map<RegionName, number>();
  let summaryAll = 0;
  for (const e of entries) {
    if (isSystem(e.id)) continue;
    if (e.region === 'summary') summaryAll += e.tokens;
    if (e.isNew) by.set(e.region, (by.get(e.region) ?? 0) + e.tokens);
  }
  const regions = (['head', 'summary', 'middle', 'tail'] as const).filter((r) => by.has(r));
  if (!bands) return regions.map((region) => ({ region, tokens: by.get(region)! }));
  const plainNew = regions.reduce((n, r) => (r === 'summary' ? n : n + by.get(r)!), 0);
  return regions.map((region) => {
    const counted = by.get(region)!;
    const [band, whole] = region === 'summary' ? [bands.summary, summaryAll] : [bands.newInput, plainNew];
    return { region, tokens: whole > 0 ? Math.round((band * counted) / whole) : 0 };
  });
}
