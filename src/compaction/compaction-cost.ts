// What each compaction cost and saved, for a rerun and for the recorded run side by side: the summarizer
// call's tokens, the cache miss it causes on the next call (priced with src/cost/prices.ts: a miss is written
// again instead of read), and the tokens it saves until the next compaction. Dollars only where the model's
// price is known. The re-fetch tax (tools called again for what a compaction removed, src/refetch) is known for a
// recorded run only: a rerun never ran the agent, so which tools it would have called again is unknown (null).
import { billedCost } from '../cost/usage-cost';
import { missTokensOf } from '../cache/miss-cost';
import { missCost, priceOf, type ModelPrice } from '../cost/prices';
import type { CallFigures } from './metrics';

export interface CompactionCost {
  /** 1-based call the compacted context was first sent at. */
  call: number;
  /** Summarizer call tokens; null where the run does not record them (most recorded sessions). */
  summarizerPromptTokens: number | null;
  summarizerOutputTokens: number | null;
  /** The summarizer priced at the session model's price (harnesses summarize with their own model), its cache reads and writes included. */
  summarizerUsd: number | null;
  /**
   * Tokens of that call's prompt processed again although the call before had left them cached, by the one miss
   * definition (cache/miss-cost.ts: never more than the prompt less its read). What the compaction dropped from the
   * cache is not processed again, and is not counted here.
   */
  missTokens: number;
  /** What the miss costs over a hit. */
  missUsd: number | null;
  /** Context tokens taken out × the calls until the next compaction (or the end). */
  savedTokens: number;
  /** The saved tokens at the cache-read price (they would mostly have been read from cache). */
  savedUsd: number | null;
  /** Tokens of the results of tool calls repeated for what the compaction removed; null where not observed. */
  refetchTax: number | null;
}

/** The per-compaction figures summed over a run. */
export interface CompactionCostTotals extends Omit<CompactionCost, 'call'> {
  compactions: number;
  /** saved − summarizer − miss, in dollars; null without a price. */
  netUsd: number | null;
  priceLabel: string | null;
}

/** A summarizer call's tokens; the prompt's cache reads and writes where known (else all of it is uncached input). */
export interface SummarizerUse {
  promptTokens: number;
  outputTokens: number;
  readTokens?: number;
  writtenTokens?: number;
}

export interface CompactionAt {
  /** 0-based call index where the compacted context was first sent. */
  callIndex: number;
  tokensBefore: number;
  tokensAfter: number;
  summarizer: SummarizerUse | null;
  /** The re-fetch tax the run showed after this compaction; null (or absent) where the run was not observed. */
  refetchTokens?: number | null;
}

const sumOrNull = (xs: (number | null)[]) => (xs.length === 0 ? 0 : xs.some((x) => x === null) ? null : xs.reduce<number>((n, x) => n + x!, 0));

/**
 * `model` names the model each compaction is priced at: one for the session, or the model of the call the
 * compaction lands at (a session that switched models prices each compaction at its own call's model).
 */
export function compactionCosts(
  at: readonly CompactionAt[],
  figs: readonly CallFigures[],
  model: string | null | ((callIndex: number) => string | null),
  billing: { ttl: '5m' | '1h' } = { ttl: '5m' },
): { events: CompactionCost[]; totals: CompactionCostTotals } {
  const priceAt = (callIndex: number): (ModelPrice & { label: string }) | null => priceOf(typeof model === 'function' ? model(callIndex) : model);
  const prices = at.map((e) => priceAt(e.callIndex));
  const labels = [...new Set(prices.map((p) => p?.label ?? null))];
  // The totals are priced when every compaction is; their label names each price used.
  const price = prices.length === 0 ? priceAt(0) : prices.every((p) => p !== null) ? { ...prices[0]!, label: labels.join(' / ') } : null;
  const events = at.map((e, i): CompactionCost => {
    const own = prices[i] ?? null;
    const usd = (f: (p: ModelPrice) => number) => (own ? f(own) : null);
    const fig = figs[e.callIndex];
    const before = e.callIndex > 0 ? figs[e.callIndex - 1] : undefined;
    const missTokens = fig ? missTokensOf({ prompt: fig.tokens, read: fig.cached, previousCacheable: before ? before.tokens : fig.tokens }).missTokens : 0;
    const until = i + 1 < at.length ? at[i + 1]!.callIndex : figs.length;
    const savedTokens = Math.max(0, e.tokensBefore - e.tokensAfter) * Math.max(0, until - e.callIndex);
    const sp = e.summarizer?.promptTokens ?? null;
    const so = e.summarizer?.outputTokens ?? null;
    const read = Math.min(sp ?? 0, e.summarizer?.readTokens ?? 0);
    const written = Math.min((sp ?? 0) - read, e.summarizer?.writtenTokens ?? 0);
    return {
      call: e.callIndex + 1,
      summarizerPromptTokens: sp,
      summarizerOutputTokens: so,
      summarizerUsd: sp === null || so === null ? null : usd((p) => billedCost({ uncached: sp - read - written, read, written5m: billing.ttl === '1h' ? 0 : written, written1h: billing.ttl === '1h' ? written : 0, output: so }, p)),
      missTokens,
      missUsd: usd((p) => missCost(p, missTokens, '5m')),
      savedTokens,
      savedUsd: usd((p) => (savedTokens * p.cacheRead) / 1e6),
      refetchTax: e.refetchTokens ?? null,
    };
  });
  const summarizerUsd = sumOrNull(events.map((e) => e.summarizerUsd));
  const missUsd = price ? events.reduce((n, e) => n + e.missUsd!, 0) : null;
  const savedUsd = price ? events.reduce((n, e) => n + e.savedUsd!, 0) : null;
  return {
    events,
    totals: {
      compactions: events.length,
      summarizerPromptTokens: sumOrNull(events.map((e) => e.summarizerPromptTokens)),
      summarizerOutputTokens: sumOrNull(events.map((e) => e.summarizerOutputTokens)),
      summarizerUsd,
      missTokens: events.reduce((n, e) => n + e.missTokens, 0),
      missUsd,
      savedTokens: events.reduce((n, e) => n + e.savedTokens, 0),
      savedUsd,
      netUsd: price && savedUsd !== null && missUsd !== null ? savedUsd - missUsd - (summarizerUsd ?? 0) : null,
      refetchTax: sumOrNull(events.map((e) => e.refetchTax)),
      priceLabel: price?.label ?? null,
    },
  };
}
