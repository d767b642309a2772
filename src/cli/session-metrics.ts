// The analysis part of the `inspect --json` report: per-call cache figures, summary audits, lints.
import { analyzeSession } from '../analysis/analyze-session';
import type { ProviderRule } from '../cache';
import { bySpecificity } from '../audit/noise';
import { RULE_INFO, type AppliesTo, type RuleSettings, type Severity } from '../lints/rules';
import type { Session } from '../model/types';
import type { Refetch } from '../refetch';

export interface InspectCall {
  index: number;
  contextTokens: number;
  reportedInput: number | null;
  reportedCacheRead: number | null;
  reportedCacheWrite: number | null;
  predictedCached: number | null;
  cacheBreak: boolean;
  cause: 'compaction' | 'recap-regenerated' | 'edited' | 'masked' | 'ttl' | 'unknown' | null;
  divergence: { item: string; offset: number } | null;
  /** Tokens the file never recorded (system prompt, tool schemas), estimated from reported usage. */
  unseenPrefixTokens: number | null;
}

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

/** A tool call after a compaction that fetches again what it removed; calls are 1-based model calls. */
export interface InspectRefetch {
  call: number | null;
  tool: string;
  target: string;
  tokens: number;
  earlierCall: number | null;
}

/** The re-fetch tax of one compaction (merged into the report's `compactions` by index). */
export interface InspectCompactionRefetch {
  compaction: number;
  refetches: InspectRefetch[];
  refetchTokens: number;
  /** Re-reads of a file written between the two reads: new content, counted apart. */
  rereadsAfterChange: InspectRefetch[];
}

export interface SessionMetrics {
  calls: InspectCall[];
  audits: InspectAudit[];
  lints: InspectLint[];
  refetch: InspectCompactionRefetch[];
  /** True when some call's prefix was not recorded by the format and had to be estimated. */
  prefixUnrecorded: boolean;
}

const shown = (r: Refetch): InspectRefetch => ({ call: r.call, tool: r.tool, target: r.target, tokens: r.tokens, earlierCall: r.earlierCall });

export function sessionMetrics(session: Session, count: (text: string) => number, rule: ProviderRule | 'auto', rules?: RuleSettings): SessionMetrics {
  const a = analyzeSession(session, { count, rule, ...(rules ? { rules } : {}) });
  return {
    calls: a.cache.map((r, i) => {
      const usage = a.contexts.calls[i]!.usage;
      return {
        index: r.index,
        contextTokens: r.contextTokens,
        reportedInput: usage?.input ?? null,
        reportedCacheRead: usage?.cacheRead ?? null,
        reportedCacheWrite: usage?.cacheWrite ?? null,
        predictedCached: r.cachedPredicted,
        cacheBreak: r.cacheBreak,
        cause: r.cause,
        divergence: r.divergence ? { item: r.divergence.itemId, offset: r.divergence.offset } : null,
        unseenPrefixTokens: r.unseenPrefixTokens,
      };
    }),
    audits: a.audits.map((x) => ({
      compaction: x.compaction,
      kept: x.kept,
      lost: x.lost,
      // Most specific first (a path with a directory, a ticket, a hash before a bare name or a number).
      lostReferencedLater: bySpecificity([...new Set(x.lostReferencedLater.map((l) => l.value))], (value) => ({ value, kind: x.kinds[value] ?? 'number' })),
      invented: x.invented,
      instructionLike: x.instructionLike,
    })),
    lints: a.lints.map((l) => ({ rule: l.rule, item: l.itemId, message: l.message, severity: RULE_INFO[l.rule].severity, appliesTo: RULE_INFO[l.rule].appliesTo })),
    refetch: a.refetch.map((r) => ({
      compaction: r.compaction,
      refetches: r.refetches.map(shown),
      refetchTokens: r.refetchTokens,
      rereadsAfterChange: r.changedRereads.map(shown),
    })),
    prefixUnrecorded: a.contexts.calls.some((c) => c.prefixUnrecorded),
  };
}
