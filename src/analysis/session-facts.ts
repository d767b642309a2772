// Every session-level figure, worked out once. The header, the panels, the CLI (text and JSON), corpus rows and
// the HTML report all read these; none computes its own.
import { cacheSummary, reportedHitRate, type CacheSummary } from '../cache/forensics';
import { reportedPromptTokens } from '../cache/reported';
import type { CacheReport } from '../cache/prefix';
import type { PriceOverrides } from '../cost/prices';
import type { CompactionEvent, Item, OffBranchResponse, ReportedTotals, Session, Sidechain } from '../model/types';
import type { SessionCalibration } from './calibration';
import type { CallContext } from './context-types';
import { isConversationItem } from './eviction-map';
import { offBranchFacts, type OffBranchFacts } from './off-branch';
import { sessionCost, type SessionCost } from './session-cost';
import { thousands } from '../model/thousands';

/** A compaction with its sizes resolved from the best evidence, and the call it precedes. */
export interface ResolvedCompaction extends CompactionEvent {
  /** 1-based number of the first call after the compaction; null when no later call exists. */
  call: number | null;
  tokensBeforeSource: 'recorded' | 'reported' | 'estimated' | null;
  tokensAfterSource: 'recorded' | 'reported' | 'estimated' | null;
  /**
   * What the compaction cost the cache at that call, by the one miss definition (cache/miss-cost.ts): the tokens
   * processed again and their price (the compaction's cost, apart from misses), and the cached tokens it dropped
   * (never processed again). Null while the cache analysis is pending or without a following call.
   */
  cacheCost: CompactionCacheCost | null;
}

export interface CompactionCacheCost {
  missTokens: number;
  missCostUsd: number | null;
  droppedTokens: number;
}

export interface TokenizerFacts {
  encoding: string;
  /** Reported prompt tokens per counted token (the tokenizer mismatch), of the main segment. */
  scale: number;
  /** Framing tokens per item that counting text misses, fitted with the scale. */
  perItem: number;
  /** The unrecorded prefix (system prompt and tools a format never writes), median over calls. */
  prefixTokens: number;
  /** Some figure is an estimate (see calibration.ts). */
  estimated: boolean;
  /** Relative uncertainty of the calibrated context on the median call without a reported prompt (0.03 = ±3%); 0 when every call reports one. */
  uncertainty: number;
  /** How closely counting explains the reported prompts: 90th percentile of the relative gap; null without reports. */
  fitSpread: number | null;
}

export interface SessionFacts {
  calls: number;
  items: number;
  toolCalls: number;
  compactions: { recorded: number; inferred: number; total: number };
  /** The largest context over the calls: the provider's reported prompt where there is one, else the calibrated estimate. */
  peakContextTokens: number;
  /** 1-based call where the peak is; null without calls. */
  peakCall: number | null;
  /** Where the peak figure comes from: the provider's report, an estimate (with `peakUncertainty`), or our count of everything sent. */
  peakSource: 'reported' | 'estimated' | 'counted';
  /** Relative uncertainty of the peak figure (0 when reported or counted). */
  peakUncertainty: number;
  /** Context tokens summed over the calls (reported where reported, else calibrated). */
  totalInputTokens: number;
  /** The provider's reported prompt tokens summed over the calls that report them; null when none does. */
  reportedInputTokens: number | null;
  /** Calls with a reported prompt. */
  reportedCalls: number;
  tokenizer: TokenizerFacts;
  /** Output tokens summed over the calls: the provider's reported output where there is one, else our count. */
  outputTokens: number;
  /** The provider's reported output summed over the calls that report it; null when none does. */
  reportedOutputTokens: number | null;
  /** Calls with a reported output. */
  reportedOutputCalls: number;
  /** Every model the calls ran on, with its number of calls, in order of first use (calls naming no model left out). */
  models: ModelCalls[];
  /** The harness's own session totals against the calls here; null when the file records none. */
  totals: TotalsCheck | null;
  /** Cache verdicts summed up; null while the cache analysis is pending. */
  cache: CacheSummary | null;
  /**
   * Responses sent and billed on branches the conversation left (Claude Code), with their reported usage; null when
   * none. Not among `calls` or the token sums above, which are the timeline's: their cost is a part of `cost`.
   */
  offBranch: OffBranchFacts | null;
  /** The session's dollars at the reported usage: the calls, the responses on abandoned branches and the sidechains. */
  cost: SessionCost;
}

export interface ModelCalls {
  model: string;
  calls: number;
}

/** A harness's session totals (SWE-agent's `tokens_sent`, `api_calls`) against what the calls here add up to. */
export interface TotalsCheck {
  /** Where the totals are in the file. */
  source: string;
  reportedPrompt: number | null;
  /** The calls' prompts summed: reported where reported, else calibrated (as `totalInputTokens`). */
  prompt: number;
  reportedCalls: number | null;
  calls: number;
  /** Reported prompt total over the calls' sum (1 when they agree); null without a reported total. */
  ratio: number | null;
  /** Set when the two disagree beyond what counting explains: what differs, in a sentence. */
  warning: string | null;
}

/** How far a session total may stray from the calls' sum before it is a disagreement: tokenizer and framing. */
const TOTALS_TOLERANCE = 0.15;

export interface FactsInput {
  items: readonly Item[];
  calls: readonly CallContext[];
  compactions: readonly CompactionEvent[];
  calibration: SessionCalibration;
  /** Cache reports, or null while pending. */
  cache: readonly CacheReport[] | null;
  encoding: string;
  /** Counted tokens of each call's output, for calls that report none. */
  outputCounted?: readonly number[];
  /** The harness's own session totals, when the file has them. */
  reportedTotals?: ReportedTotals | null;
  /** Billed responses outside the timeline: on abandoned branches, and the sidechains' calls (for `cost`). */
  offBranch?: readonly OffBranchResponse[];
  sidechains?: readonly Sidechain[];
  /** The session's model, for calls that name none; prices over the dated table. */
  model?: string | null;
  prices?: PriceOverrides;
}

/**
 * The figures the provider's reported usage gives with no content analysed: what a first view shows while the
 * contexts are rebuilt and counted (reported-view.ts), and what sessionFacts reads for the same fields.
 */
export interface ReportedFigures {
  calls: number;
  /** Compactions the session records (a request log's inferred ones come with the contexts). */
  compactions: number;
  /** Reported cache read over reported prompt (as `cache.hitRate`); null when no call reports cache usage. */
  hitRate: number | null;
  /** The largest reported prompt and its 1-based call, only when every call reports one (else the peak is an estimate). */
  peak: { tokens: number; call: number } | null;
  reportedInputTokens: number | null;
  reportedCalls: number;
  reportedOutputTokens: number | null;
  reportedOutputCalls: number;
  models: ModelCalls[];
}

export function reportedFigures(calls: readonly Pick<CallContext, 'api' | 'model' | 'usage'>[], compactions: number): ReportedFigures {
  let reported = 0;
  let reportedCalls = 0;
  let peak: { tokens: number; call: number } | null = null;
  let everyCall = true;
  let output = 0;
  let outputCalls = 0;
  const models = new Map<string, number>();
  calls.forEach((c, i) => {
    const prompt = reportedPromptTokens(c);
    if (prompt !== null) {
      reported += prompt;
      reportedCalls++;
    }
    // As calibration.ts: a reported prompt of 0 is no report, and the peak is the first largest.
    if (prompt === null || prompt <= 0) everyCall = false;
    else if (peak === null || prompt > peak.tokens) peak = { tokens: prompt, call: i + 1 };
    const out = c.usage?.output ?? null;
    if (out !== null) {
      output += out;
      outputCalls++;
    }
    if (c.model) models.set(c.model, (models.get(c.model) ?? 0) + 1);
  });
  return {
    calls: calls.length,
    compactions,
    hitRate: reportedHitRate(calls),
    peak: everyCall ? peak : null,
    reportedInputTokens: reportedCalls > 0 ? reported : null,
    reportedCalls,
    reportedOutputTokens: outputCalls > 0 ? output : null,
    reportedOutputCalls: outputCalls,
    models: [...models].map(([model, n]) => ({ model, calls: n })),
  };
}

export function sessionFacts(input: FactsInput): SessionFacts {
  const { calls, calibration } = input;
  let peak = 0;
  let peakCall: number | null = null;
  let total = 0;
  // The largest reported prompt is measured: an estimate replaces it only when even its low end is above it.
  let measured = 0;
  calibration.calls.forEach((c) => {
    if (c.reportedPrompt !== null && c.reportedPrompt > measured) measured = c.reportedPrompt;
  });
  calibration.calls.forEach((c, i) => {
    total += c.contextTokens;
    const low = c.reportedPrompt === null ? c.contextTokens * (1 - c.uncertainty) : c.contextTokens;
    if (measured > 0 && low <= measured && c.reportedPrompt === null) return;
    if (peakCall === null || c.contextTokens > peak) {
      peak = c.contextTokens;
      peakCall = i + 1;
    }
  });
  const fromReports = reportedFigures(calls, input.compactions.length);
  const inferred = input.compactions.filter((c) => c.kind === 'inferred').length;
  const spreads = calibration.calls.filter((c) => c.reportedPrompt === null).map((c) => c.uncertainty).sort((a, b) => a - b);
  const peakCal = peakCall === null ? null : calibration.calls[(peakCall as number) - 1]!;
  const peakSource = !peakCal ? 'counted' : peakCal.reportedPrompt !== null ? 'reported' : peakCal.estimated ? 'estimated' : 'counted';
  let output = 0;
  calls.forEach((c, i) => {
    output += c.usage?.output ?? input.outputCounted?.[i] ?? 0;
  });
  const tokenizerUncertainty = spreads.length ? round3(spreads[spreads.length >> 1]!) : 0;
  return {
    calls: fromReports.calls,
    items: countWhere(input.items, isConversationItem),
    toolCalls: input.items.filter((i) => i.kind === 'tool_call').length,
    compactions: { recorded: input.compactions.length - inferred, inferred, total: input.compactions.length },
    peakContextTokens: peak,
    peakCall,
    peakSource,
    peakUncertainty: peakSource === 'estimated' ? round3(peakCal!.uncertainty) : 0,
    totalInputTokens: total,
    reportedInputTokens: fromReports.reportedInputTokens,
    reportedCalls: fromReports.reportedCalls,
    tokenizer: {
      encoding: input.encoding,
      scale: round3(calibration.scale),
      perItem: round3(calibration.perItem),
      prefixTokens: calibration.prefixTokens,
      estimated: calibration.estimated,
      uncertainty: tokenizerUncertainty,
      fitSpread: calibration.fitSpread === null ? null : round3(calibration.fitSpread),
    },
    outputTokens: output,
    reportedOutputTokens: fromReports.reportedOutputTokens,
    reportedOutputCalls: fromReports.reportedOutputCalls,
    models: fromReports.models,
    totals: input.reportedTotals ? totalsCheck(input.reportedTotals, total, calls.length, tokenizerUncertainty) : null,
    cache: input.cache && input.cache.length === calls.length ? cacheSummary(input.cache, calls) : null,
    offBranch: offBranchFacts(input.offBranch),
    cost: sessionCost({ calls, ...(input.offBranch ? { offBranch: input.offBranch } : {}), ...(input.sidechains ? { sidechains: input.sidechains } : {}), model: input.model ?? null, ...(input.prices ? { prices: input.prices } : {}) }),
  };
}

/**
 * A session total against the calls' sum. What a format leaves out of every call (SWE-agent 0.x's demonstration,
 * a system prompt) shows here as a total well above the sum; counting explains a gap up to the tokenizer's
 * uncertainty and TOTALS_TOLERANCE for framing.
 */
function totalsCheck(t: ReportedTotals, prompt: number, calls: number, uncertainty: number): TotalsCheck {
  const ratio = t.promptTokens !== null && prompt > 0 ? round3(t.promptTokens / prompt) : null;
  const tolerance = Math.max(TOTALS_TOLERANCE, uncertainty);
  const problems: string[] = [];
  if (ratio !== null && Math.abs(ratio - 1) > tolerance) {
    const n = thousands;
    const share = Math.round(100 / ratio);
    problems.push(`${t.source} reports ${n(t.promptTokens!)} prompt tokens sent; the ${n(calls)} calls here add up to ${n(prompt)}, ${share}% of that${ratio > 1 ? ': the calls here lack part of what was sent' : ': the calls here hold more than was sent'}`);
  }
  if (t.calls !== null && t.calls !== calls) problems.push(`${t.source} counts ${t.calls} model calls, the file shows ${calls}`);
  return { source: t.source, reportedPrompt: t.promptTokens, prompt, reportedCalls: t.calls, calls, ratio, warning: problems.length ? problems.join('; ') : null };
}

/**
 * Each compaction's sizes: before = the recorded figure (Claude Code's `preTokens`), else the last reported prompt
 * before it (also for a compaction no call followed alone), else the calibrated context of that call; after = the recorded figure, else the first reported
 * prompt after it, else the calibrated context of that call.
 */
export function resolveCompactions(compactions: readonly CompactionEvent[], calls: readonly CallContext[], calibration: SessionCalibration): ResolvedCompaction[] {
  const firstCall = new Map<string, number>();
  calls.forEach((c, i) => {
    if (c.compactionId !== null && !firstCall.has(c.compactionId)) firstCall.set(c.compactionId, i);
  });
  // The call whose context a compaction was made from: the one before the first call that followed it, or, for one no
  // call followed alone (another came before the next call, or the session ended), before the next that one did.
  const madeFrom = (k: number): number | null => {
    for (let j = k; j < compactions.length; j++) {
      const a = firstCall.get(compactions[j]!.id);
      if (a !== undefined) return a > 0 ? a - 1 : null;
    }
    return calls.length > 0 ? calls.length - 1 : null;
  };
  return compactions.map((c, k) => {
    const at = firstCall.get(c.id) ?? null;
    const from = madeFrom(k);
    const before = from !== null ? calibration.calls[from]! : null;
    const after = at !== null ? calibration.calls[at]! : null;
    const [tokensBefore, tokensBeforeSource] = pick(c.tokensBefore, before);
    const [tokensAfter, tokensAfterSource] = pick(c.tokensAfter, after);
    return { ...c, call: at === null ? null : at + 1, tokensBefore, tokensAfter, tokensBeforeSource, tokensAfterSource, cacheCost: null };
  });
}

/** Each compaction's cache cost, read from the cache report of the call it precedes. */
export function withCompactionCacheCost(compactions: readonly ResolvedCompaction[], cache: readonly CacheReport[] | null): ResolvedCompaction[] {
  if (!cache || cache.length === 0) return [...compactions];
  return compactions.map((c) => {
    const r = c.call !== null ? cache[c.call - 1] : undefined;
    if (!r || r.previousContextTokens === null) return c;
    const charged = r.missCharge === 'compaction';
    return { ...c, cacheCost: { missTokens: charged ? (r.missTokens ?? 0) : 0, missCostUsd: charged ? r.missCostUsd : 0, droppedTokens: r.droppedTokens ?? 0 } };
  });
}

function pick(recorded: number | null, cal: SessionCalibration['calls'][number] | null): [number | null, ResolvedCompaction['tokensBeforeSource']] {
  if (recorded !== null) return [recorded, 'recorded'];
  if (!cal) return [null, null];
  if (cal.reportedPrompt !== null) return [cal.reportedPrompt, 'reported'];
  return [cal.contextTokens, 'estimated'];
}

function countWhere<T>(xs: readonly T[], f: (x: T) => boolean): number {
  let n = 0;
  for (const x of xs) if (f(x)) n++;
  return n;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The parts of a session's facts that come from the session beside its calls: what was billed outside the timeline. */
export function billedBeside(session: Pick<Session, 'model' | 'offBranch' | 'sidechains'>, prices?: PriceOverrides): Pick<FactsInput, 'offBranch' | 'sidechains' | 'model' | 'prices'> {
  return { ...(session.offBranch ? { offBranch: session.offBranch } : {}), sidechains: session.sidechains, model: session.model, ...(prices ? { prices } : {}) };
}
