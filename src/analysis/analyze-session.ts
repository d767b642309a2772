// Everything the engine says about one session: per-call contexts, calibrated token figures, cache verdicts,
// summary audits, lints, and the session's facts that every surface reads.
import type { CompactionAudit } from '../audit';
import { analyzeCachePrefix, type CacheReport, type ProviderRule } from '../cache';
import type { PriceOverrides } from '../cost/prices';
import { applyLintRules, lintSession, type Lint } from '../lints';
import type { RuleSettings } from '../lints/rules';
import type { Session } from '../model/types';
import { refetchTax, type CompactionRefetch } from '../refetch';
import { pickEncoding } from '../tokens/encoding';
import { calibrate, type SessionCalibration } from './calibration';
import { countedPerCall, type CountedCalls } from './counted-tokens';
import { billedBeside, resolveCompactions, sessionFacts, withCompactionCacheCost, type ResolvedCompaction, type SessionFacts } from './session-facts';
import { sessionContexts, type SessionContexts } from './session-analysis';
import { auditContexts, contextItems } from './audit-contexts';

export interface AnalyzeOptions {
  /** Token counter used for prefix and context sizes; memoize it, contexts repeat. */
  count(text: string): number;
  /** Provider cache rule; `auto` picks it per call from the API or model. */
  rule?: ProviderRule | 'auto';
  /** Contexts worked out before (they do not depend on the counter): reused instead of replayed again. */
  contexts?: SessionContexts;
  /** Parts left for later: a first view is shown without them, and they arrive when done. */
  defer?: readonly DeferredPart[];
  /** The encoding `count` uses, and whether it stands in for the model's own tokenizer (default: picked from the model). */
  encoding?: { name: string; approximate: boolean };
  /** Price overrides by model name. */
  prices?: PriceOverrides;
  /** Lint settings: muted rules and thresholds per harness. */
  rules?: RuleSettings;
  /** Parts worked out before, which need no counts (the CLI works them out while threads count): used as they are. */
  precomputed?: { audits?: CompactionAudit[]; lintCandidates?: Lint[] };
}

/** The slow parts of an analysis, which a first view goes without. */
export type DeferredPart = 'cache' | 'lints' | 'audits';

export interface SessionAnalysis {
  contexts: SessionContexts;
  /** Counted tokens and items per call (counted-tokens.ts). */
  counted: CountedCalls;
  calibration: SessionCalibration;
  /** The session's compactions (recorded and inferred) with their sizes resolved. */
  compactions: ResolvedCompaction[];
  cache: CacheReport[];
  audits: CompactionAudit[];
  lints: Lint[];
  /** Every lint before the rule settings judged it: a view applies other settings to these without linting again. */
  lintCandidates: Lint[];
  /** Per compaction, the tool calls after it that fetch again what it removed. */
  refetch: CompactionRefetch[];
  facts: SessionFacts;
}

export function analyzeSession(session: Session, opts: AnalyzeOptions): SessionAnalysis {
  const contexts = opts.contexts ?? sessionContexts(session);
  const defer = new Set(opts.defer ?? []);
  const items = contextItems(session, contexts);
  const encoding = opts.encoding ?? (() => {
    const e = pickEncoding(session.model);
    return { name: e.encoding, approximate: e.approximate };
  })();
  const counted = countedPerCall(contexts, opts.count);
  const calibration = calibrate(contexts.calls, counted, encoding.approximate);
  const cache = defer.has('cache') ? [] : analyzeCachePrefix(contexts.calls, { count: opts.count, rule: opts.rule ?? 'auto', calibration, timeline: contexts.timeline, ...(opts.prices ? { prices: opts.prices } : {}) });
  const compactions = withCompactionCacheCost(resolveCompactions(contexts.compactions, contexts.calls, calibration), defer.has('cache') ? null : cache);
  const audits = opts.precomputed?.audits ?? (defer.has('audits') ? [] : auditContexts(session, contexts));
  const lintCandidates = opts.precomputed?.lintCandidates ?? (defer.has('lints') ? [] : lintSession({ format: session.format, usagePerTurn: session.meta['usageScope'] === 'turn', items, calls: contexts.calls, timeline: contexts.timeline, compactions: contexts.compactions, removals: contexts.removals, count: opts.count, candidates: true }));
  const lints = applyLintRules(lintCandidates, session.format, opts.rules);
  const refetch = refetchTax({ items, compactions: contexts.compactions, calls: contexts.calls, count: opts.count });
  const outputCounted = contexts.calls.map((c) => (c.usage && c.usage.output !== null ? 0 : c.output.reduce((n, it) => n + opts.count(it.text), 0)));
  const facts = sessionFacts({ items, calls: contexts.calls, compactions: contexts.compactions, calibration, cache: defer.has('cache') ? null : cache, encoding: encoding.name, outputCounted, reportedTotals: session.reportedTotals ?? null, ...billedBeside(session, opts.prices) });
  return { contexts, counted, calibration, compactions, cache, audits, lints, lintCandidates, refetch, facts };
}
