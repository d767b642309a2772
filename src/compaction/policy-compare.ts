// Every compaction policy replayed on one session, side by side with the recorded run as the baseline row:
// compactions, peak, input tokens, cache reads and writes billed by the provider's rule, dollars, the summarizer,
// identifiers lost and needed or fetched again, survival by kind and the offline probe scores. On a corpus, each
// policy's median and total over the sessions, and how often it was the cheapest.
import { sessionContextWindow } from '../analysis/context-window';
import type { Session } from '../model/types';
import type { PriceOverrides } from '../cost/prices';
import { priceOf } from '../cost/prices';
import type { ProviderRule } from '../cache';
import { kindScores, mergeKindScores, type KindScores } from '../probes';
import { auditColumns, LaterToolText, type Survival } from './audit-columns';
import { originalBaseline, type OriginalBaseline } from './baseline';
import { isPolicyId, policyDefaults, policyInfo, POLICY_IDS, policySession, resolvePolicy, type PolicySession } from './policies/presets';
import { newItemsPerCall, rerunSession, type RecordedMatch, type RerunResult } from './rerun';
import { researchHistory } from './research-history';
import { isStrategyId, strategyInfo, type StrategyId } from './strategy-registry';
import type { Summarizer } from './summarizer';
import { describeTrigger, type Trigger } from './triggers';
import { thousands } from '../model/thousands';

/** The policies a comparison runs when none are named: every harness preset. */
export const COMPARE_POLICIES: readonly string[] = POLICY_IDS;

export interface PolicyRow {
  /** `recorded` for the baseline, else the policy (or strategy) id. */
  id: string;
  label: string;
  baseline: boolean;
  /** The trigger as run (`≥ 167000 tokens = 200000 window − …`). */
  trigger: string;
  status: 'done' | 'cancelled' | 'skipped';
  /** Why a policy was skipped or what to know about its figures. */
  notes: string[];
  compactions: number;
  /** 1-based calls of the compactions, with the band where a token trigger fired (`62 ± 1`). */
  compactionCalls: string[];
  peakTokens: number;
  totalInputTokens: number;
  /** Calls whose prompt size is estimated rather than the provider's reported figure, and the ± bands they give. */
  estimatedCalls: number;
  peakBand: number;
  inputBand: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Dollars for the prompts (uncached, reads, writes); null without a price. */
  inputUsd: number | null;
  summarizerPromptTokens: number | null;
  summarizerOutputTokens: number | null;
  /** The summarizer's calls at the session model's price (harnesses summarize with their own model). */
  summarizerUsd: number | null;
  /** inputUsd + summarizerUsd; null when either is unknown. */
  totalUsd: number | null;
  lostNeeded: number;
  lostRefetched: number;
  /** Where the two columns above and survival come from (audit-columns.ts). */
  auditSource: 'audit' | 'derived' | 'none';
  survival: Record<string, Survival>;
  /** Offline probe scores per kind, over the run's compactions (0–1). */
  probes: KindScores;
  /** Each recorded compaction beside this policy's (policy rows only). */
  recordedMatch: RecordedMatch[];
}

export interface PolicyComparison {
  sessionId: string;
  format: string;
  model: string | null;
  calls: number;
  /** The recorded run first, then each policy in the order asked. */
  rows: PolicyRow[];
  priceLabel: string | null;
  status: 'done' | 'cancelled';
}

export interface CompareOptions {
  /** Policy preset ids (claude-code, codex…) or strategy ids; default every preset. */
  policies?: readonly string[];
  count: (text: string) => number;
  rule?: ProviderRule | 'auto';
  prices?: PriceOverrides;
  /** Default: the offline summarizer. */
  summarizer?: Summarizer;
  signal?: AbortSignal;
  onProgress?: (p: { policy: number; policies: number; id: string; callIndex: number; calls: number }) => void;
  /** The session's window, when known beyond the session itself. */
  window?: number | null;
  baseline?: OriginalBaseline;
}

/** A policy's run: the preset's strategy, parameters, trigger and measuring convention; a strategy at 80 % of the window. */
function planOf(id: string, window: number | null, harness: PolicySession): { strategy: StrategyId; params: Record<string, unknown>; trigger: Trigger; explained: string; measureAt: 'prompt' | 'last-response'; label: string } | null {
  if (isPolicyId(id)) {
    const r = resolvePolicy(id, policyDefaults(id, harness), window);
    return { strategy: r.strategy, params: r.params, trigger: r.trigger, explained: r.triggerExplained, measureAt: r.measureAt, label: policyInfo(id).label };
  }
  if (isStrategyId(id)) return { strategy: id, params: {}, trigger: { kind: 'fraction', fraction: 0.8 }, explained: '80% of the window', measureAt: 'prompt', label: strategyInfo(id).label };
  return null;
}

const sumOrNull = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

export async function comparePolicies(session: Session, opts: CompareOptions): Promise<PolicyComparison> {
  const ids = opts.policies && opts.policies.length > 0 ? opts.policies : COMPARE_POLICIES;
  const baseline = opts.baseline ?? originalBaseline(session, { count: opts.count, rule: opts.rule ?? 'auto', ...(opts.prices ? { prices: opts.prices } : {}) });
  const calls = baseline.contexts.calls;
  const fresh = researchHistory(session, newItemsPerCall(calls)).fresh;
  const later = new LaterToolText(fresh);
  const price = priceOf(session.model, opts.prices);
  const window = opts.window ?? sessionContextWindow(session);
  const rows: PolicyRow[] = [];
  let first: RerunResult | null = null;
  let status: PolicyComparison['status'] = 'done';

  const harness = policySession(session, window);
  for (const [i, id] of ids.entries()) {
    const plan = planOf(id, window, harness);
    if (!plan) {
      rows.push(skipped(id, `unknown policy: use ${POLICY_IDS.join(', ')} or a strategy`));
      continue;
    }
    if (opts.signal?.aborted) {
      status = 'cancelled';
      break;
    }
    const r = await rerunSession(session, {
      strategy: plan.strategy,
      params: plan.params,
      trigger: plan.trigger,
      count: opts.count,
      baseline,
      measureAt: plan.measureAt,
      rule: opts.rule ?? 'auto',
      ...(opts.prices ? { prices: opts.prices } : {}),
      ...(opts.summarizer ? { summarizer: opts.summarizer } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      policy: isPolicyId(id) ? { id, label: plan.label, triggerExplained: plan.explained } : null,
      ...(opts.onProgress ? { onProgress: (p) => opts.onProgress!({ policy: i, policies: ids.length, id, callIndex: p.callIndex, calls: p.calls }) } : {}),
    });
    first ??= r;
    if (r.status === 'cancelled') {
      status = 'cancelled';
      break;
    }
    const cols = auditColumns(r.events.map((e) => ({ audit: e.audit, callIndex: e.callIndex })), later);
    // The offline summarizer is free; the harness would have paid its own model for the same call (compaction-cost.ts).
    const st = r.costs.rerun.totals;
    const sPrompt = st.summarizerPromptTokens ?? 0;
    const noSummarizer = r.events.every((e) => e.summarizerCalls.length === 0);
    const summarizerUsd = noSummarizer ? 0 : r.summarizer === 'offline' ? st.summarizerUsd : r.rerun.summarizerCost;
    const notes = [...r.warnings];
    if (window !== null && r.rerun.peakTokens > window) notes.push(`its peak (${thousands(r.rerun.peakTokens)} tokens) is beyond the ${thousands(window)}-token window: the provider would have refused those calls`);
    if (r.summarizer === 'offline' && sPrompt > 0) notes.push('summaries from the offline summarizer; the summarizer cost prices its calls at the session model');
    if (cols.source === 'derived') notes.push('lost-and-refetched and survival worked out from the audit’s kept and lost values');
    rows.push({
      id,
      label: plan.label,
      baseline: false,
      trigger: `${describeTrigger(plan.trigger)}${plan.explained ? ` = ${plan.explained}` : ''}`,
      status: 'done',
      notes,
      compactions: r.events.length,
      compactionCalls: r.events.map((e) => fireText(e.callIndex, e.fireWindow)),
      peakTokens: r.rerun.peakTokens,
      totalInputTokens: r.rerun.totalInputTokens,
      estimatedCalls: r.rerun.estimatedCalls,
      peakBand: Math.round(r.rerun.peakBand),
      inputBand: Math.round(r.rerun.inputBand),
      cacheReadTokens: r.rerun.cachedTokens,
      cacheWriteTokens: r.rerun.writtenTokens,
      inputUsd: r.rerun.inputCost,
      summarizerPromptTokens: noSummarizer ? 0 : st.summarizerPromptTokens,
      summarizerOutputTokens: noSummarizer ? 0 : st.summarizerOutputTokens,
      summarizerUsd,
      totalUsd: sumOrNull(r.rerun.inputCost, summarizerUsd),
      lostNeeded: cols.lostNeeded.length,
      lostRefetched: cols.lostRefetched.length,
      auditSource: r.events.length ? cols.source : 'none',
      survival: cols.survival,
      probes: mergeKindScores(r.events.map((e) => kindScores(e.probes))),
      // Only the session's own harness is expected to fire where the recording did.
      recordedMatch: r.ownPolicy ? r.recordedMatch : [],
    });
  }

  if (first) rows.unshift(recordedRow(first, baseline, later));
  return { sessionId: session.id, format: session.format, model: session.model, calls: calls.length, rows, priceLabel: price?.label ?? null, status };
}

/** `62`, `62 ± 1`, `62 (60–65)`: where a replay fired, with its error band. */
export function fireText(callIndex: number, w: { early: number; late: number | null } | null): string {
  const at = callIndex + 1;
  if (!w) return String(at);
  const early = w.early + 1;
  const late = w.late === null ? null : w.late + 1;
  if (early === at && late === at) return String(at);
  if (late !== null && at - early === late - at) return `${at} ± ${at - early}`;
  return `${at} (${early}–${late ?? 'end'})`;
}

/** The recorded run: the session's own figures (session-facts.ts), its audits and probes. */
function recordedRow(r: RerunResult, baseline: OriginalBaseline, later: LaterToolText): PolicyRow {
  const at = new Map(baseline.recorded.map((x) => [x.compactionId, x.callIndex]));
  const audits = baseline.audits.filter((a) => at.has(a.compactionId)).map((a) => ({ audit: a, callIndex: at.get(a.compactionId)! }));
  const cols = auditColumns(audits, later);
  const o = r.original;
  const t = r.costs.original.totals;
  const notes: string[] = [];
  if (t.summarizerPromptTokens === null && baseline.recorded.length > 0) notes.push('the session does not record its summarizer calls');
  return {
    id: 'recorded',
    label: 'Recorded run',
    baseline: true,
    trigger: baseline.recorded.length ? `as recorded (${baseline.recorded.map((x) => x.trigger ?? 'unknown').join(', ')})` : 'no compaction recorded',
    status: 'done',
    notes,
    compactions: baseline.recorded.length,
    compactionCalls: baseline.recorded.map((x) => String(x.callIndex + 1)),
    peakTokens: o.peakTokens,
    totalInputTokens: o.totalInputTokens,
    estimatedCalls: o.estimatedCalls,
    peakBand: Math.round(o.peakBand),
    inputBand: Math.round(o.inputBand),
    cacheReadTokens: o.cachedTokens,
    cacheWriteTokens: o.writtenTokens,
    inputUsd: o.inputCost,
    summarizerPromptTokens: t.summarizerPromptTokens,
    summarizerOutputTokens: t.summarizerOutputTokens,
    summarizerUsd: baseline.recorded.length === 0 ? 0 : t.summarizerUsd,
    totalUsd: sumOrNull(o.inputCost, baseline.recorded.length === 0 ? 0 : t.summarizerUsd),
    lostNeeded: cols.lostNeeded.length,
    lostRefetched: cols.lostRefetched.length,
    auditSource: audits.length ? cols.source : 'none',
    survival: cols.survival,
    probes: mergeKindScores(r.recordedProbes.map((p) => kindScores(p.probes))),
    recordedMatch: [],
  };
}

function skipped(id: string, note: string): PolicyRow {
  const none = { recall: null, artifact: null, continuation: null, decision: null };
  return { id, label: id, baseline: false, trigger: '', status: 'skipped', notes: [note], compactions: 0, compactionCalls: [], peakTokens: 0, totalInputTokens: 0, estimatedCalls: 0, peakBand: 0, inputBand: 0, cacheReadTokens: 0, cacheWriteTokens: 0, inputUsd: null, summarizerPromptTokens: null, summarizerOutputTokens: null, summarizerUsd: null, totalUsd: null, lostNeeded: 0, lostRefetched: 0, auditSource: 'none', survival: {}, probes: none, recordedMatch: [] };
}

// ---------------------------------------------------------------------------------------------
// A corpus: each policy's median and total over the sessions

/** The figures a corpus row sums up. */
export const CORPUS_FIELDS = ['compactions', 'peakTokens', 'totalInputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'inputUsd', 'summarizerUsd', 'totalUsd', 'lostNeeded', 'lostRefetched'] as const;
export type CorpusField = (typeof CORPUS_FIELDS)[number];

export interface CorpusPolicyRow {
  id: string;
  label: string;
  baseline: boolean;
  /** Sessions the policy ran on. */
  sessions: number;
  median: Record<CorpusField, number | null>;
  total: Record<CorpusField, number | null>;
  /** Sessions where this row had the lowest total dollars (ties count for each; a session where all cost the same, for none). */
  cheapest: number;
  probes: KindScores;
}

function median(v: number[]): number | null {
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

export function corpusComparison(comparisons: readonly PolicyComparison[]): CorpusPolicyRow[] {
  const order: string[] = [];
  const byId = new Map<string, PolicyRow[]>();
  const cheapest = new Map<string, number>();
  for (const c of comparisons) {
    const done = c.rows.filter((r) => r.status === 'done');
    for (const r of done) {
      if (!byId.has(r.id)) {
        byId.set(r.id, []);
        order.push(r.id);
      }
      byId.get(r.id)!.push(r);
    }
    const priced = done.filter((r) => r.totalUsd !== null);
    // To the millionth of a dollar: the same bills summed in another order still tie.
    const usd = (r: PolicyRow) => Math.round(r.totalUsd! * 1e6);
    const min = Math.min(...priced.map(usd));
    // A session on which every policy costs the same (none fired, or all did alike) tells nothing of which is cheaper.
    if (priced.every((r) => usd(r) === min)) continue;
    for (const r of priced) if (usd(r) === min) cheapest.set(r.id, (cheapest.get(r.id) ?? 0) + 1);
  }
  // The recorded run leads, as in a session's table.
  order.sort((a, b) => (a === 'recorded' ? -1 : b === 'recorded' ? 1 : 0));
  return order.map((id) => {
    const rows = byId.get(id)!;
    const med = {} as CorpusPolicyRow['median'];
    const tot = {} as CorpusPolicyRow['total'];
    for (const f of CORPUS_FIELDS) {
      const vals = rows.map((r) => r[f]).filter((v): v is number => v !== null);
      med[f] = median(vals);
      tot[f] = vals.length ? vals.reduce((n, v) => n + v, 0) : null;
    }
    return { id, label: rows[0]!.label, baseline: rows[0]!.baseline, sessions: rows.length, median: med, total: tot, cheapest: cheapest.get(id) ?? 0, probes: mergeKindScores(rows.map((r) => r.probes)) };
  });
}
