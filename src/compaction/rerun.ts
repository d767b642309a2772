// Re-runs compaction over a whole session: walks the original calls in order, keeps a live context (the
// previous compacted context plus the items this call adds), fires the trigger, compacts, and compares
// the outcome with the original call by call — tokens, identifiers kept/lost/invented, prefix reused on
// the next call, estimated input cost. Plain data in and out, so a worker can run it and the UI show it.
import { knownContextWindow } from '../analysis/analysis-view';
import type { CallContext } from '../analysis/context-types';
import { assignRegions } from '../analysis/regions';
import { auditSummary, renderForAudit, type SummaryAudit } from '../audit';
import { analyzeCachePrefix, hashUnit, itemHeader, type ProviderRule } from '../cache';
import type { Item, Session } from '../model/types';
import { promptTokens } from '../model/usage';
import { comparable, originalBaseline, type OriginalBaseline } from './baseline';
import { isRecap } from './layout';
import { itemTokenMemo } from './measure';
import { compactionCosts, type CompactionCost, type CompactionCostTotals } from './compaction-cost';
import { callFigures, sideMetrics, type CallFigures, type SideMetrics } from './metrics';
import { observationMasking } from './strategies/observation-masking';
import { isCleared, isObservation } from './strategies/observations';
import { offlineSummarizer } from './offline-summarizer';
import { researchHistory } from './research-history';
import { callCost, priceFor, PRICE_TABLE, type ModelPrice, type PriceEntry } from './pricing';
import { resolveParams, runStrategy, type StrategyId, type StrategyParamsMap } from './strategy-registry';
import type { Summarizer } from './summarizer';
import { shouldFire, triggerWindow, type Trigger, type TriggerDecision } from './triggers';
import type { CompactionFallback, CompactionOutcome, ReplacementLabel, SummarizerCall } from './types';

export interface RerunProgress {
  phase: 'call' | 'summarizing' | 'done' | 'cancelled';
  /** 0-based call being processed. */
  callIndex: number;
  calls: number;
  /** Summary text so far while `summarizing`. */
  text?: string;
}

export interface RerunOptions<S extends StrategyId = StrategyId> {
  strategy: S;
  /** Partial parameters; missing or invalid ones take the strategy's defaults (see `resolveParams`). */
  params?: Partial<StrategyParamsMap[S]> | Record<string, unknown>;
  trigger: Trigger;
  /** Default: the offline summarizer. */
  summarizer?: Summarizer;
  count: (text: string) => number;
  signal?: AbortSignal;
  onProgress?: (p: RerunProgress) => void;
  /** Cache rule for both sides (default `auto`: per call from its API or model). */
  rule?: ProviderRule | 'auto';
  /** Price for every call's prompt; default from the call's or the session's model (`priceFor`). */
  price?: ModelPrice | null;
  /** Table the default prices come from (default PRICE_TABLE). */
  priceTable?: readonly PriceEntry[];
  /** Price of the summarizer's calls; default from its name. The offline summarizer costs nothing. */
  summarizerPrice?: ModelPrice | null;
  /** Context window for a fraction trigger; default the session's, else known from its model. */
  window?: number | null;
  /** The original side, when already computed (a sweep passes it to every run). */
  baseline?: OriginalBaseline;
  /**
   * What token triggers compare against: `calibrated` (default) measures the live context as the harness saw
   * its prompt (unrecorded system prompt and tools, tokenizer mismatch; calibration.ts); `counted` is the bare
   * count of the items.
   */
  measure?: 'calibrated' | 'counted';
  /** The harness policy this run replays, for labels: its id and how its trigger was worked out. */
  policy?: { id: string; label: string; triggerExplained: string } | null;
}

export interface RerunCall {
  index: number;
  callId: string;
  /** What the model would have been sent under the rerun. Items the rerun made have ids like `rerun.c5.summary`. */
  context: Item[];
  /** Ids of what the model was sent originally, in order. */
  originalIds: string[];
  original: CallFigures;
  rerun: CallFigures;
  /** Tokens of the live context before this call's compaction (equals `rerun.tokens` when none ran). */
  tokensBefore: number;
  /** `tokensBefore` as the trigger measured it (see `RerunOptions.measure`). */
  measuredBefore: number;
  trigger: TriggerDecision;
  /** The compaction that ran at this call. */
  eventId: string | null;
}

export interface RerunEvent {
  id: string;
  /** 0-based order of the rerun's compactions. */
  index: number;
  callIndex: number;
  strategy: StrategyId;
  label: ReplacementLabel | null;
  replacedIds: string[];
  /** Earlier recaps folded into this one. */
  foldedIds: string[];
  summaryId: string | null;
  summaryText: string | null;
  /** What stands in for the replaced items. */
  summaryKind: 'summary' | 'marker' | 'in-place';
  fallback: CompactionFallback | null;
  tokensBefore: number;
  tokensAfter: number;
  /** `tokensBefore` as the trigger measured it. */
  measuredBefore: number;
  /** A Claude Code microcompact (old tool results cleared) rather than the policy's compaction. */
  microcompact: boolean;
  /** The summary (or placeholders) checked against the replaced slice; tool names left out. */
  audit: SummaryAudit;
  summarizerCalls: SummarizerCall[];
  note: string | null;
}

export type RerunStatus = 'done' | 'cancelled';

export interface RerunResult {
  status: RerunStatus;
  /** Why the run stopped early; null when done. */
  statusReason: string | null;
  sessionId: string;
  strategy: StrategyId;
  /** The parameters used, defaults filled in. */
  params: Record<string, unknown>;
  trigger: Trigger;
  summarizer: string;
  window: number | null;
  rule: ProviderRule | 'auto';
  calls: RerunCall[];
  events: RerunEvent[];
  /** The original over the same calls as the rerun. */
  original: SideMetrics & { reportedInputTokens: number | null };
  rerun: SideMetrics & { summarizerCost: number | null; summarizerPromptTokens: number; summarizerOutputTokens: number };
  /** What each compaction cost and saved, the rerun's beside the recorded run's (compaction-cost.ts). */
  costs: { rerun: { events: CompactionCost[]; totals: CompactionCostTotals }; original: { events: CompactionCost[]; totals: CompactionCostTotals } };
  /** How the rerun's history was rebuilt from the recorded one. */
  history: RerunHistory;
  measure: 'calibrated' | 'counted';
  policy: { id: string; label: string; triggerExplained: string } | null;
  warnings: string[];
}

export interface RerunHistory {
  /** Summaries and markers the recorded harness inserted, left out of the rerun's history. */
  recapsLeftOut: number;
  /** Items a recorded compaction took out that the rerun puts back (the file kept them). */
  restored: number;
  /** Recorded compactions whose originals the format did not keep: the rerun runs on what exists. */
  lost: { compactionId: string; call: number | null; reason: string }[];
}

/**
 * How much of the uncompacted history the rerun starts from: the recorded recaps it leaves out, the replaced
 * items it puts back, and the compactions whose originals the file never kept (Self-Sum and reasoning traces
 * keep only the summary; an encrypted provider compaction keeps nothing readable).
 */
export function rerunHistory(session: Session, calls: readonly CallContext[], fresh: readonly Item[][]): RerunHistory {
  const freshIds = new Set(fresh.flat().map((it) => it.id));
  const sentIds = new Set(calls.flatMap((c) => c.entries.map((e) => e.item.id)));
  const recaps = new Set<string>();
  for (const c of calls) for (const e of c.entries) if (isRecap(e.item) && !freshIds.has(e.item.id)) recaps.add(e.item.id);
  const known = new Set(session.items.map((it) => it.id));
  let restored = 0;
  const lost: RerunHistory['lost'] = [];
  for (const c of session.compactions) {
    if (c.kind === 'inferred') continue;
    const present = c.replacedIds.filter((id) => known.has(id) || sentIds.has(id));
    restored += present.filter((id) => freshIds.has(id)).length;
    const call = calls.findIndex((x) => x.compactionId === c.id);
    const at = call >= 0 ? call + 1 : null;
    if (c.opaque) lost.push({ compactionId: c.id, call: at, reason: 'an encrypted provider compaction: what it replaced is not in the file' });
    else if (c.replacedIds.length > 0 && present.length === 0) lost.push({ compactionId: c.id, call: at, reason: 'the format keeps only the summary, not the items it replaced' });
    else if (c.replacedIds.length === 0 && (c.kind === 'summary' || c.kind === 'server')) lost.push({ compactionId: c.id, call: at, reason: 'the format does not record what this compaction replaced' });
  }
  return { recapsLeftOut: recaps.size, restored, lost };
}

/** Content key of an item as sent: header and text, not its id. */
const contentKey = (it: Item) => hashUnit(itemHeader(it), it.text);

/**
 * The items each call adds to the live context: what the previous call produced (even where the original
 * harness compacted it away before this call: without that compaction it would be sent), then this call's
 * items not sent before. After call 0, a summary or marker the original harness inserted is left out (the
 * rerun writes its own), and at a call where the original compacted, items repeating earlier content (a
 * replacement history) are too.
 */
export function newItemsPerCall(calls: readonly CallContext[]): Item[][] {
  const seen = new Set<string>();
  const seenContent = new Set<number>();
  const out: Item[][] = [];
  const see = (item: Item) => {
    seen.add(item.id);
    seenContent.add(contentKey(item));
  };
  calls.forEach((call, k) => {
    const prevOutput = k > 0 ? calls[k - 1]!.output : [];
    const produced = new Set(prevOutput.map((it) => it.id));
    const sent = new Set(call.entries.map((e) => e.item.id));
    const fresh: Item[] = [];
    for (const item of prevOutput) {
      if (sent.has(item.id) || seen.has(item.id) || item.kind === 'compaction') continue;
      fresh.push(item);
      see(item);
    }
    for (const { item } of call.entries) {
      if (seen.has(item.id) || item.kind === 'compaction') continue;
      if (k > 0 && isRecap(item) && !produced.has(item.id)) continue;
      if (k > 0 && call.compactionId !== null && seenContent.has(contentKey(item))) continue;
      fresh.push(item);
    }
    for (const { item } of call.entries) see(item);
    out.push(fresh);
  });
  return out;
}

const toolNamesOf = (items: readonly Item[]) => new Set(items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));

function withoutToolNames(a: SummaryAudit, tools: ReadonlySet<string>): SummaryAudit {
  const isTool = (v: string) => tools.has(v.replace(/\(\)$/, ''));
  return { ...a, kept: a.kept.filter((v) => !isTool(v)), lost: a.lost.filter((v) => !isTool(v)), lostReferencedLater: a.lostReferencedLater.filter((r) => !isTool(r.value)), lostRefetchedLater: a.lostRefetchedLater.filter((r) => !isTool(r.value)), invented: a.invented.filter((v) => !isTool(v)) };
}

/** The recorded summarizer call of a compaction (Claude Code's `agent-acompact` sidechain), from its usage. */
function recordedSummarizer(session: Session, compactionId: string): { promptTokens: number; outputTokens: number } | null {
  const side = session.sidechains.find((s) => s.purpose === 'compaction' && s.compactionId === compactionId);
  const used = (side?.responses ?? []).filter((r) => r.usage !== null);
  if (used.length === 0) return null;
  return { promptTokens: used.reduce((n, r) => n + (promptTokens(r.usage!) ?? 0), 0), outputTokens: used.reduce((n, r) => n + (r.usage!.output ?? 0), 0) };
}

/** What Claude Code's microcompact leaves in place of a cleared tool result. */
export const MICROCOMPACT_PLACEHOLDER = '[Old tool result content cleared]';

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function rerunSession<S extends StrategyId>(session: Session, opts: RerunOptions<S>): Promise<RerunResult> {
  const rule = opts.rule ?? 'auto';
  const baseline = opts.baseline ?? originalBaseline(session, { count: opts.count, rule });
  const calls = baseline.contexts.calls;
  const summarizer = opts.summarizer ?? offlineSummarizer;
  const params = resolveParams(opts.strategy, opts.params ?? {});
  const window = opts.window ?? session.contextWindow ?? calls.find((c) => c.usage?.contextWindow)?.usage?.contextWindow ?? knownContextWindow(session.model);
  const tokensOf = itemTokenMemo(opts.count);
  const toolsTokens = (call: CallContext) => (call.tools ? opts.count(`tools\n${call.tools}`) : 0);
  const warnings: string[] = [];
  if (calls.length === 0) warnings.push('the session has no model calls to re-run');
  if (opts.trigger.kind === 'fraction' && triggerWindow(opts.trigger, window) === null) warnings.push('no context window known: the fraction trigger never fires (set a window)');

  // Research trajectories compact by themselves: their own summary turns leave the history first.
  const research = researchHistory(session, newItemsPerCall(calls));
  const fresh = research.fresh;
  if (research.note) warnings.push(research.note);
  const history = rerunHistory(session, calls, fresh);
  for (const l of history.lost) warnings.push(`compaction ${l.call === null ? l.compactionId : `before call ${l.call}`}: ${l.reason}; the rerun runs on what exists`);
  const measure = opts.measure ?? 'calibrated';
  const cal = baseline.calibration;
  // The harness's view of a prompt: its unrecorded prefix, the tokenizer scale and per-item framing.
  const measured = (k: number, tokens: number, items: number) => {
    const c = cal.calls[k];
    if (measure === 'counted' || !c) return tokens;
    return Math.round(c.prefixTokens + c.scale * tokens + c.perItem * items);
  };
  const micro = opts.strategy === 'claude-code-compact' ? (params as { microcompactAfter?: number | null; microcompactKeep?: number }) : null;
  const allTools = toolNamesOf(session.items.concat(fresh.flat()));
  const contexts: Item[][] = [];
  const before: number[] = [];
  const measuredAt: number[] = [];
  const decisions: TriggerDecision[] = [];
  const eventAt: (string | null)[] = [];
  const events: RerunEvent[] = [];
  let live: Item[] = [];
  let sinceCompaction = 0;
  let status: RerunStatus = 'done';
  let statusReason: string | null = null;

  for (let k = 0; k < calls.length; k++) {
    if (k > 0 && k % 25 === 0) await yieldToEventLoop();
    if (opts.signal?.aborted) {
      status = 'cancelled';
      statusReason = `cancelled before call ${k + 1} of ${calls.length}`;
      break;
    }
    opts.onProgress?.({ phase: 'call', callIndex: k, calls: calls.length });
    const call = calls[k]!;
    live = [...live, ...fresh[k]!];
    sinceCompaction++;
    const sizeOf = (items: readonly Item[]) => items.reduce((n, it) => n + tokensOf(it), 0) + toolsTokens(call);
    let eventId: string | null = null;
    const record = (outcome: CompactionOutcome, strategy: StrategyId, tokens: number, measuredTokens: number, microcompact: boolean) => {
      eventId = `rerun-${events.length}`;
      const recapText = outcome.recap?.text ?? null;
      const after = sizeOf(outcome.context);
      const replaced = new Set(outcome.replacedIds);
      const summaryForAudit = recapText ?? outcome.context.filter((it) => replaced.has(it.id)).map((it) => it.text).join('\n');
      const audit = auditSummary({
        summary: summaryForAudit,
        sources: outcome.slice.map(renderForAudit),
        later: fresh.slice(k + 1).flat().map((it) => ({ id: it.id, text: renderForAudit(it), role: it.role })),
        context: [...outcome.context.filter((it) => it !== outcome.recap && !replaced.has(it.id)).map(renderForAudit), ...(outcome.priorSummary ? [outcome.priorSummary] : [])],
      });
      events.push({
        id: eventId,
        index: events.length,
        callIndex: k,
        strategy,
        label: outcome.label,
        replacedIds: outcome.replacedIds,
        foldedIds: outcome.foldedIds,
        summaryId: outcome.recap?.id ?? null,
        summaryText: recapText,
        summaryKind: outcome.recap === null ? 'in-place' : outcome.recap.kind === 'summary' ? 'summary' : 'marker',
        fallback: outcome.fallback,
        tokensBefore: tokens,
        tokensAfter: after,
        measuredBefore: measuredTokens,
        microcompact,
        audit: withoutToolNames(audit, allTools),
        summarizerCalls: outcome.summarizerCalls,
        note: outcome.note,
      });
      live = outcome.context;
    };
    // Claude Code's microcompact runs on every call, before the auto-compact check.
    if (micro && typeof micro.microcompactAfter === 'number' && live.filter((it) => isObservation(it) && !isCleared(it)).length > micro.microcompactAfter) {
      const t = sizeOf(live);
      const outcome = await observationMasking(live, { keepLast: micro.microcompactKeep ?? 5, placeholder: MICROCOMPACT_PLACEHOLDER }, { summarizer, count: opts.count, idPrefix: `rerun.c${k}.micro` });
      if (outcome.changed) record(outcome, 'observation-masking', t, measured(k, t, live.length), true);
    }
    const tokens = sizeOf(live);
    const measuredTokens = measured(k, tokens, live.length);
    const decision = shouldFire(opts.trigger, { tokens: measuredTokens, window, callsSinceCompaction: sinceCompaction, items: live.length });
    if (decision.fire) {
      const outcome = await runStrategy(opts.strategy, live, params, {
        summarizer,
        count: opts.count,
        idPrefix: `rerun.c${k}`,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onText: (text) => opts.onProgress?.({ phase: 'summarizing', callIndex: k, calls: calls.length, text }),
      });
      if (outcome.cancelled) {
        status = 'cancelled';
        statusReason = `cancelled while compacting at call ${k + 1} of ${calls.length}`;
        break;
      }
      if (outcome.changed) {
        record(outcome, opts.strategy, tokens, measuredTokens, false);
        sinceCompaction = 0;
      }
    }
    contexts.push(live);
    before.push(tokens);
    measuredAt.push(measuredTokens);
    decisions.push(decision);
    eventAt.push(eventId);
  }

  const done = contexts.length;
  const rerunCalls: CallContext[] = contexts.map((items, k) => ({
    ...comparable(calls[k]!),
    entries: assignRegions(items),
    compactionId: eventAt[k]!,
    recorded: false,
  }));
  const table = opts.priceTable ?? PRICE_TABLE;
  const priceOf = (call: CallContext) => (opts.price !== undefined ? opts.price : priceFor(call.model ?? session.model, table));
  const rerunReports = analyzeCachePrefix(rerunCalls, { count: opts.count, rule });
  const rerunFigs = callFigures(rerunCalls, rerunReports, priceOf);
  // Each compaction is priced at the model of the call it lands at.
  const modelAt = (k: number) => calls[k]?.model ?? session.model;
  // The original over the same calls: when cancelled, its next-call prefix for the last call is dropped too.
  const originalFigs = callFigures(baseline.calls.slice(0, done), baseline.reports.slice(0, done), priceOf);
  if (done < calls.length && done > 0) {
    // Keep the original's reuse figure of the last processed call comparable with the rerun's (unknown next call).
    originalFigs[done - 1] = { ...originalFigs[done - 1]!, prefixReusedNext: null, cachedNext: null };
  }

  const takenOriginal = new Set(baseline.calls.slice(0, done).map((c) => c.compactionId).filter((id): id is string => id !== null));
  const originalAudits = status === 'done' ? baseline.audits : baseline.audits.filter((a) => takenOriginal.has(a.compactionId));
  const reported = baseline.reportedInputTokens.slice(0, done);
  const sCalls = events.flatMap((e) => e.summarizerCalls);
  const sPrice = opts.summarizerPrice !== undefined ? opts.summarizerPrice : summarizer.name === 'offline' ? null : priceFor(summarizer.name, table);
  const sPrompt = sCalls.reduce((n, c) => n + c.promptTokens, 0);
  const sOutput = sCalls.reduce((n, c) => n + c.outputTokens, 0);

  opts.onProgress?.({ phase: status === 'done' ? 'done' : 'cancelled', callIndex: Math.max(0, done - 1), calls: calls.length });
  return {
    status,
    statusReason,
    sessionId: session.id,
    strategy: opts.strategy,
    params: { ...params },
    trigger: opts.trigger,
    summarizer: summarizer.name,
    window,
    rule,
    calls: contexts.map((context, k) => ({
      index: calls[k]!.index,
      callId: calls[k]!.id,
      context,
      originalIds: calls[k]!.entries.map((e) => e.item.id),
      original: originalFigs[k]!,
      rerun: rerunFigs[k]!,
      tokensBefore: before[k]!,
      measuredBefore: measuredAt[k]!,
      trigger: decisions[k]!,
      eventId: eventAt[k]!,
    })),
    events,
    original: {
      ...sideMetrics(originalFigs, originalAudits, takenOriginal.size, baseline.fallbackIds.filter((id) => takenOriginal.has(id)).length),
      reportedInputTokens: reported.some((r) => r !== null) ? reported.reduce<number>((n, r) => n + (r ?? 0), 0) : null,
    },
    rerun: {
      ...sideMetrics(rerunFigs, events.map((e) => e.audit), events.length, events.filter((e) => e.fallback !== null).length),
      summarizerCost: summarizer.name === 'offline' ? 0 : sPrice ? callCost(sPrompt, sOutput, sPrice) : null,
      summarizerPromptTokens: sPrompt,
      summarizerOutputTokens: sOutput,
    },
    costs: {
      rerun: compactionCosts(
        events.map((e) => ({ callIndex: e.callIndex, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter, summarizer: e.summarizerCalls.length ? { promptTokens: e.summarizerCalls.reduce((n, c) => n + c.promptTokens, 0), outputTokens: e.summarizerCalls.reduce((n, c) => n + c.outputTokens, 0) } : null })),
        rerunFigs,
        modelAt,
      ),
      original: compactionCosts(
        originalFigs.flatMap((f, k) => {
          const id = baseline.calls[k]!.compactionId;
          if (k === 0 || id === null) return [];
          // A compaction that records no removed items has no re-fetch figure (refetchTax skips it): null, not 0.
          const refetchTokens = baseline.refetch.find((r) => r.compactionId === id)?.refetchTokens ?? null;
          return [{ callIndex: k, tokensBefore: originalFigs[k - 1]!.tokens, tokensAfter: f.tokens, summarizer: recordedSummarizer(session, id), refetchTokens }];
        }),
        originalFigs,
        modelAt,
      ),
    },
    history,
    measure,
    policy: opts.policy ?? null,
    warnings,
  };
}
