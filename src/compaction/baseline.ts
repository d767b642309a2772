// The original side of a rerun comparison, computed once per session (a sweep reuses it for every row).
import { calibrate, type SessionCalibration } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import { countedPerCall } from '../analysis/counted-tokens';
import { sessionContexts, type SessionContexts } from '../analysis/session-analysis';
import { auditSession, type CompactionAudit } from '../audit';
import { analyzeCachePrefix, type CacheReport, type ProviderRule } from '../cache';
import { classifyText } from '../model/markers';
import { promptTokens } from '../model/usage';
import { refetchTax, type CompactionRefetch } from '../refetch';
import type { Session } from '../model/types';

export interface OriginalBaseline {
  /** The original calls as compared: counted items only (usage and the unrecorded-prefix estimate left out on both sides). */
  calls: CallContext[];
  reports: CacheReport[];
  /** Audits of the session's own compactions. */
  audits: CompactionAudit[];
  /** Reported prompt tokens per call where usage exists (never replaced by counts); null where missing. */
  reportedInputTokens: (number | null)[];
  /** Compactions of the session that left the static marker instead of a summary (or log a fallback). */
  fallbackIds: string[];
  contexts: SessionContexts;
  /**
   * Counted tokens against reported ones (calibration.ts): a rerun's trigger measures its prompt the way the
   * harness did (unrecorded system prompt and tools, tokenizer mismatch), not as the bare count of items.
   */
  calibration: SessionCalibration;
  /** Per recorded compaction, the tool calls after it that fetched again what it removed (src/refetch). */
  refetch: CompactionRefetch[];
}

/**
 * Both sides are measured the same way: counted tokens of the recorded items and tool schemas. A system
 * prompt the format never recorded is in neither, so totals can be below the reported usage.
 */
export function comparable(call: CallContext): CallContext {
  return { ...call, usage: null, prefixUnrecorded: false };
}

export function originalBaseline(session: Session, opts: { count: (text: string) => number; rule?: ProviderRule | 'auto'; contexts?: SessionContexts }): OriginalBaseline {
  const contexts = opts.contexts ?? sessionContexts(session);
  const calls = contexts.calls.map(comparable);
  const reports = analyzeCachePrefix(calls, { count: opts.count, rule: opts.rule ?? 'auto' });
  // Request logs hold their items per request; the audit reads them from one flat list (as analyzeSession does).
  const items = session.requests.length > 0 ? contexts.eviction.map((row) => row.item) : session.items;
  const audits = auditSession({ ...session, items, compactions: contexts.compactions });
  const byId = new Map(items.map((it) => [it.id, it]));
  const fallbackIds = contexts.compactions
    .filter((c) => c.log?.fallback === true || (c.summaryId !== null && classifyText(byId.get(c.summaryId)?.text ?? '') === 'marker'))
    .map((c) => c.id);
  const calibration = calibrate(contexts.calls, countedPerCall(contexts, opts.count));
  const refetch = refetchTax({ items, compactions: contexts.compactions, calls: contexts.calls, count: opts.count });
  return { calls, reports, audits, reportedInputTokens: contexts.calls.map((c) => (c.usage ? promptTokens(c.usage) : null)), fallbackIds, contexts, calibration, refetch };
}
