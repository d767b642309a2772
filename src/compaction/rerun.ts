// Re-runs compaction over a whole session: walks the original calls in order, keeps a live context (the
// previous compacted context plus the items this call adds), fires the trigger, compacts, and compares
// the outcome with the original call by call — tokens, identifiers kept/lost/invented, prefix reused on
// the next call, estimated input cost. Plain data in and out, so a worker can run it and the UI show it.
import { sessionContextWindow } from '../analysis/context-window';
import type { CallContext } from '../analysis/context-types';
import { assignRegions } from '../analysis/regions';
import { auditSummary, cwdOf, daysOf, fetchMetaOf, keptVerbatimOf, laterEntry, renderForAudit, type SummaryAudit } from '../audit';
import { analyzeCachePrefix, hashUnit, itemHeader, type ProviderRule } from '../cache';
import type { Item, Session } from '../model/types';
import { promptTokens } from '../model/usage';
import { comparable, originalBaseline, type OriginalBaseline, type RecordedCompaction } from './baseline';
import { isRecap } from './layout';
import { itemTokenMemo } from './measure';
import { compactionCosts, type CompactionCost, type CompactionCostTotals, type SummarizerUse } from './compaction-cost';
import { callFigures, sideMetrics, type CallFigures, type SideMetrics } from './metrics';
import { observationMasking } from './strategies/observation-masking';
import { isCleared, isObservation } from './strategies/observations';
import { offlineSummarizer } from './offline-summarizer';
import { generateProbes, scoreOffline, type ProbeScore } from '../probes';
import { policyForFormat } from './policies/presets';
import { researchHistory } from './research-history';
import { priceOf, type ModelPrice, type PriceOverrides } from '../cost/prices';
import { callPrice, modelledBill, priceCall, reportedBill } from './prompt-bill';
import { ReplayMeter, type MeasureSource, type PromptMeasure } from './replay-meter';
import { resolveParams, runStrategy, type StrategyId, type StrategyParamsMap } from './strategy-registry';
import type { Summarizer } from './summarizer';
import { shouldFire, tokenLimit, triggerWindow, type Trigger, type TriggerDecision } from './triggers';
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
  /** Price for every call's prompt; default from the call's or the session's model (src/cost/prices.ts). */
  price?: ModelPrice | null;
  /** The user's prices by model name, over the dated table. */
  prices?: PriceOverrides;
  /** Price of the summarizer's calls; default from its name. The offline summarizer costs nothing. */
  summarizerPrice?: ModelPrice | null;
  /** Context window for a fraction trigger; default the session's, else known from its model. */
  window?: number | null;
  /** The original side, when already computed (a sweep passes it to every run). */
  baseline?: OriginalBaseline;
  /**
   * What token triggers compare against: `calibrated` (default) measures the prompt from the provider's reported
   * figures (replay-meter.ts: the reported prompt while the replay sends what the recording sent, else a reported
   * prompt ± the calibrated difference); `counted` is the bare count of the items.
   */
  measure?: 'calibrated' | 'counted';
  /**
   * When the harness measures: `prompt` (default) checks the prompt it is about to send (Claude Code, Inspect, the
   * API's server-side compaction); `last-response` checks the previous call's usage, prompt plus output, after
   * the response came back (Codex: `total_usage_tokens >= auto_compact_limit` after each sampling request).
   */
  measureAt?: 'prompt' | 'last-response';
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
  /** The whole prompt of the live context before this call's compaction (equals `rerun.tokens` when none ran). */
  tokensBefore: number;
  /** What the trigger measured at this call (`tokensBefore`, or the previous call's prompt and output; see `measureAt`). */
  measuredBefore: number;
  /** ± tokens around `measuredBefore`. */
  band: number;
  /** Where `measuredBefore` comes from: the reported prompt, a reported prompt ± a calibrated difference, or counts. */
  measureSource: MeasureSource;
  trigger: TriggerDecision;
  /** The compaction that ran at this call. */
  eventId: string | null;
}

/** Where a token trigger sits inside the error band of the figures it measured: the calls it could have fired at. */
export interface FireWindow {
  /** 0-based: the first call where the upper edge of the band reaches the limit. */
  early: number;
  /** 0-based: the first call where the lower edge does; null when no later call reaches it (the session ends). */
  late: number | null;
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
  /** The whole prompt before and after, on the provider's basis (replay-meter.ts). */
  tokensBefore: number;
  tokensAfter: number;
  /** What the trigger measured, and its error band. */
  measuredBefore: number;
  band: number;
  /** For a token trigger: the calls it could have fired at, given the band; null for other triggers. */
  fireWindow: FireWindow | null;
  /** A Claude Code microcompact (old tool results cleared) rather than the policy's compaction. */
  microcompact: boolean;
  /** The summary (or placeholders) checked against the replaced slice; tool names left out. */
  audit: SummaryAudit;
  /** The replaced items as they were (their ids): what the probes ask about. */
  sliceIds: string[];
  /** Questions generated from the slice, scored offline from the summary (src/probes). */
  probes: ProbeScore[];
  summarizerCalls: SummarizerCall[];
  note: string | null;
}

/** Probes of one recorded compaction: questions from what it replaced, scored offline from its summary. */
export interface RecordedProbes {
  compactionId: string;
  /** 1-based call sent right after it. */
  call: number;
  probes: ProbeScore[];
  /** Why there are no probes (the format does not record what the compaction replaced); null when there are. */
  note: string | null;
}

/** A recorded compaction beside the replay's nearest one: did the policy fire where the harness did? */
export interface RecordedMatch {
  /** 1-based call the recording compacted before. */
  call: number;
  compactionId: string;
  /** `auto`, `manual`… as recorded. */
  trigger: string | null;
  /** What the harness logged before compacting (Claude Code's `preTokens`); null when not recorded. */
  harnessTokens: number | null;
  /** What this replay measured at that call (before any compaction of its own there). */
  measured: number | null;
  band: number | null;
  /** 1-based call of the replay's matching compaction; null when it never fired near it. */
  replayCall: number | null;
  /** replayCall − call. */
  offset: number | null;
  /** The replay's fire window, 1-based. */
  window: { early: number; late: number | null } | null;
  /**
   * `within-one`: fired within one call; `within-band`: further off, but the recorded call lies inside the band;
   * `off`: elsewhere; `not-fired`: no replay compaction to compare; `manual`: the user compacted (`/compact`), not
   * compared; `not-compared`: the trigger is the recording's own.
   */
  verdict: 'within-one' | 'within-band' | 'off' | 'not-fired' | 'manual' | 'not-compared';
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
  /** The original over the same calls as the rerun: the session's own figures (session-facts.ts). */
  original: SideMetrics & { reportedInputTokens: number | null };
  rerun: SideMetrics & { summarizerCost: number | null; summarizerPromptTokens: number; summarizerOutputTokens: number };
  /** What each compaction cost and saved, the rerun's beside the recorded run's (compaction-cost.ts). */
  costs: { rerun: { events: CompactionCost[]; totals: CompactionCostTotals }; original: { events: CompactionCost[]; totals: CompactionCostTotals } };
  /** Each recorded compaction beside the replay's (policy replays fire where the harness fired). */
  recordedMatch: RecordedMatch[];
  /** Probes of the recording's own compactions (the rerun's are on its events). */
  recordedProbes: RecordedProbes[];
  /** How the rerun's history was rebuilt from the recorded one. */
  history: RerunHistory;
  measure: 'calibrated' | 'counted';
  measureAt: 'prompt' | 'last-response';
  policy: { id: string; label: string; triggerExplained: string } | null;
  /** The run replays the policy of the harness that wrote the session: its compactions should fall where the recording's did. */
  ownPolicy: boolean;
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
function recordedSummarizer(session: Session, compactionId: string): SummarizerUse | null {
  const side = session.sidechains.find((s) => s.purpose === 'compaction' && s.compactionId === compactionId);
  const used = (side?.responses ?? []).filter((r) => r.usage !== null);
  if (used.length === 0) return null;
  return {
    promptTokens: used.reduce((n, r) => n + (promptTokens(r.usage!) ?? 0), 0),
    outputTokens: used.reduce((n, r) => n + (r.usage!.output ?? 0), 0),
    readTokens: used.reduce((n, r) => n + (r.usage!.cacheRead ?? 0), 0),
    writtenTokens: used.reduce((n, r) => n + (r.usage!.cacheWrite ?? 0), 0),
  };
}

/** Strategies of harnesses that summarize by sending the conversation itself (its cached prefix) with an instruction. */
const SENDS_CONVERSATION: ReadonlySet<StrategyId> = new Set(['claude-code-compact', 'codex-compact', 'server-compact']);

/**
 * The summarizer call the harness would have made for a rerun compaction. A harness that sends its conversation
 * (Claude Code, Codex, the API's server compaction) sends the prompt it was about to send, whose prefix the
 * previous call left in the cache; the others send what the strategy rendered, uncached. The output is the
 * summary as this run wrote it.
 */
function rerunSummarizer(e: RerunEvent, previousPrompt: number | null, billing: { writes: boolean }): SummarizerUse | null {
  if (e.summarizerCalls.length === 0) return null;
  const outputTokens = e.summarizerCalls.reduce((n, c) => n + c.outputTokens, 0);
  const counted = e.summarizerCalls.reduce((n, c) => n + c.promptTokens, 0);
  if (!SENDS_CONVERSATION.has(e.strategy)) return { promptTokens: counted, outputTokens };
  const prompt = Math.max(counted, e.tokensBefore);
  const read = Math.min(prompt, previousPrompt ?? 0);
  return { promptTokens: prompt, outputTokens, readTokens: read, writtenTokens: billing.writes ? prompt - read : 0 };
}

/** What Claude Code's microcompact leaves in place of a cleared tool result. */
export const MICROCOMPACT_PLACEHOLDER = '[Old tool result content cleared]';

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function rerunSession<S extends StrategyId>(session: Session, opts: RerunOptions<S>): Promise<RerunResult> {
  const rule = opts.rule ?? 'auto';
  const baseline = opts.baseline ?? originalBaseline(session, { count: opts.count, rule, ...(opts.prices ? { prices: opts.prices } : {}) });
  const calls = baseline.contexts.calls;
  const summarizer = opts.summarizer ?? offlineSummarizer;
  const params = resolveParams(opts.strategy, opts.params ?? {});
  const window = opts.window ?? sessionContextWindow(session);
  const tokensOf = itemTokenMemo(opts.count);
  const toolsTokens = (call: CallContext) => (call.tools ? opts.count(`tools\n${call.tools}`) : 0);
  const warnings: string[] = [];
  if (calls.length === 0) warnings.push('the session has no model calls to re-run');
  if (opts.trigger.kind === 'fraction' && triggerWindow(opts.trigger, window) === null) warnings.push('no context window known: the fraction trigger never fires (set a window)');
  if (opts.trigger.kind === 'recorded' && baseline.recorded.length === 0) warnings.push('the session has no recorded compaction: the recorded trigger never fires');

  // Research trajectories compact by themselves: their own summary turns leave the history first.
  const research = researchHistory(session, newItemsPerCall(calls));
  const fresh = research.fresh;
  if (research.note) warnings.push(research.note);
  const history = rerunHistory(session, calls, fresh);
  for (const l of history.lost) warnings.push(`compaction ${l.call === null ? l.compactionId : `before call ${l.call}`}: ${l.reason}; the rerun runs on what exists`);
  const measure = opts.measure ?? 'calibrated';
  const measureAt = opts.measureAt ?? 'prompt';
  const meter = new ReplayMeter(calls, baseline.calibration, opts.count);
  /** The whole prompt of `items` sent at call k, from the provider's figures (or counted, on request). */
  const promptOf = (k: number, items: readonly Item[], remember = true): PromptMeasure => {
    if (measure === 'counted') {
      const tokens = items.reduce((n, it) => n + tokensOf(it), 0) + toolsTokens(calls[k]!);
      return { tokens, band: 0, source: 'estimated', anchor: null, inserted: 0, removed: 0 };
    }
    return meter.measure(k, items, remember);
  };
  /** What the trigger measures before call k: the prompt about to be sent, or the previous response's usage. */
  const triggerMeasure = (k: number, before: PromptMeasure, sentBefore: PromptMeasure | null): PromptMeasure => {
    if (measureAt === 'prompt') return before;
    if (k === 0 || !sentBefore) return { ...before, tokens: 0, band: 0 };
    return { ...sentBefore, tokens: sentBefore.tokens + meter.outputTokens(k - 1) };
  };
  const recordedHere = new Set(baseline.recorded.map((r) => r.callIndex));
  const limit = tokenLimit(opts.trigger, window);
  const micro = opts.strategy === 'claude-code-compact' ? (params as { microcompactAfter?: number | null; microcompactKeep?: number }) : null;
  const allTools = toolNamesOf(session.items.concat(fresh.flat()));
  const auditMeta = fetchMetaOf(session.items.concat(fresh.flat()));
  const sessionDays = [...daysOf(session.items.map((i) => i.timestamp))];
  const contexts: Item[][] = [];
  const before: number[] = [];
  const measuredAt: PromptMeasure[] = [];
  const sent: PromptMeasure[] = [];
  const decisions: TriggerDecision[] = [];
  const eventAt: (string | null)[] = [];
  const events: RerunEvent[] = [];
  let live: Item[] = [];
  let sinceCompaction = 0;
  /** First call since the last compaction where the band's upper edge reached the limit. */
  let upperReached: number | null = null;
  let status: RerunStatus = 'done';
  let statusReason: string | null = null;

  /** The first call from k on where the band's lower edge reaches the limit, had the replay not compacted at k. */
  const lowerReached = (k: number, liveBefore: readonly Item[], at: PromptMeasure): number | null => {
    if (limit === null) return null;
    if (at.tokens - at.band >= limit) return k;
    let shadow = [...liveBefore];
    let prevSent = promptOf(k, shadow, false);
    for (let j = k + 1; j < calls.length && j <= k + 60; j++) {
      shadow = [...shadow, ...fresh[j]!];
      const b = promptOf(j, shadow, false);
      const m = measureAt === 'prompt' ? b : { ...prevSent, tokens: prevSent.tokens + meter.outputTokens(j - 1) };
      if (m.tokens - m.band >= limit) return j;
      prevSent = b;
    }
    return null;
  };

  for (let k = 0; k < calls.length; k++) {
    if (k > 0 && k % 25 === 0) await yieldToEventLoop();
    if (opts.signal?.aborted) {
      status = 'cancelled';
      statusReason = `cancelled before call ${k + 1} of ${calls.length}`;
      break;
    }
    opts.onProgress?.({ phase: 'call', callIndex: k, calls: calls.length });
    live = [...live, ...fresh[k]!];
    sinceCompaction++;
    let eventId: string | null = null;
    const sentPrev = k > 0 ? sent[k - 1]! : null;
    const record = (outcome: CompactionOutcome, strategy: StrategyId, tokens: number, m: PromptMeasure, microcompact: boolean, fireWindow: FireWindow | null) => {
      eventId = `rerun-${events.length}`;
      const recapText = outcome.recap?.text ?? null;
      const after = promptOf(k, outcome.context, false).tokens;
      const replaced = new Set(outcome.replacedIds);
      const summaryForAudit = recapText ?? outcome.context.filter((it) => replaced.has(it.id)).map((it) => it.text).join('\n');
      // Read as a recorded compaction is read (audit-session.ts): each item's fetch, the session's days and working
      // directory, and what the replayed context still holds verbatim beside the summary.
      const keptItems = outcome.context.filter((it) => it !== outcome.recap && !replaced.has(it.id));
      const later = fresh.slice(k + 1).flat();
      const audit = auditSummary({
        summary: summaryForAudit,
        sources: outcome.slice.map(renderForAudit),
        sourceMeta: outcome.slice.map(auditMeta),
        later: later.map((it) => laterEntry(it, auditMeta(it).target ?? null)),
        context: [...keptItems.map(renderForAudit), ...(outcome.priorSummary ? [outcome.priorSummary] : [])],
        contextMeta: keptItems.map(auditMeta),
        keptVerbatim: keptVerbatimOf(keptItems),
        sessionDays,
        project: { cwd: cwdOf(session) },
        format: session.format,
        // The CLAUDE.md or AGENTS.md files the user supplied are in every replayed request too (instruction-files.ts).
        ...(session.instructionFiles && session.instructionFiles.length > 0 ? { instructionFiles: session.instructionFiles } : {}),
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
        measuredBefore: m.tokens,
        band: m.band,
        fireWindow,
        microcompact,
        audit: withoutToolNames(audit, allTools),
        sliceIds: outcome.slice.map((it) => it.id),
        probes: scoreOffline(generateProbes({ slice: outcome.slice, later: fresh.slice(k + 1, k + 4).flat() }), summaryForAudit),
        summarizerCalls: outcome.summarizerCalls,
        note: outcome.note,
      });
      live = outcome.context;
    };
    // Claude Code's microcompact runs on every call, before the auto-compact check.
    if (micro && typeof micro.microcompactAfter === 'number' && live.filter((it) => isObservation(it) && !isCleared(it)).length > micro.microcompactAfter) {
      const t = promptOf(k, live, false);
      const outcome = await observationMasking(live, { keepLast: micro.microcompactKeep ?? 5, placeholder: MICROCOMPACT_PLACEHOLDER }, { summarizer, count: opts.count, idPrefix: `rerun.c${k}.micro` });
      if (outcome.changed) record(outcome, 'observation-masking', t.tokens, triggerMeasure(k, t, sentPrev), true, null);
    }
    const liveBefore = live;
    const beforeMeasure = promptOf(k, liveBefore);
    const m = triggerMeasure(k, beforeMeasure, sentPrev);
    if (limit !== null && upperReached === null && m.tokens + m.band >= limit) upperReached = k;
    const decision = shouldFire(opts.trigger, { tokens: m.tokens, window, callsSinceCompaction: sinceCompaction, items: live.length, recordedHere: recordedHere.has(k) });
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
        const fireWindow = limit !== null ? { early: upperReached ?? k, late: lowerReached(k, liveBefore, m) } : null;
        record(outcome, opts.strategy, beforeMeasure.tokens, m, false, fireWindow);
        sinceCompaction = 0;
        upperReached = null;
      }
    }
    contexts.push(live);
    before.push(beforeMeasure.tokens);
    measuredAt.push(m);
    sent.push(live === liveBefore ? beforeMeasure : promptOf(k, live));
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
  const priceFor = (call: CallContext) => (opts.price !== undefined ? opts.price : callPrice(call, session.model, opts.prices));
  const rerunReports = analyzeCachePrefix(rerunCalls, { count: opts.count, rule });
  // The provider's bill where the rerun sends what the recording sent (its cache too: the previous call was the same).
  const asRecorded = sent.map((m, k) => m.source === 'reported' && m.anchor === k);
  const rerunBills = sent.map((m, k) => {
    const call = calls[k]!;
    const price = priceFor(call);
    const reported = asRecorded[k] && (k === 0 || asRecorded[k - 1]) ? reportedBill(call, price, baseline.billing) : null;
    return reported ?? modelledBill(m.tokens, rerunReports[k]!, baseline.calibration.calls[k] ?? { scale: 1, perItem: 0 }, contexts[k]!.length, price, baseline.billing);
  });
  const rerunFigs = callFigures(sent, rerunBills, rerunReports);
  const originalBills = opts.price !== undefined ? baseline.bills.map((b) => ({ ...b, usd: priceCall(opts.price!, b.read, b.written, b.uncached, baseline.billing.ttl) })) : baseline.bills;
  // Each compaction is priced at the model of the call it lands at.
  const modelAt = (k: number) => calls[k]?.model ?? session.model;
  // The original over the same calls: when cancelled, its next-call prefix for the last call is dropped too.
  const originalFigs = callFigures(baseline.prompts.slice(0, done), originalBills.slice(0, done), baseline.reports.slice(0, done));
  if (done < calls.length && done > 0) {
    // Keep the original's reuse figure of the last processed call comparable with the rerun's (unknown next call).
    originalFigs[done - 1] = { ...originalFigs[done - 1]!, prefixReusedNext: null, cachedNext: null };
  }

  const takenOriginal = new Set(baseline.calls.slice(0, done).map((c) => c.compactionId).filter((id): id is string => id !== null));
  const originalAudits = status === 'done' ? baseline.audits : baseline.audits.filter((a) => takenOriginal.has(a.compactionId));
  const reported = baseline.reportedInputTokens.slice(0, done);
  const sCalls = events.flatMap((e) => e.summarizerCalls);
  const sPrice = opts.summarizerPrice !== undefined ? opts.summarizerPrice : summarizer.name === 'offline' ? null : priceOf(summarizer.name, opts.prices);
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
      measuredBefore: measuredAt[k]!.tokens,
      band: measuredAt[k]!.band,
      measureSource: measuredAt[k]!.source,
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
      summarizerCost: summarizer.name === 'offline' ? 0 : sPrice ? (sPrompt * sPrice.input + sOutput * sPrice.output) / 1e6 : null,
      summarizerPromptTokens: sPrompt,
      summarizerOutputTokens: sOutput,
    },
    costs: {
      rerun: compactionCosts(
        events.map((e) => ({ callIndex: e.callIndex, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter, summarizer: rerunSummarizer(e, e.callIndex > 0 ? (sent[e.callIndex - 1]?.tokens ?? null) : null, baseline.billing) })),
        rerunFigs,
        modelAt,
        baseline.billing,
      ),
      original: compactionCosts(
        baseline.recorded.filter((r) => r.callIndex < done).map((r) => {
          // A compaction that records no removed items has no re-fetch figure (refetchTax skips it): null, not 0.
          const refetchTokens = baseline.refetch.find((x) => x.compactionId === r.compactionId)?.refetchTokens ?? null;
          return { callIndex: r.callIndex, tokensBefore: r.tokensBefore ?? originalFigs[r.callIndex - 1]!.tokens, tokensAfter: originalFigs[r.callIndex]!.tokens, summarizer: recordedSummarizer(session, r.compactionId), refetchTokens };
        }),
        originalFigs,
        modelAt,
        baseline.billing,
      ),
    },
    recordedMatch: recordedMatches(baseline.recorded.filter((r) => r.callIndex < done), events, measuredAt, opts.trigger),
    recordedProbes: recordedProbes(session, baseline, fresh, done),
    history,
    measure,
    measureAt,
    policy: opts.policy ?? null,
    ownPolicy: opts.policy != null && opts.policy.id === policyForFormat(session.format)?.id,
    warnings,
  };
}

/** Probes of each recorded compaction the run covered: its replaced items against its summary. */
function recordedProbes(session: Session, baseline: OriginalBaseline, fresh: readonly Item[][], done: number): RecordedProbes[] {
  const byId = new Map<string, Item>();
  for (const it of session.items) byId.set(it.id, it);
  for (const row of baseline.contexts.eviction) if (!byId.has(row.item.id)) byId.set(row.item.id, row.item);
  const events = new Map(baseline.contexts.compactions.map((c) => [c.id, c]));
  return baseline.recorded
    .filter((r) => r.callIndex < done)
    .map((r): RecordedProbes => {
      const ev = events.get(r.compactionId);
      const slice = (ev?.replacedIds ?? []).map((id) => byId.get(id)).filter((it): it is Item => it !== undefined && !isRecap(it));
      const summary = ev?.summaryId ? (byId.get(ev.summaryId)?.text ?? '') : (ev?.log?.summary ?? '');
      if (slice.length === 0) return { compactionId: r.compactionId, call: r.callIndex + 1, probes: [], note: ev?.opaque ? 'an encrypted compaction: what it replaced is not readable' : 'the format does not record what this compaction replaced' };
      return { compactionId: r.compactionId, call: r.callIndex + 1, probes: scoreOffline(generateProbes({ slice, later: fresh.slice(r.callIndex, r.callIndex + 3).flat() }), summary), note: null };
    });
}

/** Each recorded compaction beside the replay's nearest one (each replay compaction answers one recorded one). */
export function recordedMatches(recorded: readonly RecordedCompaction[], events: readonly RerunEvent[], measured: readonly PromptMeasure[], trigger: Trigger): RecordedMatch[] {
  const own = events.filter((e) => !e.microcompact);
  const used = new Set<number>();
  return recorded.map((r): RecordedMatch => {
    const m = measured[r.callIndex];
    const base = { call: r.callIndex + 1, compactionId: r.compactionId, trigger: r.trigger, harnessTokens: r.tokensBefore, measured: m ? m.tokens : null, band: m ? m.band : null };
    if (trigger.kind === 'recorded') return { ...base, replayCall: null, offset: null, window: null, verdict: 'not-compared' };
    if (r.trigger === 'manual') return { ...base, replayCall: null, offset: null, window: null, verdict: 'manual' };
    let best: RerunEvent | null = null;
    for (const e of own) {
      if (used.has(e.index)) continue;
      if (!best || Math.abs(e.callIndex - r.callIndex) < Math.abs(best.callIndex - r.callIndex)) best = e;
    }
    if (!best) return { ...base, replayCall: null, offset: null, window: null, verdict: 'not-fired' };
    used.add(best.index);
    const offset = best.callIndex - r.callIndex;
    const w = best.fireWindow;
    const inBand = w !== null && r.callIndex >= w.early && (w.late === null || r.callIndex <= w.late);
    return {
      ...base,
      replayCall: best.callIndex + 1,
      offset,
      window: w ? { early: w.early + 1, late: w.late === null ? null : w.late + 1 } : null,
      verdict: Math.abs(offset) <= 1 ? 'within-one' : inBand ? 'within-band' : 'off',
    };
  });
}
