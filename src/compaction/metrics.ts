// Figures that compare an original session with a rerun: per call and summed over the run.
import type { CallContext } from '../analysis/context-types';
import type { SummaryAudit } from '../audit';
import type { CacheReport } from '../cache';
import { inputCost, type ModelPrice } from './pricing';

/** One call's prompt figures on one side (original or rerun). */
export interface CallFigures {
  /** Counted tokens of the prompt (items and tool schemas). */
  tokens: number;
  /** Tokens the provider would serve from cache for this call (its rule applied to the shared prefix). */
  cached: number;
  /** Tokens of this prompt the next call repeats byte for byte (unrounded); null for the last call. */
  prefixReusedNext: number | null;
  /** The same, as the provider would serve it from cache on the next call; null for the last call. */
  cachedNext: number | null;
  /** Estimated USD for this prompt; null when the model has no price. */
  cost: number | null;
}

export function callFigures(calls: readonly CallContext[], reports: readonly CacheReport[], priceOf: (call: CallContext) => ModelPrice | null): CallFigures[] {
  return calls.map((call, i) => {
    const r = reports[i]!;
    const next = reports[i + 1];
    const price = priceOf(call);
    return {
      tokens: r.contextTokens,
      cached: r.cachedPredicted,
      prefixReusedNext: next ? next.prefixTokens : null,
      cachedNext: next ? next.cachedPredicted : null,
      cost: price ? inputCost(r.contextTokens, r.cachedPredicted, price) : null,
    };
  });
}

export interface IdentifierTotals {
  /** Counts over all compactions (an identifier lost twice counts twice). */
  kept: number;
  lost: number;
  invented: number;
  lostReferencedLater: number;
  /** Distinct values, in order of first appearance. */
  keptValues: string[];
  lostValues: string[];
  inventedValues: string[];
  lostReferencedLaterValues: string[];
  /** Lost values that came back only through a re-fetch or fresh output, then were used (the re-fetch tax). */
  lostRefetchedLaterValues: string[];
}

export function identifierTotals(audits: readonly SummaryAudit[]): IdentifierTotals {
  const distinct = (lists: string[][]) => [...new Set(lists.flat())];
  return {
    kept: audits.reduce((n, a) => n + a.kept.length, 0),
    lost: audits.reduce((n, a) => n + a.lost.length, 0),
    invented: audits.reduce((n, a) => n + a.invented.length, 0),
    lostReferencedLater: audits.reduce((n, a) => n + a.lostReferencedLater.length, 0),
    keptValues: distinct(audits.map((a) => a.kept)),
    lostValues: distinct(audits.map((a) => a.lost)),
    inventedValues: distinct(audits.map((a) => a.invented)),
    lostReferencedLaterValues: distinct(audits.map((a) => a.lostReferencedLater.map((r) => r.value))),
    lostRefetchedLaterValues: distinct(audits.map((a) => a.lostRefetchedLater.map((r) => r.value))),
  };
}

export interface SideMetrics {
  calls: number;
  /** Counted input tokens summed over the calls. */
  totalInputTokens: number;
  /** Largest single prompt. */
  peakTokens: number;
  /** Predicted cached tokens summed over the calls. */
  cachedTokens: number;
  /** Prefix tokens each call shares with the next one, summed (unrounded). */
  prefixReused: number;
  /** Estimated USD for all prompts; null when no call's model has a price. */
  inputCost: number | null;
  compactions: number;
  /** Compactions where the summarizer failed and the marker stands in. */
  fallbacks: number;
  identifiers: IdentifierTotals;
}

export function sideMetrics(figs: readonly CallFigures[], audits: readonly SummaryAudit[], compactions: number, fallbacks: number): SideMetrics {
  const priced = figs.filter((f) => f.cost !== null);
  return {
    calls: figs.length,
    totalInputTokens: figs.reduce((n, f) => n + f.tokens, 0),
    peakTokens: figs.reduce((n, f) => Math.max(n, f.tokens), 0),
    cachedTokens: figs.reduce((n, f) => n + f.cached, 0),
    prefixReused: figs.reduce((n, f) => n + (f.prefixReusedNext ?? 0), 0),
    inputCost: priced.length > 0 ? priced.reduce((n, f) => n + f.cost!, 0) : null,
    compactions,
    fallbacks,
    identifiers: identifierTotals(audits),
  };
}
