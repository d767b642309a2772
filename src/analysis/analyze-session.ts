// Everything the engine says about one session: per-call contexts, cache prefix, summary audits, lints.
import { auditSession, type CompactionAudit } from '../audit';
import { analyzeCachePrefix, type CacheReport, type ProviderRule } from '../cache';
import { applyLintRules, lintSession, type Lint } from '../lints';
import type { RuleSettings } from '../lints/rules';
import type { Session } from '../model/types';
import { refetchTax, type CompactionRefetch } from '../refetch';
import { sessionContexts, type SessionContexts } from './session-analysis';

export interface AnalyzeOptions {
  /** Token counter used for prefix and context sizes; memoize it, contexts repeat. */
  count(text: string): number;
  /** Provider cache rule; `auto` picks it per call from the API or model. */
  rule?: ProviderRule | 'auto';
  /** Contexts worked out before (they do not depend on the counter): reused instead of replayed again. */
  contexts?: SessionContexts;
  /** The user's lint settings (muted rules, thresholds per harness); the defaults when absent. */
  rules?: RuleSettings;
  /** Parts left for later: a first view is shown without them, and they arrive when done. */
  defer?: readonly DeferredPart[];
}

/** The slow parts of an analysis, which a first view goes without. */
export type DeferredPart = 'cache' | 'lints' | 'audits';

export interface SessionAnalysis {
  contexts: SessionContexts;
  cache: CacheReport[];
  audits: CompactionAudit[];
  lints: Lint[];
  /** Every lint before the rule settings judged it: a view applies other settings to these without linting again. */
  lintCandidates: Lint[];
  /** Per compaction, the tool calls after it that fetch again what it removed. */
  refetch: CompactionRefetch[];
}

export function analyzeSession(session: Session, opts: AnalyzeOptions): SessionAnalysis {
  const contexts = opts.contexts ?? sessionContexts(session);
  const defer = new Set(opts.defer ?? []);
  const items = contextItems(session, contexts);
  const cache = defer.has('cache') ? [] : analyzeCachePrefix(contexts.calls, { count: opts.count, rule: opts.rule ?? 'auto' });
  const audits = defer.has('audits') ? [] : auditContexts(session, contexts);
  const lintCandidates = defer.has('lints') ? [] : lintSession({ format: session.format, items, calls: contexts.calls, compactions: contexts.compactions, removals: contexts.removals, count: opts.count, candidates: true });
  const lints = applyLintRules(lintCandidates, session.format, opts.rules);
  const refetch = refetchTax({ items, compactions: contexts.compactions, calls: contexts.calls, count: opts.count });
  return { contexts, cache, audits, lints, lintCandidates, refetch };
}

/** Request logs hold their items per request; the audit and lints read them from one flat list. */
function contextItems(session: Session, contexts: SessionContexts) {
  return session.requests.length > 0 ? contexts.eviction.map((row) => row.item) : session.items;
}

/** The summary audit of every compaction, on its own: it needs no token counts. */
export function auditContexts(session: Session, contexts: SessionContexts = sessionContexts(session)): CompactionAudit[] {
  return auditSession({ ...session, items: contextItems(session, contexts), compactions: contexts.compactions });
}
