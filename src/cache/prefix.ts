// Prompt-cache prefix analysis: for each call, how much of the previous call's prompt it repeats
// byte for byte, how much of that a provider would serve from cache, where and why it stopped matching.
import type { CallContext } from '../analysis/context-types';
import type { ContextTimeline } from '../analysis/context-timeline';
import { isHumanTurn, isToolsChange, structuralCause, type CacheBreakCause } from './cause';
import { describeDivergence, sharedSerialLength, type Divergence } from './divergence';
import { sameContent, sameUnit, serializeUnit, type PromptUnit } from './item-hash';
import { PromptReader, type Prompt } from './prompt-units';
import { DEFAULT_TTL_MS, ONE_HOUR_TTL_MS, roundPrefix, ruleForCall, type ProviderRule, type RoundContext } from './provider-rules';
import { calibrate, unrecordedPrefix, type SessionCalibration } from '../analysis/calibration';
import { countedPerCall } from '../analysis/counted-tokens';
import { isInferredCompaction } from '../analysis/request-contexts';
import type { PriceOverrides } from '../cost/prices';
import type { CacheReport, ReportedVerdict } from './cache-report';
import { applyReported } from './forensics';
import { ttlOfCall, type ReportedTtl } from './reported';

export type { CacheReport };

export interface CachePrefixOptions {
  /** Token counter for a text (a memoized tokenizer in the app, a word counter in tests). */
  count: (text: string) => number;
  /**
   * Provider rule for every call, or `auto` (default): per call from its API, else its model name
   * (Claude → anthropic, GPT/o-series/Codex → openai, DeepSeek → deepseek), else exact.
   */
  rule?: ProviderRule | 'auto';
  /** Cache lifetime. Default: 1 hour when the previous call marks a breakpoint `ttl: "1h"`, else 5 minutes. Infinity disables the check. */
  ttlMs?: number;
  /** Fewest tokens of the previous prompt that must be lost for a divergence to count as a cache break (default 1). */
  minBreakTokens?: number;
  /**
   * Counted tokens calibrated against reported usage (analysis/calibration.ts): the unrecorded prefix comes from
   * it, and the reports' context figures are its calibrated ones, so every surface shows the same numbers. Without
   * it, calls that leave a prefix unrecorded are calibrated here.
   */
  calibration?: SessionCalibration;
  /** Price overrides by model name for pricing misses (cost/prices.ts). */
  prices?: PriceOverrides;
  /** The calls' contexts as spans (a replayed transcript): prompts are read from them, in time that grows with spans. */
  timeline?: ContextTimeline | null;
}


/** Cache-prefix report for each call against the call before it, in order. */
export function analyzeCachePrefix(calls: readonly CallContext[], opts: CachePrefixOptions): CacheReport[] {
  const reader = new PromptReader(opts.count, opts.timeline ?? null);
  const minBreak = opts.minBreakTokens ?? 1;
  // The unrecorded prefix comes from the calibration alone (unrecordedPrefix): calls that leave it out are
  // calibrated here when the caller did not pass one, so no second estimate of it exists.
  const calibrated = (opts.calibration ?? (calls.some((c) => c.prefixUnrecorded) ? calibrate(calls, countedPerCall({ calls, timeline: opts.timeline ?? null }, opts.count)) : undefined))?.calls;
  const reports: CacheReport[] = [];
  let prev: Prompt | null = null;
  let ttl: ReportedTtl | null = null;
  let firstRead: number | null = null;
  calls.forEach((call, ci) => {
    const cur = reader.read(call, ci, prev);
    const rule = opts.rule === undefined || opts.rule === 'auto' ? ruleForCall(call) : opts.rule;
    const cal = calibrated?.[ci];
    const unseen = unrecordedPrefix(call, cal);
    const unseenTokens = unseen ?? 0;
    const contextTokens = cal ? cal.contextTokens : cur.visibleTokens;
    const prevTtl = ttl;
    let report: Omit<CacheReport, keyof ReportedVerdict> & Partial<ReportedVerdict>;
    if (!prev) {
      const t = opts.ttlMs ?? DEFAULT_TTL_MS;
      report = { index: call.index, call: call.index + 1, callId: call.id, rule, reportedCacheRead: call.usage?.cacheRead ?? null, contextTokens, prefixUnrecorded: call.prefixUnrecorded, unseenPrefixTokens: unseen, prefixTokens: 0, outputReusedTokens: 0, cachedPredicted: 0, previousContextTokens: null, lostTokens: 0, sharedItems: 0, predictedBreak: false, cacheBreak: false, cause: null, predictedCause: null, ttlExpired: false, gapMs: null, gapUnknown: false, ttlMs: t, ttlSource: 'default', modelChanged: false, divergence: null };
    } else {
      const ttlUsed = opts.ttlMs !== undefined ? { ttlMs: opts.ttlMs, source: 'default' as const } : prevTtl!;
      const cmp = compare(prev, cur, rule, unseenTokens, ttlUsed.ttlMs, minBreak, reader);
      if (calibrated) toCalibrated(cmp, unseenTokens, prev.visibleTokens, calibrated[ci - 1]!.contextTokens);
      // One literal, not a spread of the call's fields and `cmp`: see `finish` in forensics.ts.
      report = {
        index: call.index,
        call: call.index + 1,
        callId: call.id,
        rule,
        reportedCacheRead: call.usage?.cacheRead ?? null,
        contextTokens,
        prefixUnrecorded: call.prefixUnrecorded,
        unseenPrefixTokens: unseen,
        prefixTokens: cmp.prefixTokens,
        outputReusedTokens: cmp.outputReusedTokens,
        cachedPredicted: cmp.cachedPredicted,
        previousContextTokens: cmp.previousContextTokens,
        lostTokens: cmp.lostTokens,
        sharedItems: cmp.sharedItems,
        predictedBreak: cmp.predictedBreak,
        cacheBreak: cmp.cacheBreak,
        cause: cmp.cause,
        predictedCause: cmp.predictedCause,
        ttlExpired: cmp.ttlExpired,
        gapMs: cmp.gapMs,
        gapUnknown: cmp.gapUnknown,
        ttlMs: cmp.ttlMs,
        modelChanged: cmp.modelChanged,
        divergence: cmp.divergence,
        ttlSource: ttlUsed.source,
      };
    }
    const fresh = prev ? newUnits(prev, cur, report.sharedItems) : null;
    reports.push(
      applyReported(report, {
        previous: ci > 0 ? calls[ci - 1]! : null,
        current: call,
        calibration: cal ?? null,
        previousCalibration: ci > 0 ? (calibrated?.[ci - 1] ?? null) : null,
        prices: opts.prices,
        firstRead,
        newHumanTurn: fresh?.humanTurn ?? false,
        toolsChange: fresh?.toolsChange ?? false,
        markedBreakpoint: prev ? prev.markedBreakpoint() : false,
      }),
    );
    if (firstRead === null && call.usage?.cacheRead != null) firstRead = call.usage.cacheRead;
    ttl = ttlOfCall(call, cur.oneHour, prevTtl);
    prev = cur;
  });
  return reports;
}

type Comparison = Pick<
  CacheReport,
  'prefixTokens' | 'outputReusedTokens' | 'cachedPredicted' | 'previousContextTokens' | 'lostTokens' | 'sharedItems' | 'predictedBreak' | 'cacheBreak' | 'cause' | 'predictedCause' | 'ttlExpired' | 'gapMs' | 'gapUnknown' | 'ttlMs' | 'modelChanged' | 'divergence'
>;

/** Units a call sends that the previous prompt did not end with: scanned from the end, at most this many. */
const NEW_UNITS_SCAN = 256;

/** What this call's new input holds: a human turn, a tool-list change. */
function newUnits(prev: Prompt, cur: Prompt, shared: number): { humanTurn: boolean; toolsChange: boolean } {
  const from = Math.max(Math.min(shared, prev.n), cur.n - NEW_UNITS_SCAN, 0);
  let humanTurn = false;
  let toolsChange = false;
  for (let j = from; j < cur.n; j++) {
    const item = cur.unitAt(j).item;
    if (isToolsChange(item)) toolsChange = true;
    else if (isHumanTurn(item)) humanTurn = true;
  }
  return { humanTurn, toolsChange };
}

function compare(prev: Prompt, cur: Prompt, rule: ProviderRule, unseen: number, ttlMs: number, minBreak: number, reader: PromptReader): Comparison {
  const k = sharedUnits(prev, cur);
  let prefixTokens = unseen + cur.cum[k]!;
  let divergence: Divergence | null = null;
  if (k < prev.n) {
    const oldUnit = prev.unitAt(k);
    const newUnit = k < cur.n ? cur.unitAt(k) : undefined;
    if (newUnit) {
      // Characters only inside the first unit that differs.
      const chars = sharedSerialLength(oldUnit, newUnit);
      if (chars > 0) prefixTokens += reader.countText(serializeUnit(newUnit).slice(0, chars));
    }
    divergence = describeDivergence(oldUnit, newUnit, itemIndexOf(oldUnit, newUnit, cur.call, k));
  }

  const previousContextTokens = prev.visibleTokens + unseen;
  const lostTokens = Math.max(0, previousContextTokens - prefixTokens);
  const contentBreak = divergence !== null && lostTokens >= minBreak;

  const gapMs = gapBetween(prev.call.timestamp, cur.call.timestamp);
  const gapUnknown = gapMs === null && !!prev.call.timestamp && !!cur.call.timestamp && !Number.isNaN(parseTime(prev.call.timestamp)) && !Number.isNaN(parseTime(cur.call.timestamp));
  const ttlExpired = gapMs !== null && gapMs > ttlMs;
  const modelChanged = !!prev.call.model && !!cur.call.model && prev.call.model !== cur.call.model;

  const outputReusedTokens = divergence === null && CACHES_OUTPUT.has(rule) ? reusedOutput(prev, cur) : 0;
  const rounded = roundPrefix(rule, prefixTokens + outputReusedTokens, rule === 'anthropic' ? anthropicContext(prev, cur, k, unseen) : {});
  const cachedPredicted = ttlExpired || modelChanged ? 0 : rounded;

  let cause: CacheBreakCause | null = null;
  if (contentBreak) cause = structuralCause({ previous: prev, current: cur, unitIndex: k, compactionId: cur.call.compactionId, compactionInferred: cur.call.compactionId !== null && isInferredCompaction(cur.call.compactionId) });
  else if (modelChanged && prefixTokens > 0) cause = 'model-changed';
  else if (ttlExpired && prefixTokens > 0) cause = 'ttl';
  const predictedBreak = cause !== null;

  return { prefixTokens, outputReusedTokens, cachedPredicted, previousContextTokens, lostTokens, sharedItems: k, predictedBreak, cacheBreak: predictedBreak, cause, predictedCause: cause, ttlExpired, gapMs, gapUnknown, ttlMs, modelChanged, divergence };
}

/** Leading units the two prompts share: span indices first (equal spans, same content), then digests and text. */
function sharedUnits(prev: Prompt, cur: Prompt): number {
  const n = Math.min(prev.n, cur.n);
  let k = Math.min(cur.sameAsPrevious, n);
  while (k < n && sameUnit(prev.unitAt(k), prev.digestAt(k), cur.unitAt(k), cur.digestAt(k))) k++;
  return k;
}

/**
 * The comparison runs in counted tokens; with a calibration its figures are put in the provider's tokens: the
 * share of the previous call's recorded part that is shared, applied to that call's calibrated recorded part.
 */
function toCalibrated(cmp: Comparison, unseen: number, prevVisible: number, prevCalibrated: number): void {
  const recorded = Math.max(0, prevCalibrated - unseen);
  const f = prevVisible > 0 ? recorded / prevVisible : 1;
  const map = (t: number) => (t <= 0 ? 0 : Math.round(t <= unseen ? t : unseen + (t - unseen) * f));
  cmp.prefixTokens = map(cmp.prefixTokens);
  cmp.cachedPredicted = map(cmp.cachedPredicted);
  cmp.outputReusedTokens = Math.round(cmp.outputReusedTokens * f);
  cmp.previousContextTokens = prevCalibrated;
  cmp.lostTokens = Math.max(0, prevCalibrated - cmp.prefixTokens);
}

/** Rules whose servers cache the tokens a call generated, not only its prompt. */
const CACHES_OUTPUT = new Set<ProviderRule>(['openai', 'vllm']);

/** Tokens of whole output items of the previous call that this call sends right after the shared prompt. */
function reusedOutput(prev: Prompt, cur: Prompt): number {
  let j = prev.n;
  let tokens = 0;
  for (const item of prev.call.output) {
    if (j >= cur.n || !sameContent({ id: item.id, item, text: item.text }, cur.unitAt(j))) break;
    tokens += cur.digestAt(j).tokens;
    j++;
  }
  return tokens;
}

/** Unit position → index in `call.entries`; -1 when the tool schemas are what changed. */
function itemIndexOf(oldUnit: PromptUnit, newUnit: PromptUnit | undefined, cur: CallContext, k: number): number {
  if (oldUnit.item === null || (newUnit && newUnit.item === null)) return -1;
  // Units before k are shared, so when tools lead they lead in both calls.
  return cur.tools != null && cur.tools !== '' ? k - 1 : k;
}

function gapBetween(a: string | undefined, b: string | undefined): number | null {
  if (!a || !b) return null;
  const ta = parseTime(a);
  const tb = parseTime(b);
  // A call takes time: a timestamp that repeats or goes backwards (records rewritten on resume or archive) says nothing of the gap.
  if (Number.isNaN(ta) || Number.isNaN(tb) || tb <= ta) return null;
  return tb - ta;
}

/** Date.parse, remembering the last two stamps read: a pass reads each call's stamp as the current one, then as the previous. */
const parsed: [string, number, string, number] = ['', NaN, '', NaN];
function parseTime(s: string): number {
  if (s === parsed[0]) return parsed[1];
  if (s === parsed[2]) return parsed[3];
  const t = Date.parse(s);
  parsed[2] = parsed[0];
  parsed[3] = parsed[1];
  parsed[0] = s;
  parsed[1] = t;
  return t;
}

/** Blocks for the Anthropic rule: the unseen prefix (when any) as block 0, then the units. */
function anthropicContext(prev: Prompt, cur: Prompt, sharedUnits: number, unseen: number): RoundContext {
  // Block 0 is the unseen prefix when there is one: cum[j] then ends block j, else cum[j + 1] does.
  const lead = unseen > 0 ? 1 : 0;
  const blockEnds = lead ? cur.cum : cur.cum.subarray(1);
  return {
    model: cur.call.model,
    blockEnds,
    endOffset: unseen,
    sharedBlocks: lead + sharedUnits,
    breakpoints: cur.breakpoints(lead),
    written: prev.breakpoints(lead),
  };
}

