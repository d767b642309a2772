// The analysis part of the `inspect` report: the session's facts, per-call figures and cache verdicts, resolved
// compactions, summary audits and lints — all read from the engine's one analysis, as the app reads them.
import { analyzeSession, type AnalyzeOptions, type DeferredPart } from '../analysis/analyze-session';
import type { SessionContexts } from '../analysis/session-analysis';
import type { SessionFacts } from '../analysis/session-facts';
import type { CacheBreakCause, ProviderRule } from '../cache';
import type { CacheSummary } from '../cache/forensics';
import type { PriceOverrides } from '../cost/prices';
import { bySpecificity } from '../audit/noise';
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
  predictedCached: number | null;
  reportedMiss: boolean | null;
  predictedBreak: boolean;
  cacheBreak: boolean;
  cause: CacheBreakCause | null;
  ttlMs: number;
  missTokens: number | null;
  missCostUsd: number | null;
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
  invented: string[];
  instructionLike: string[];
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
        predictedCached: r.cachedPredicted,
        reportedMiss: r.reportedMiss,
        predictedBreak: r.predictedBreak,
        cacheBreak: r.cacheBreak,
        cause: r.cause,
        ttlMs: r.ttlMs,
        missTokens: r.missTokens,
        missCostUsd: r.missCostUsd,
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
    };
    }),
    audits: a.audits.map((x) => ({
      compaction: x.compaction,
      kept: x.kept,
      lost: x.lost,
      lostReferencedLater: bySpecificity([...new Set(x.lostReferencedLater.map((l) => l.value))], (value) => ({ value, kind: x.kinds[value] ?? 'number' })),
      invented: x.invented,
      instructionLike: x.instructionLike,
    })),
    lints: a.lints.map((l) => ({ rule: l.rule, item: l.itemId, message: l.message, severity: RULE_INFO[l.rule].severity, appliesTo: RULE_INFO[l.rule].appliesTo })),
    prefixUnrecorded: a.contexts.calls.some((c) => c.prefixUnrecorded),
    sidechains: sidechainSummaries(session, count),
  };
}
