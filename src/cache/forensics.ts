// The provider's reported cache figures against the content prediction. Reported usage is the ground truth for
// what was cached: a call whose cache read falls short of what the previous call left cacheable is a cache break
// even when the content analysis sees none, and its cause is then named from the evidence.
import type { CallCalibration } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import { missCost, priceOf, type PriceOverrides } from '../cost/prices';
import type { CacheBreakCause } from './cause';
import type { CacheReport, ReportedVerdict } from './cache-report';
import { anthropicMinTokens, DEEPSEEK_UNIT_TOKENS, OPENAI_MIN_TOKENS, OPENAI_STEP_TOKENS, ONE_HOUR_TTL_MS, VLLM_BLOCK_TOKENS, ruleForCall, type ProviderRule } from './provider-rules';
import { reportedCacheable, reportedPromptTokens } from './reported';

export type { ReportedVerdict };

type Draft = Omit<CacheReport, keyof ReportedVerdict> & Partial<ReportedVerdict>;

interface Evidence {
  previous: CallContext | null;
  current: CallContext;
  calibration: CallCalibration | null;
  prices: PriceOverrides | undefined;
}

/** A served prefix within this many tokens of what was cacheable is a hit: the provider's rounding, not a miss. */
export function granularity(rule: ProviderRule, cacheable: number): number {
  const step = rule === 'openai' ? 2 * OPENAI_STEP_TOKENS : rule === 'deepseek' ? DEEPSEEK_UNIT_TOKENS : rule === 'vllm' ? VLLM_BLOCK_TOKENS : 64;
  return step + Math.round(0.01 * cacheable);
}

/** The smallest prefix the provider caches at all. */
export function minimumCacheable(rule: ProviderRule, model: string | null): number {
  if (rule === 'openai') return OPENAI_MIN_TOKENS;
  if (rule === 'anthropic') return anthropicMinTokens(model);
  return 0;
}

/** Completes a draft report with the reported verdict, in place (a copy per call cost a long session much of its cache pass). */
export function applyReported(r: Draft, ev: Evidence): CacheReport {
  const { previous, current } = ev;
  const reportedPrompt = reportedPromptTokens(current);
  const diagnostic = current.usage?.diagnostic ?? null;
  const read = current.usage?.cacheRead ?? null;
  const previousCacheable = previous ? reportedCacheable(previous) : null;
  const price = priceOf(current.model ?? previous?.model, ev.prices);
  const ttlLabel = r.ttlMs >= ONE_HOUR_TTL_MS ? '1h' : '5m';
  const priced = (tokens: number | null) => (tokens === null || !price ? null : round6(missCost(price, tokens, ttlLabel)));
  // The verdict's keys follow the draft's, in this order, whichever branch sets them.
  const verdict = (v: ReportedVerdict): CacheReport => {
    const out = r as CacheReport;
    out.reportedPrompt = v.reportedPrompt;
    out.previousCacheable = v.previousCacheable;
    out.reportedMiss = v.reportedMiss;
    out.missKind = v.missKind;
    out.missTokens = v.missTokens;
    out.missCostUsd = v.missCostUsd;
    out.diagnostic = v.diagnostic;
    out.unrecordedNotRead = v.unrecordedNotRead;
    return out;
  };

  if (!previous) return verdict({ reportedPrompt, previousCacheable: null, reportedMiss: null, missKind: null, missTokens: null, missCostUsd: null, diagnostic, unrecordedNotRead: null });

  if (read === null || previousCacheable === null || current.usage?.input === null) {
    const scale = ev.calibration?.scale ?? 1;
    const missTokens = r.predictedBreak ? Math.round(Math.max(0, (r.previousContextTokens ?? 0) - r.cachedPredicted) * (r.prefixUnrecorded ? 1 : scale)) : 0;
    return verdict({ reportedPrompt, previousCacheable, reportedMiss: null, missKind: null, missTokens, missCostUsd: priced(missTokens), diagnostic, unrecordedNotRead: null });
  }

  const actual = ruleForCall(current);
  const shortfall = previousCacheable - read;
  const reportedMiss = shortfall > granularity(actual, previousCacheable);
  const missKind = !reportedMiss ? null : read <= Math.max(granularity(actual, previousCacheable), 0.05 * previousCacheable) ? 'full' : 'partial';
  let cause = r.cause;
  if (!reportedMiss && (cause === 'ttl' || cause === 'model-changed')) cause = null;
  if (reportedMiss && cause === null) cause = reportedCause(r, ev, read, previousCacheable, actual);
  const cacheBreak = cause !== null && (r.predictedBreak || reportedMiss);
  const missTokens = cacheBreak ? Math.max(0, shortfall) : 0;
  const unrecordedNotRead = notReadOfPrefix(r, read, previousCacheable, actual);
  r.cause = cacheBreak ? cause : null;
  r.cacheBreak = cacheBreak;
  return verdict({ reportedPrompt, previousCacheable, reportedMiss, missKind, missTokens, missCostUsd: priced(missTokens), diagnostic, unrecordedNotRead });
}

/**
 * The prefix is fitted from reported usage, so a read within 15 % of it (or the provider's granularity) is taken as
 * all of it: the same margin `reportedCause` gives it. A lapsed lifetime or a new model explains a short read already.
 */
function notReadOfPrefix(r: Draft, read: number, previousCacheable: number, actual: ProviderRule): number | null {
  const prefix = r.unseenPrefixTokens ?? 0;
  if (!r.prefixUnrecorded || prefix <= 0 || read <= 0 || previousCacheable < prefix || r.ttlExpired || r.modelChanged) return null;
  const short = prefix - read;
  return short > Math.max(granularity(actual, prefix), 0.15 * prefix) ? short : null;
}

/** The cause of a miss the content analysis did not predict, from what the figures show. */
function reportedCause(r: Draft, ev: Evidence, read: number, previousCacheable: number, actual: ProviderRule): CacheBreakCause {
  if (ev.current.compactionId !== null) return 'compaction';
  if (r.modelChanged) return 'model-changed';
  if (r.gapMs !== null && r.gapMs > r.ttlMs) return 'ttl';
  if (previousCacheable < minimumCacheable(actual, ev.current.model)) return 'below-minimum';
  // The recorded conversation is unchanged, and the provider re-read about as much as the part the file never
  // records (system prompt, tools): what changed sits just after it, outside the file.
  const prefix = ev.calibration?.prefixTokens ?? r.unseenPrefixTokens ?? 0;
  if (r.prefixUnrecorded && prefix > 0 && read > 0 && read <= prefix * 1.15 + granularity(actual, prefix)) return 'unrecorded-prefix';
  if (r.divergence === null) return 'provider-miss';
  return 'unknown';
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export interface CacheSummary {
  /** Reported cache read over reported prompt, summed over the calls that report both; null without figures. */
  hitRate: number | null;
  /** Calls that are cache breaks by either side. */
  breaks: number;
  /** Calls where the provider reported a miss. */
  reportedMisses: number;
  /** Calls where the content analysis predicted a break. */
  predictedBreaks: number;
  /** Calls where both sides could judge, and how many of them agree. */
  agreement: { compared: number; agree: number };
  /** Provider diagnostics seen, and how many agree with our verdict (a miss reason with a break, `hit` without). */
  diagnostics: { compared: number; agree: number };
  /** Dollars lost to misses over the priced breaks; null when no break could be priced. */
  missCostUsd: number | null;
  missTokens: number;
  byCause: Partial<Record<CacheBreakCause, number>>;
  /** Calls whose reported read left part of the unrecorded prefix out (`unrecordedNotRead`), and those tokens summed. */
  unrecordedNotRead: { calls: number; tokens: number };
}

export function cacheSummary(reports: readonly CacheReport[], calls: readonly Pick<CallContext, 'api' | 'model' | 'usage'>[]): CacheSummary {
  let read = 0;
  let prompt = 0;
  let anyUsage = false;
  calls.forEach((c) => {
    const p = reportedPromptTokens(c);
    if (p === null || c.usage?.cacheRead === null || c.usage?.cacheRead === undefined) return;
    anyUsage = true;
    read += c.usage.cacheRead;
    prompt += p;
  });
  const s: CacheSummary = { hitRate: anyUsage && prompt > 0 ? read / prompt : null, breaks: 0, reportedMisses: 0, predictedBreaks: 0, agreement: { compared: 0, agree: 0 }, diagnostics: { compared: 0, agree: 0 }, missCostUsd: null, missTokens: 0, byCause: {}, unrecordedNotRead: { calls: 0, tokens: 0 } };
  for (const r of reports) {
    if (r.cacheBreak) {
      s.breaks++;
      if (r.cause) s.byCause[r.cause] = (s.byCause[r.cause] ?? 0) + 1;
      s.missTokens += r.missTokens ?? 0;
      if (r.missCostUsd !== null) s.missCostUsd = round6((s.missCostUsd ?? 0) + r.missCostUsd);
    }
    if (r.reportedMiss) s.reportedMisses++;
    if (r.predictedBreak) s.predictedBreaks++;
    if (r.unrecordedNotRead !== null) {
      s.unrecordedNotRead.calls++;
      s.unrecordedNotRead.tokens += r.unrecordedNotRead;
    }
    if (r.reportedMiss !== null) {
      s.agreement.compared++;
      if (r.reportedMiss === r.predictedBreak) s.agreement.agree++;
    }
    if (r.diagnostic !== null && r.diagnostic !== 'unavailable' && r.index > 0) {
      s.diagnostics.compared++;
      if ((r.diagnostic === 'hit') === !r.cacheBreak) s.diagnostics.agree++;
    }
  }
  return s;
}
