// What a cache miss costs: the one definition every surface reads (the cache panel, `inspect`, `check
// --max-miss-cost`, the HTML report, corpus rows, and the re-run's cost of compacting, recorded and replayed).
//
// A call's prompt is served from the cache up to `read`; the previous call left `previousCacheable` tokens cached.
// Only the part of this prompt that the previous call had left cached and that was not read can be "processed
// again": at most the prompt sent less what it read, and at most what was cached less what was read. What was
// cached that this prompt no longer sends (a compaction dropped it on purpose; thinking the API strips at a new
// human turn) is not processed at all: it is `droppedTokens`, the compaction's doing, never priced as a miss.
import { missCost, type ModelPrice } from '../cost/prices';

export interface MissFigures {
  /** This call's whole prompt (reported, else predicted). */
  prompt: number;
  /** Tokens of it served from the cache (reported, else predicted). */
  read: number;
  /** What the previous call left in the cache (reported, else predicted); 0 when nothing was cacheable. */
  previousCacheable: number;
}

export interface MissTokens {
  /** Tokens processed again although the previous call had left them cached: min(prompt, previousCacheable) − read, ≥ 0. */
  missTokens: number;
  /** Tokens the previous call left cached that this prompt no longer sends: previousCacheable − prompt, ≥ 0. */
  droppedTokens: number;
}

/**
 * Who pays a call's miss: `miss` (a cache break: "lost to misses", what `--max-miss-cost` gates), `compaction` (the
 * call right after a compaction: the compaction's cost, reported with it and apart from misses), `shortfall` (the
 * uncached tail an OpenAI-style cache leaves: a cost, not a break), or nobody (`null`: a hit).
 */
export type MissCharge = 'miss' | 'compaction' | 'shortfall';

/** The miss of one call, by the one definition. Never more than `prompt − read`. */
export function missTokensOf(f: MissFigures): MissTokens {
  const prompt = Math.max(0, f.prompt);
  const read = Math.min(Math.max(0, f.read), prompt);
  const cached = Math.max(0, f.previousCacheable);
  return { missTokens: Math.max(0, Math.min(prompt, cached) - read), droppedTokens: Math.max(0, cached - prompt) };
}

/** Dollars a miss of `tokens` costs against a hit: written again at the lifetime's write price instead of read. */
export function missCostUsd(tokens: number, price: ModelPrice | null, ttl: '5m' | '1h'): number | null {
  if (!price) return null;
  return Math.round(missCost(price, tokens, ttl) * 1e6) / 1e6;
}
