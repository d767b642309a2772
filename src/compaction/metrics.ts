// Figures that compare an original session with a rerun: per call and summed over the run. Both sides are on one
// basis, the whole prompt as the provider counts it: the reported figure where the call sends what the recording
// sent, else a reported figure ± the calibrated difference (replay-meter.ts), with the cache billed by the
// provider's rule (prompt-bill.ts).
import type { SummaryAudit } from '../audit';
import type { CacheReport } from '../cache';
import type { CallBill } from './prompt-bill';
import type { MeasureSource } from './replay-meter';

/** One call's prompt figures on one side (original or rerun). */
export interface CallFigures {
  /** The whole prompt as the provider counts it (reported where the call is the recording's). */
  tokens: number;
  /** ± tokens around `tokens` (0 where it is the reported figure). */
  band: number;
  source: MeasureSource;
  /** Tokens read from the provider's cache (reported, or modelled with the provider's rule). */
  cached: number;
  /** Tokens written to the cache. */
  written: number;
  billSource: CallBill['source'];
  /** Counted tokens of this prompt the next call repeats byte for byte (unrounded); null for the last call. */
  prefixReusedNext: number | null;
  /** The same, as the provider would serve it from cache on the next call; null for the last call. */
  cachedNext: number | null;
  /** USD for this prompt (uncached, cache reads and writes at the dated prices); null when the model has no price. */
  cost: number | null;
}

export interface PromptFigure {
  tokens: number;
  band: number;
  source: MeasureSource;
}

export function callFigures(prompts: readonly PromptFigure[], bills: readonly CallBill[], reports: readonly CacheReport[]): CallFigures[] {
  return prompts.map((p, i) => {
    const bill = bills[i]!;
    const next = reports[i + 1];
    return {
      tokens: p.tokens,
      band: p.band,
      source: p.source,
      cached: bill.read,
      written: bill.written,
      billSource: bill.source,
      prefixReusedNext: next ? next.prefixTokens : null,
      cachedNext: next ? next.cachedPredicted : null,
      cost: bill.usd,
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
  /** Whole prompts summed over the calls (reported where reported). */
  totalInputTokens: number;
  /** Largest single prompt. */
  peakTokens: number;
  /** 1-based call of the peak; null without calls. */
  peakCall: number | null;
  /** Cache reads summed over the calls. */
  cachedTokens: number;
  /** Cache writes summed over the calls. */
  writtenTokens: number;
  /** Counted prefix tokens each call shares with the next one, summed (unrounded). */
  prefixReused: number;
  /** USD for all prompts; null when no call's model has a price. */
  inputCost: number | null;
  /** Calls whose figures are the provider's reported ones. */
  reportedCalls: number;
  /** Calls whose prompt size is estimated (a reported prompt ± a calibrated difference, or calibrated counts). */
  estimatedCalls: number;
  /** ± tokens around `totalInputTokens`: the estimated calls' bands summed (their errors share one calibration). */
  inputBand: number;
  /** ± tokens around `peakTokens` (0 where the peak is a reported figure). */
  peakBand: number;
  compactions: number;
  /** Compactions where the summarizer failed and the marker stands in. */
  fallbacks: number;
  identifiers: IdentifierTotals;
}

export function sideMetrics(figs: readonly CallFigures[], audits: readonly SummaryAudit[], compactions: number, fallbacks: number): SideMetrics {
  const priced = figs.filter((f) => f.cost !== null);
  let peak = 0;
  let peakCall: number | null = null;
  figs.forEach((f, i) => {
    if (peakCall === null || f.tokens > peak) {
      peak = f.tokens;
      peakCall = i + 1;
    }
  });
  return {
    calls: figs.length,
    totalInputTokens: figs.reduce((n, f) => n + f.tokens, 0),
    peakTokens: peak,
    peakCall,
    cachedTokens: figs.reduce((n, f) => n + f.cached, 0),
    writtenTokens: figs.reduce((n, f) => n + f.written, 0),
    prefixReused: figs.reduce((n, f) => n + (f.prefixReusedNext ?? 0), 0),
    inputCost: priced.length > 0 ? priced.reduce((n, f) => n + f.cost!, 0) : null,
    reportedCalls: figs.filter((f) => f.billSource === 'reported').length,
    estimatedCalls: figs.filter((f) => f.source !== 'reported').length,
    inputBand: figs.reduce((n, f) => n + f.band, 0),
    peakBand: peakCall === null ? 0 : figs[peakCall - 1]!.band,
    compactions,
    fallbacks,
    identifiers: identifierTotals(audits),
  };
}
