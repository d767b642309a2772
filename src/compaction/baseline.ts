// The original side of a rerun comparison, computed once per session (a sweep and a policy comparison reuse it for
// every run). Its figures are the session's own (session-facts.ts): the header, the CLI and the recorded run of a
// rerun read one calibration, so the "original" column says what the header says.
import { calibrate, type SessionCalibration } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import { countedPerCall } from '../analysis/counted-tokens';
import { billedBeside, sessionFacts, type SessionFacts } from '../analysis/session-facts';
import { sessionContexts, type SessionContexts } from '../analysis/session-analysis';
import { auditSession, type CompactionAudit } from '../audit';
import { analyzeCachePrefix, type CacheReport, type ProviderRule } from '../cache';
import type { PriceOverrides } from '../cost/prices';
import { classifyText } from '../model/markers';
import { promptTokens } from '../model/usage';
import { refetchTax, type CompactionRefetch } from '../refetch';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens/encoding';
import type { PromptFigure } from './metrics';
import { cacheBilling, callPrice, modelledBill, reportedBill, type CacheBilling, type CallBill } from './prompt-bill';

/** A compaction of the recording, at the first call that was sent compacted. */
export interface RecordedCompaction {
  /** 0-based call sent right after it. */
  callIndex: number;
  compactionId: string;
  /** `auto`, `manual`, … as recorded; null when the format does not say. */
  trigger: string | null;
  kind: string;
  /** What the harness measured before compacting (Claude Code's `preTokens`), when recorded. */
  tokensBefore: number | null;
}

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
  /** The session's figures, as the header and the CLI show them. */
  facts: SessionFacts;
  /** Each call's whole prompt (the facts' figure: reported, else calibrated with its uncertainty). */
  prompts: PromptFigure[];
  /** Each call's prompt bill: the reported usage, else the cache modelled by the provider's rule. */
  bills: CallBill[];
  billing: CacheBilling;
  /** The recording's compactions, at the calls they precede, in order. */
  recorded: RecordedCompaction[];
}

/**
 * Both sides' cache prefixes are compared the same way: counted tokens of the recorded items and tool schemas. A
 * system prompt the format never recorded is in neither.
 */
export function comparable(call: CallContext): CallContext {
  return { ...call, usage: null, prefixUnrecorded: false };
}

export function originalBaseline(session: Session, opts: { count: (text: string) => number; rule?: ProviderRule | 'auto'; contexts?: SessionContexts; prices?: PriceOverrides }): OriginalBaseline {
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
  const encoding = pickEncoding(session.model);
  const counted = countedPerCall(contexts, opts.count);
  const calibration = calibrate(contexts.calls, counted, encoding.approximate);
  const facts = sessionFacts({ items, calls: contexts.calls, compactions: contexts.compactions, calibration, cache: null, encoding: encoding.encoding, ...billedBeside(session, opts.prices) });
  const refetch = refetchTax({ items, compactions: contexts.compactions, calls: contexts.calls, count: opts.count });
  const billing = cacheBilling(contexts.calls);
  const prompts = calibration.calls.map((c): PromptFigure => ({ tokens: c.contextTokens, band: c.reportedPrompt !== null ? 0 : Math.ceil(c.uncertainty * c.contextTokens), source: c.reportedPrompt !== null ? 'reported' : 'estimated' }));
  const bills = contexts.calls.map((call, k) => {
    const price = callPrice(call, session.model, opts.prices);
    return reportedBill(call, price, billing) ?? modelledBill(prompts[k]!.tokens, reports[k]!, calibration.calls[k]!, counted.items[k]!, price, billing);
  });
  const byCompaction = new Map(contexts.compactions.map((c) => [c.id, c]));
  const recorded: RecordedCompaction[] = [];
  const seen = new Set<string>();
  contexts.calls.forEach((c, k) => {
    if (k === 0 || c.compactionId === null || seen.has(c.compactionId)) return;
    seen.add(c.compactionId);
    const ev = byCompaction.get(c.compactionId);
    recorded.push({ callIndex: k, compactionId: c.compactionId, trigger: ev?.trigger ?? null, kind: ev?.kind ?? 'compact', tokensBefore: ev?.tokensBefore ?? null });
  });
  return {
    calls,
    reports,
    audits,
    reportedInputTokens: contexts.calls.map((c) => (c.usage ? promptTokens(c.usage) : null)),
    fallbackIds,
    contexts,
    calibration,
    refetch,
    facts,
    prompts,
    bills,
    billing,
    recorded,
  };
}
