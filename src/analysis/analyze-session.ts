// Everything the engine says about one session: per-call contexts, cache prefix, summary audits, lints.
import { auditSession, type CompactionAudit } from '../audit';
import { analyzeCachePrefix, type CacheReport, type ProviderRule } from '../cache';
import { lintSession, type Lint } from '../lints';
import type { Session } from '../model/types';
import { sessionContexts, type SessionContexts } from './session-analysis';

export interface AnalyzeOptions {
  /** Token counter used for prefix and context sizes; memoize it, contexts repeat. */
  count(text: string): number;
  /** Provider cache rule; `auto` picks it per call from the API or model. */
  rule?: ProviderRule | 'auto';
}

export interface SessionAnalysis {
  contexts: SessionContexts;
  cache: CacheReport[];
  audits: CompactionAudit[];
  lints: Lint[];
}

export function analyzeSession(session: Session, opts: AnalyzeOptions): SessionAnalysis {
  const contexts = sessionContexts(session);
  // Request logs hold their items per request; the audit reads them from one flat list.
  const items = session.requests.length > 0 ? contexts.eviction.map((row) => row.item) : session.items;
  const cache = analyzeCachePrefix(contexts.calls, { count: opts.count, rule: opts.rule ?? 'auto' });
  const audits = auditSession({ ...session, items, compactions: contexts.compactions });
  const lints = lintSession({ format: session.format, items, calls: contexts.calls, compactions: contexts.compactions, removals: contexts.removals, count: opts.count });
  return { contexts, cache, audits, lints };
}
