// The analysis part of the `inspect` report: the session's facts, per-call figures and cache verdicts, resolved
// compactions, summary audits and lints — all read from the engine's one analysis, as the app reads them.
import { analyzeSession, type AnalyzeOptions, type DeferredPart } from '../analysis/analyze-session';
import type { SessionContexts } from '../analysis/session-analysis';
import type { SessionFacts } from '../analysis/session-facts';
import type { CacheBreakCause, ProviderRule } from '../cache';
import type { CacheSummary } from '../cache/forensics';
import type { PriceOverrides } from '../cost/prices';
import { bySpecificity } from '../audit/noise';
import type { Survival } from '../audit/survival';
import { RULE_INFO, type AppliesTo, type RuleSettings, type Severity } from '../lints/rules';
import type { Session } from '../model/types';
import type { Refetch } from '../refetch';
import { sidechainSummaries, type SidechainSummary } from '../analysis/sidechain-summary';

export interface InspectCall {
  /** 0-based position, kept for older readers; `call` is the number the app shows. */
  index: number;
  /** 1-based call number, as the app numbers calls. */
  call: number;
  /** Raw count of the recorded items and tool schemas with our tokenizer. */
  countedTokens: number;
  /** The calibrated whole prompt: unrecorded prefix + scale × counted (an estimate where `estimated`). */
  contextTokens: number;
  estimated: boolean;
  /** The whole prompt as reported (Anthropic: input + cache read + cache write; OpenAI: input). */
  reportedPrompt: number | null;
  reportedInput: number | null;
  reportedCacheRead: number | null;
  reportedCacheWrite: number | null;
  /** Output tokens as the provider reported them for this call; null when the file reports none. */
  reportedOutput: number | null;
  /** The model this call ran on, as the file names it. */
  model: string | null;
  /** What the previous call left in the provider's cache by its own figures; null without them. */
  previousCacheable: number | null;
  predictedCached: number | null;
  reportedMiss: boolean | null;
  predictedBreak: boolean;
  cacheBreak: boolean;
  cause: CacheBreakCause | null;
  /** What the content analysis alone names, whether or not the provider's figures show a miss (a compaction they show cost none). */
  predictedCause: CacheBreakCause | null;
  ttlMs: number;
  /** Tokens processed again that the previous call had left cached (never more than reportedPrompt − reportedCacheRead). */
  missTokens: number | null;
  missCostUsd: number | null;
  /** Who pays the miss: `miss` (lost to misses), `compaction` (the compaction's cost), `shortfall` (an uncached tail), or null. */
  missCharge: 'miss' | 'compaction' | 'shortfall' | null;
  /** Cached tokens this prompt no longer sends (a compaction dropped them, or thinking): not processed again. */
  droppedTokens: number | null;
  /** `shortfall`, `thinking-dropped` or `no-breakpoint` when the read needs explaining but is no break. */
  readNote: string | null;
  /** The timestamps repeat or go backwards here, so the gap since the previous call is unknown. */
  gapUnknown: boolean;
  diagnostic: string | null;
  divergence: { item: string; offset: number } | null;
  /** The unrecorded prefix (system prompt, tool schemas) fitted from reported usage; 0 when recorded. */
  unseenPrefixTokens: number | null;
  /** Of that prefix, the tokens the provider's reported read left out (part of it changed here); null when none. */
  unrecordedNotRead: number | null;
}

export interface InspectCompactionFigures {
  index: number;
  kind: string;
  trigger: string | null;
  /** 1-based number of the call the compaction precedes. */
  call: number | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  tokensBeforeSource: string | null;
  tokensAfterSource: string | null;
  /** The provider encrypted the summary: what it kept cannot be read. */
  opaque: boolean;
  /** Tool calls after the compaction that fetch again what it removed; null when it records no removed items. */
  refetches: InspectRefetch[] | null;
  refetchTokens: number | null;
  /** Re-reads of a file written between the two reads: new content, counted apart (not waste). */
  rereadsAfterChange: InspectRefetch[] | null;
  /** Tokens the call after it processed again (the compaction's cost, apart from misses), their price, and the cached tokens it dropped. */
  cacheMissTokens: number | null;
  cacheMissCostUsd: number | null;
  cacheDroppedTokens: number | null;
}

/** A tool call after a compaction that fetches again what it removed; calls are 1-based model calls. */
export interface InspectRefetch {
  call: number | null;
  tool: string;
  target: string;
  tokens: number;
  earlierCall: number | null;
}

const shown = (r: Refetch): InspectRefetch => ({ call: r.call, tool: r.tool, target: r.target, tokens: r.tokens, earlierCall: r.earlierCall });

export interface InspectAudit {
  compaction: number;
  kept: string[];
  lost: string[];
  lostReferencedLater: string[];
  /**
   * Lost identifiers that came back only because a later call fetched them again (`refetch`) or printed them afresh
   * (`reprint`): `item` is that call, `usedIn` the later message or call that then used the value.
   */
  lostRefetchedLater: { value: string; via: 'refetch' | 'reprint'; item: string; usedIn: string | null }[];
  /** For a file of the two "needed" lists the slice named several ways, its other spellings (one row per file). */
  spellings: Record<string, string[]>;
  invented: string[];
  instructionLike: string[];
  /** Summary sentences that state what the user asked or wanted, which no user message says. */
  inventedInstructions: { sentence: string; closest: string | null; similarity: number }[];
  /** Such sentences the list cannot judge (written in another language than the user's messages); absent when none. */
  instructionsNotJudged?: string[];
  /** The summarizer read turns the file does not hold: nothing in it is judged invented (`invented` and `inventedInstructions` are empty). Absent otherwise. */
  readUnheldTurns?: true;
  /** Of what the compaction evicted, how many of each kind the summary kept. */
  survival: Survival;
  /** The files Claude Code attached again beside the summary (`item`, `file`, `kind`: a file it read, or the plan); what they hold is not counted lost. Absent when none. */
  restored?: { item: string; file: string; kind: 'file' | 'plan' }[];
  /** The Claude Code version, when it read files into the context again after this compaction without recording which (2.1.88 or before): values of them may be listed lost. Absent otherwise. */
  restoredUnrecorded?: string;
}

export interface InspectLint {
  rule: string;
  item: string;
  message: string;
  severity: Severity;
  /** The summary styles and harnesses the rule is meant for. */
  appliesTo: AppliesTo;
}

export interface SessionMetrics {
  facts: SessionFacts;
  cache: CacheSummary | null;
  calls: InspectCall[];
  compactions: InspectCompactionFigures[];
  audits: InspectAudit[];
  lints: InspectLint[];
  /** True when some call's prefix was not recorded by the format and had to be estimated. */
  prefixUnrecorded: boolean;
  /** The sidechains again, with the tokens each subagent's result cost the parent. */
  sidechains: SidechainSummary[];
}

export interface MetricsOptions {
  rule: ProviderRule | 'auto';
  encoding?: { name: string; approximate: boolean };
  prices?: PriceOverrides;
  /** Lint settings (muted rules, thresholds per harness), as the app's Rules panel saves them. */
  rules?: RuleSettings;
  /** Parts a report that does not print them can go without (their lists come back empty). */
  defer?: readonly DeferredPart[];
  /** Contexts and count-free parts worked out before (see analyzeSession). */
  contexts?: SessionContexts;
  precomputed?: AnalyzeOptions['precomputed'];
}

export function sessionMetrics(session: Session, count: (text: string) => number, opts: MetricsOptions): SessionMetrics {
  const a = analyzeSession(session, { count, rule: opts.rule, ...(opts.encoding ? { encoding: opts.encoding } : {}), ...(opts.prices ? { prices: opts.prices } : {}), ...(opts.rules ? { rules: opts.rules } : {}), ...(opts.defer ? { defer: opts.defer } : {}), ...(opts.contexts ? { contexts: opts.contexts } : {}), ...(opts.precomputed ? { precomputed: opts.precomputed } : {}) });
  return {
    facts: a.facts,
    cache: a.facts.cache,
    calls: a.cache.map((r, i) => {
      const usage = a.contexts.calls[i]!.usage;
      const cal = a.calibration.calls[i]!;
      return {
        index: r.index,
        call: r.call,
        countedTokens: a.counted.tokens[i]!,
        contextTokens: cal.contextTokens,
        estimated: cal.estimated,
        reportedPrompt: r.reportedPrompt,
        reportedInput: usage?.input ?? null,
        reportedCacheRead: usage?.cacheRead ?? null,
        reportedCacheWrite: usage?.cacheWrite ?? null,
        reportedOutput: usage?.output ?? null,
        model: a.contexts.calls[i]!.model,
        previousCacheable: r.previousCacheable,
        predictedCached: r.cachedPredicted,
        reportedMiss: r.reportedMiss,
        predictedBreak: r.predictedBreak,
        cacheBreak: r.cacheBreak,
        cause: r.cause,
        predictedCause: r.predictedCause,
        ttlMs: r.ttlMs,
        missTokens: r.missTokens,
        missCostUsd: r.missCostUsd,
        missCharge: r.missCharge,
        droppedTokens: r.droppedTokens,
        readNote: r.readNote,
        gapUnknown: r.gapUnknown,
        diagnostic: r.diagnostic,
        divergence: r.divergence ? { item: r.divergence.itemId, offset: r.divergence.offset } : null,
        unseenPrefixTokens: r.unseenPrefixTokens,
        unrecordedNotRead: r.unrecordedNotRead,
      };
    }),
    compactions: a.compactions.map((c) => {
      const r = a.refetch.find((x) => x.compaction === c.index);
      return {
      index: c.index,
      kind: c.kind,
      trigger: c.trigger,
      call: c.call,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
      tokensBeforeSource: c.tokensBeforeSource,
      tokensAfterSource: c.tokensAfterSource,
      opaque: c.opaque === true,
      refetches: r ? r.refetches.map(shown) : null,
      refetchTokens: r ? r.refetchTokens : null,
      rereadsAfterChange: r ? r.changedRereads.map(shown) : null,
      cacheMissTokens: c.cacheCost?.missTokens ?? null,
      cacheMissCostUsd: c.cacheCost?.missCostUsd ?? null,
      cacheDroppedTokens: c.cacheCost?.droppedTokens ?? null,
    };
    }),
    audits: a.audits.map((x) => ({
      compaction: x.compaction,
      kept: x.kept,
      lost: x.lost,
      lostReferencedLater: bySpecificity([...new Set(x.lostReferencedLater.map((l) => l.value))], (value) => ({ value, kind: x.kinds[value] ?? 'number' })),
      lostRefetchedLater: bySpecificity(x.lostRefetchedLater, (r) => ({ value: r.value, kind: x.kinds[r.value] ?? 'number' })).map((r) => ({ value: r.value, via: r.via, item: r.itemId, usedIn: r.usedIn })),
      spellings: Object.fromEntries([...x.lostReferencedLater, ...x.lostRefetchedLater].flatMap((r) => (r.spellings?.length ? [[r.value, r.spellings] as const] : []))),
      invented: x.invented,
      instructionLike: x.instructionLike,
      inventedInstructions: x.inventedInstructions,
      ...(x.instructionsNotJudged?.length ? { instructionsNotJudged: x.instructionsNotJudged } : {}),
      ...(x.readUnheldTurns ? { readUnheldTurns: true as const } : {}),
      survival: x.survival,
      ...(x.restored?.length ? { restored: x.restored.map((r) => ({ item: r.itemId, file: r.file, kind: r.kind })) } : {}),
      ...(x.restoredUnrecorded ? { restoredUnrecorded: x.restoredUnrecorded } : {}),
    })),
    lints: a.lints.map((l) => ({ rule: l.rule, item: l.itemId, message: l.message, severity: RULE_INFO[l.rule].severity, appliesTo: RULE_INFO[l.rule].appliesTo })),
    prefixUnrecorded: a.contexts.calls.some((c) => c.prefixUnrecorded),
    sidechains: sidechainSummaries(session, count),
  };
}
