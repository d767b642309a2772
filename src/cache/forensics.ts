// The provider's reported cache figures against the content prediction. Reported usage is the ground truth for
// what was cached: a call whose cache read falls short of what the previous call left cacheable is a cache break
// even when the content analysis sees none, and its cause is then named from the evidence.
import type { CallCalibration } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import { priceOf, type PriceOverrides } from '../cost/prices';
import type { CacheBreakCause } from './cause';
import type { ReadNote } from './cause-taxonomy';
import { missCostUsd, missTokensOf, type MissCharge } from './miss-cost';
import type { CacheReport, ReportedVerdict } from './cache-report';
import { anthropicMinTokens, DEEPSEEK_UNIT_TOKENS, OPENAI_MIN_TOKENS, OPENAI_STEP_TOKENS, ONE_HOUR_TTL_MS, VLLM_BLOCK_TOKENS, ruleForCall, type ProviderRule } from './provider-rules';
import { reportedCacheable, reportedPromptTokens } from './reported';

export type { ReportedVerdict };

type Draft = Omit<CacheReport, keyof ReportedVerdict> & Partial<ReportedVerdict>;

/** What the pass over the calls knows beyond the two calls' usage. */
export interface Evidence {
  previous: CallContext | null;
  current: CallContext;
  calibration: CallCalibration | null;
  /** The previous call's calibration: how far counting the file explained its reported prompt. */
  previousCalibration?: CallCalibration | null;
  prices: PriceOverrides | undefined;
  /** The read of the session's first call that reports one: what the provider kept from before this session. */
  firstRead: number | null;
  /** This call's new input holds a human turn (a user message, not only tool results). */
  newHumanTurn: boolean;
  /** A tool-list change (`/mcp`, a system-prompt update event) sits between the previous call and this one. */
  toolsChange: boolean;
  /** The previous prompt marks a cache breakpoint (`cache_control`) on some block, or on the request. */
  markedBreakpoint: boolean;
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

/** Anthropic serves a cache only from breakpoints (`cache_control`): a Claude model caches nothing without one. */
function cachesByBreakpoints(call: Pick<CallContext, 'model' | 'api'>): boolean {
  return call.api === 'anthropic' || /claude/i.test(call.model ?? '');
}

/**
 * A Claude model sent through a request log that records the whole request, with no breakpoint on any block and no
 * cache read or write reported: nothing was cached, so nothing can be missed (an OpenAI-compatible proxy in front
 * of Anthropic passes `cache_control` on, but does not add it).
 */
function noBreakpoint(ev: Evidence): boolean {
  const { previous, current } = ev;
  if (!previous || !current.recorded || !previous.recorded || ev.markedBreakpoint) return false;
  if (!cachesByBreakpoints(current) || !cachesByBreakpoints(previous)) return false;
  // Usage must be reported to say nothing was cached: without it the prediction speaks.
  const none = (c: CallContext) => !!c.usage && c.usage.input !== null && (c.usage.cacheRead ?? 0) === 0 && (c.usage.cacheWrite ?? 0) === 0;
  return none(previous) && none(current);
}

export function applyReported(r: Draft, ev: Evidence): CacheReport {
  const { previous, current } = ev;
  const reportedPrompt = reportedPromptTokens(current);
  const diagnostic = current.usage?.diagnostic ?? null;
  const read = current.usage?.cacheRead ?? null;
  const price = priceOf(current.model ?? previous?.model, ev.prices);
  const ttlLabel = r.ttlMs >= ONE_HOUR_TTL_MS ? '1h' : '5m';
  const priced = (tokens: number | null) => (tokens === null ? null : missCostUsd(tokens, price, ttlLabel));
  const none = { missCharge: null, droppedTokens: null, readNote: null, unrecordedNotRead: null } as const;

  if (!previous) return finish(r, r.cause, r.cacheBreak, r.predictedBreak, { reportedPrompt, previousCacheable: null, reportedMiss: null, missKind: null, missTokens: null, missCostUsd: null, ...none, diagnostic });

  if (noBreakpoint(ev)) {
    return finish(r, null, false, false, { reportedPrompt, previousCacheable: 0, reportedMiss: false, missKind: null, missTokens: 0, missCostUsd: priced(0), ...none, readNote: 'no-breakpoint', diagnostic });
  }

  const previousCacheable = reportedCacheable(previous);
  // Without reported figures the prediction decides: the same definition, on the predicted figures.
  if (read === null || previousCacheable === null || reportedPrompt === null) {
    const scale = ev.calibration?.scale ?? 1;
    const toReported = (t: number) => Math.round(t * (r.prefixUnrecorded ? 1 : scale));
    const m = missTokensOf({ prompt: toReported(r.contextTokens), read: toReported(r.cachedPredicted), previousCacheable: toReported(r.previousContextTokens ?? 0) });
    const charge: MissCharge | null = !r.predictedBreak ? null : r.cause === 'compaction' ? 'compaction' : 'miss';
    const missTokens = charge ? m.missTokens : 0;
    return finish(r, r.cause, r.cacheBreak, r.predictedBreak, { reportedPrompt, previousCacheable, reportedMiss: null, missKind: null, missTokens, missCostUsd: priced(missTokens), missCharge: charge, droppedTokens: charge ? m.droppedTokens : null, readNote: null, diagnostic, unrecordedNotRead: null });
  }

  // The provider's own rule judges its figures, whatever rule the user picked for the prediction.
  const actual = ruleForCall(current);
  const m = missTokensOf({ prompt: reportedPrompt, read, previousCacheable });
  const gran = granularity(actual, Math.min(reportedPrompt, previousCacheable));
  const reportedMiss = m.missTokens > gran;
  const missKind = !reportedMiss ? null : read <= Math.max(gran, 0.05 * previousCacheable) ? 'full' : 'partial';
  // The read fell to about nothing: no more than the session's first call read from before the session (a
  // harness's shared system prompt), or the provider's minimum.
  const nothing = Math.max(minimumCacheable(actual, current.model), ev.firstRead ?? 0) + gran;
  const fellToNothing = read <= nothing;
  const shrank = reportedPrompt < previousCacheable - gran;
  const thinkingDropped = ev.newHumanTurn && shrank && ev.current.compactionId === null && !r.modelChanged;
  // Within the lifetime, with the recorded conversation unchanged, no compaction and no model change, the harness
  // changed what it sent of the file (past the lifetime the expiry explains the miss: Claude Code clears old tool
  // results then too). The prompt fell by a quarter or more (and 2,000 tokens): it removed content the file keeps (the
  // `unrecorded-drop` lint's reading of the same figures). Or it rose so beyond what the file adds, the previous prompt
  // having left out at least half as much: that content came back.
  const fell = previousCacheable - reportedPrompt;
  const fileAsSent = !r.ttlExpired && r.divergence === null && ev.current.compactionId === null && !r.modelChanged;
  const unrecorded: 'unrecorded-removal' | 'unrecorded-return' | null = !fileAsSent
    ? null
    : fell >= 2000 && fell >= previousCacheable / 4
      ? 'unrecorded-removal'
      : sentAgain(ev, reportedPrompt)
        ? 'unrecorded-return'
        : null;

  let cause: CacheBreakCause | null = null;
  let readNote: ReadNote | null = null;
  let charge: MissCharge | null = null;
  if (reportedMiss) {
    // A structural cause the content shows stands; a predicted expiry or model switch is judged again from the read.
    cause = r.cause === 'ttl' || r.cause === 'model-changed' ? null : r.cause;
    cause ??= reportedCause(r, ev, read, previousCacheable, actual, fellToNothing, thinkingDropped, unrecorded);
    if (cause === null) {
      readNote = 'shortfall';
      charge = 'shortfall';
    } else charge = cause === 'compaction' || current.compactionId !== null ? 'compaction' : 'miss';
  } else if (r.predictedBreak && r.cause !== null && r.cause !== 'ttl' && r.cause !== 'model-changed' && r.lostTokens <= gran) {
    // A change the reported figures are too coarse to see (it loses less than their granularity): the content decides.
    cause = r.cause;
    charge = cause === 'compaction' ? 'compaction' : 'miss';
  } else if (thinkingDropped) readNote = 'thinking-dropped';
  const cacheBreak = cause !== null;
  const missTokens = charge ? m.missTokens : 0;
  const unrecordedNotRead = notReadOfPrefix(r, read, previousCacheable, actual);
  return finish(r, cause, cacheBreak, r.predictedBreak, {
    reportedPrompt,
    previousCacheable,
    reportedMiss,
    missKind,
    missTokens,
    missCostUsd: priced(missTokens),
    missCharge: charge,
    droppedTokens: m.droppedTokens > 0 ? m.droppedTokens : 0,
    readNote,
    diagnostic,
    unrecordedNotRead,
  });
}

/**
 * The report: the draft's fields with the three a verdict may overrule, then the verdict, written out in one order.
 * A spread of the ~25-field draft extended by the verdict gave every report a map of its own in Node 20's V8 (~90 µs
 * each, megamorphic reads after: ~0.4 s of a 30k-record session), a literal of one shape does not.
 */
function finish(r: Draft, cause: CacheBreakCause | null, cacheBreak: boolean, predictedBreak: boolean, v: ReportedVerdict): CacheReport {
  return {
    index: r.index,
    call: r.call,
    callId: r.callId,
    rule: r.rule,
    reportedCacheRead: r.reportedCacheRead,
    contextTokens: r.contextTokens,
    prefixUnrecorded: r.prefixUnrecorded,
    unseenPrefixTokens: r.unseenPrefixTokens,
    prefixTokens: r.prefixTokens,
    outputReusedTokens: r.outputReusedTokens,
    cachedPredicted: r.cachedPredicted,
    previousContextTokens: r.previousContextTokens,
    lostTokens: r.lostTokens,
    sharedItems: r.sharedItems,
    predictedBreak,
    cacheBreak,
    cause,
    predictedCause: r.predictedCause,
    ttlExpired: r.ttlExpired,
    gapMs: r.gapMs,
    gapUnknown: r.gapUnknown,
    ttlMs: r.ttlMs,
    modelChanged: r.modelChanged,
    divergence: r.divergence,
    ttlSource: r.ttlSource,
    reportedPrompt: v.reportedPrompt,
    previousCacheable: v.previousCacheable,
    reportedMiss: v.reportedMiss,
    missKind: v.missKind,
    missTokens: v.missTokens,
    missCostUsd: v.missCostUsd,
    missCharge: v.missCharge,
    droppedTokens: v.droppedTokens,
    readNote: v.readNote,
    diagnostic: v.diagnostic,
    unrecordedNotRead: v.unrecordedNotRead,
  };
}

/**
 * The prefix is estimated from reported usage, so a read within 15 % of it (or the provider's granularity) is taken as
 * all of it: the same margin `reportedCause` gives it. A lapsed lifetime or a new model explains a short read already.
 */
function notReadOfPrefix(r: Draft, read: number, previousCacheable: number, actual: ProviderRule): number | null {
  const prefix = r.unseenPrefixTokens ?? 0;
  if (!r.prefixUnrecorded || prefix <= 0 || read <= 0 || previousCacheable < prefix || r.ttlExpired || r.modelChanged) return null;
  const short = prefix - read;
  return short > Math.max(granularity(actual, prefix), 0.15 * prefix) ? short : null;
}

/**
 * The cause of a reported miss the content analysis did not explain, from what the figures show; null for a
 * shortfall (an OpenAI-style cache that served all it had served a call ago, only not the newest tail): a cost, not
 * a break.
 */
function reportedCause(r: Draft, ev: Evidence, read: number, previousCacheable: number, actual: ProviderRule, fellToNothing: boolean, thinkingDropped: boolean, unrecorded: 'unrecorded-removal' | 'unrecorded-return' | null): CacheBreakCause | null {
  const { current, previous } = ev;
  if (current.compactionId !== null) return 'compaction';
  if (r.modelChanged) return 'model-changed';
  if (ev.toolsChange) return 'tools-changed';
  if (previousCacheable < minimumCacheable(actual, current.model)) return 'below-minimum';
  // An expired cache serves nearly nothing: a read well above that is no expiry, whatever the gap.
  const prefix = r.unseenPrefixTokens ?? 0;
  const readPrefixOnly = r.prefixUnrecorded && prefix > 0 && read > 0 && read <= prefix * 1.15 + granularity(actual, prefix);
  if (r.gapMs !== null && r.gapMs > r.ttlMs && fellToNothing) return 'ttl';
  if (previous?.process && current.process && previous.process !== current.process && fellToNothing) return 'restart';
  if (r.gapUnknown && fellToNothing) return 'gap-unknown';
  // The prompt shrank at a new human turn: the API dropped earlier thinking, and the read fell back before it.
  if (thinkingDropped) return 'thinking-dropped';
  // Content left the prompt that the file still holds (Claude Code's microcompact clears old tool results so), or
  // came back to it: the cache breaks where the first change sits, which the file cannot place.
  if (unrecorded) return unrecorded;
  if (r.divergence === null && actual !== 'anthropic') {
    // Block caches (OpenAI, DeepSeek, vLLM) hold what they served a call ago; when the read is no lower than that
    // and above nothing, only the previous call's newest tail went unserved.
    const previousRead = previous?.usage?.cacheRead ?? null;
    if (previousRead !== null && read >= previousRead - granularity(actual, previousRead) && !fellToNothing) return null;
  }
  // The recorded conversation is unchanged, and the provider re-read about as much as the part the file never
  // records (system prompt, tools): what changed sits just after it, outside the file.
  // Past the lifetime, that read is the expiry: every request of the harness with this model sends the unrecorded
  // prefix, so another session may keep it warm while this conversation's own cache lapses.
  if (readPrefixOnly) return r.ttlExpired ? 'ttl' : 'unrecorded-prefix';
  if (r.divergence === null) return 'provider-miss';
  return 'unknown';
}

/**
 * Did this prompt put back content the previous one had left out? Its rise over the previous reported prompt, beyond
 * the file's own growth (counting, calibrated), is a quarter or more of that prompt (and 2,000 tokens), and the
 * previous prompt was at least half that much below what counting the file explains.
 */
function sentAgain(ev: Evidence, reportedPrompt: number): boolean {
  const cal = ev.calibration;
  const before = ev.previousCalibration;
  const previousPrompt = ev.previous ? reportedPromptTokens(ev.previous) : null;
  if (!cal || !before || previousPrompt === null) return false;
  const rise = reportedPrompt - previousPrompt - (cal.modelledTokens - before.modelledTokens);
  const leftOut = before.modelledTokens - previousPrompt;
  return rise >= 2000 && rise >= previousPrompt / 4 && leftOut >= rise / 2;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export interface ChargedCost {
  calls: number;
  tokens: number;
  /** Null when none of them could be priced. */
  costUsd: number | null;
}

export interface CacheSummary {
  /** Reported cache read over reported prompt, summed over the calls that report both; null without figures. */
  hitRate: number | null;
  /** Cache breaks: collapses with a cause (a compaction's included), reported or, without figures, predicted. Shortfalls are not breaks. */
  breaks: number;
  /** Breaks the provider's figures show. */
  reportedMisses: number;
  /** Calls where the content analysis predicted a break. */
  predictedBreaks: number;
  /** Calls where both sides could judge, and how many of them agree. */
  agreement: { compared: number; agree: number };
  /** Provider diagnostics seen, and how many agree with our verdict (a miss reason with a break, `hit` without). */
  diagnostics: { compared: number; agree: number };
  /** Dollars lost to misses (breaks charged `miss`: not compactions, not shortfalls); null when none could be priced. */
  missCostUsd: number | null;
  /** Tokens processed again at those breaks. */
  missTokens: number;
  /** The breaks right after a compaction: their miss is the compactions' cost, apart from misses. */
  compactionMiss: ChargedCost & { droppedTokens: number };
  /** Uncached tails an OpenAI-style cache left (a cost, not a break). */
  shortfalls: ChargedCost;
  /** Calls a Claude model sent with no cache breakpoint: nothing cached, nothing missed. */
  notCached: number;
  byCause: Partial<Record<CacheBreakCause, number>>;
  /** Calls whose reported read left part of the unrecorded prefix out (`unrecordedNotRead`), and those tokens summed. */
  unrecordedNotRead: { calls: number; tokens: number };
}

const addCost = (c: ChargedCost, r: CacheReport) => {
  c.calls++;
  c.tokens += r.missTokens ?? 0;
  if (r.missCostUsd !== null) c.costUsd = round6((c.costUsd ?? 0) + r.missCostUsd);
};

/**
 * Reported cache read over reported prompt tokens, summed over the calls that report both; null without figures.
 * Needs only the provider's figures: the first view shows it before any content is analysed (reported-view.ts).
 */
export function reportedHitRate(calls: readonly Pick<CallContext, 'api' | 'model' | 'usage'>[]): number | null {
  let read = 0;
  let prompt = 0;
  let anyUsage = false;
  calls.forEach((c) => {
    const p = reportedPromptTokens(c);
    if (p === null || c.usage?.cacheRead === null || c.usage?.cacheRead === undefined) return;
    // Reads above the prompt are no provider's figures (the load warns, usage-checks.ts): left out of the rate.
    if (c.usage.cacheRead > p) return;
    anyUsage = true;
    read += c.usage.cacheRead;
    prompt += p;
  });
  return anyUsage && prompt > 0 ? read / prompt : null;
}

export function cacheSummary(reports: readonly CacheReport[], calls: readonly Pick<CallContext, 'api' | 'model' | 'usage'>[]): CacheSummary {
  const s: CacheSummary = {
    hitRate: reportedHitRate(calls),
    breaks: 0,
    reportedMisses: 0,
    predictedBreaks: 0,
    agreement: { compared: 0, agree: 0 },
    diagnostics: { compared: 0, agree: 0 },
    missCostUsd: null,
    missTokens: 0,
    compactionMiss: { calls: 0, tokens: 0, costUsd: null, droppedTokens: 0 },
    shortfalls: { calls: 0, tokens: 0, costUsd: null },
    notCached: 0,
    byCause: {},
    unrecordedNotRead: { calls: 0, tokens: 0 },
  };
  for (const r of reports) {
    if (r.cacheBreak) {
      s.breaks++;
      if (r.cause) s.byCause[r.cause] = (s.byCause[r.cause] ?? 0) + 1;
    }
    if (r.missCharge === 'miss') {
      s.missTokens += r.missTokens ?? 0;
      if (r.missCostUsd !== null) s.missCostUsd = round6((s.missCostUsd ?? 0) + r.missCostUsd);
    } else if (r.missCharge === 'compaction') {
      addCost(s.compactionMiss, r);
      s.compactionMiss.droppedTokens += r.droppedTokens ?? 0;
    } else if (r.missCharge === 'shortfall') addCost(s.shortfalls, r);
    if (r.readNote === 'no-breakpoint') s.notCached++;
    const reportedBreak = r.reportedMiss === null ? null : r.reportedMiss && r.cacheBreak;
    if (reportedBreak) s.reportedMisses++;
    if (r.predictedBreak) s.predictedBreaks++;
    if (r.unrecordedNotRead !== null) {
      s.unrecordedNotRead.calls++;
      s.unrecordedNotRead.tokens += r.unrecordedNotRead;
    }
    if (reportedBreak !== null) {
      s.agreement.compared++;
      if (reportedBreak === r.predictedBreak) s.agreement.agree++;
    }
    if (r.diagnostic !== null && r.diagnostic !== 'unavailable' && r.index > 0) {
      s.diagnostics.compared++;
      if ((r.diagnostic === 'hit') === !r.cacheBreak) s.diagnostics.agree++;
    }
  }
  return s;
}
