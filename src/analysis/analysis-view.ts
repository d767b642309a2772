// A compact, clone-friendly view of a session's analysis for the UI: ids and numbers, not copies of items.
import { contextWindowOf } from './context-window';
import type { ShownAudit } from '../audit/trim-audit';
import type { CacheReport, ProviderRule } from '../cache';
import type { Lint } from '../lints';
import type { PriceOverrides } from '../cost/prices';
import type { Item, Session, Usage } from '../model/types';
import type { ResolvedCompaction, SessionFacts } from './session-facts';
import type { CompactionRefetch } from '../refetch';
import { analyzeSession, type DeferredPart } from './analyze-session';
import type { SessionContexts } from './session-analysis';
import type { EvictionLabel, RegionName } from './context-types';
import { labelAt, type LabelRun } from './eviction-runs';
import { bandsFromSpans } from './span-bands';
import { ViewTimeline } from './view-timeline';
import type { CallBands, CallEntryView, CallSegment, CallView, ViewSpan } from './view-types';
import { maxOf } from '../model/arrays';
import { unrecordedPrefix } from './calibration';

export type { CallBands, CallEntryView, CallSegment, CallView };

const INPUT_BANDS = ['system', 'tools', 'head', 'summary', 'middle', 'tail', 'newInput'] as const;

export interface GhostView {
  /** Items the call did not see although they existed: what compaction took out, with their label. */
  id: string;
  label: Exclude<EvictionLabel, 'verbatim'>;
  tokens: number;
  compactionId: string | null;
}

export interface AnalysisView {
  sessionId: string;
  rule: ProviderRule | 'auto';
  /** Every item the views may show: the session's, plus request-log items and masked variants. */
  items: Item[];
  /** Masked or cleared versions as the model saw them, by original id. Maps: ids come from the input (`__proto__` is an id). */
  variants: Map<string, Item>;
  /** Token count of each item id (of the original text). */
  tokens: Map<string, number>;
  calls: CallView[];
  /** Per call, the items that had been evicted by then (ghost rows). */
  ghosts: GhostView[][];
  /**
   * The compaction that took each removed item out (by item id): with `eviction` and `tokens`, enough to
   * rebuild a call's ghost rows when they were not built up front (see ghosts.ts).
   */
  removedBy?: Map<string, string>;
  /** Recorded and inferred compactions, with sizes resolved from the best evidence and the call each precedes. */
  compactions: ResolvedCompaction[];
  /** Each item's label per call, as runs of calls (see eviction-runs.ts `labelAt`). */
  eviction: { itemId: string; runs: LabelRun[] }[];
  /**
   * A replayed transcript's contexts as spans; its calls' `entries` are read from them (view-timeline.ts), so
   * the worker sends these instead of every call's list. Null for a request log, whose calls carry their lists.
   */
  spans: ViewSpan[] | null;
  cache: CacheReport[];
  /** Long lists cut to what a view shows (see trim-audit.ts), with their full counts. */
  audits: ShownAudit[];
  lints: Lint[];
  /** Every lint before the rule settings judged it, and the session's harness: the app applies the user's settings. */
  lintCandidates: Lint[];
  format: Session['format'];
  /** Per compaction, the tool calls after it that fetch again what it removed (see src/refetch). */
  refetch: CompactionRefetch[];
  /** Parts not worked out yet (their lists are empty until then): a first view comes without them. */
  pending: DeferredPart[];
  /** Every session-level figure (session-facts.ts): what the header, panels, CLI and report show. */
  facts: SessionFacts;
  /** Largest context the session reached (`facts.peakContextTokens`), and the window when known. */
  peakContextTokens: number;
  contextWindow: number | null;
  /** Why `contextWindow` is not known though the model is listed: a call's reported prompt was larger than its window. */
  contextWindowOverruled?: { listed: number; served: number };
}

export interface ViewOptions {
  count(text: string): number;
  rule?: ProviderRule | 'auto';
  /**
   * Build every call's ghost rows up front (default). They grow with calls × evicted items — 14 million rows
   * for a 100 MB session, more than a worker can send to the page — so the app builds them per call instead.
   */
  ghosts?: boolean;
  /** Contexts worked out before, reused (see AnalyzeOptions). */
  contexts?: SessionContexts;
  /** Parts the view goes without for now; `pending` lists them. */
  defer?: readonly DeferredPart[];
  /** The user's prices over the dated table. */
  prices?: PriceOverrides;
}

export function buildAnalysisView(session: Session, viewOpts: ViewOptions): AnalysisView {
  // Every text is asked for several times (each call's count, the spans, the bands, the outputs): counted once.
  const opts = { ...viewOpts, count: memoized(viewOpts.count) };
  const rule = opts.rule ?? 'auto';
  const a = analyzeSession(session, { count: opts.count, rule, ...(opts.contexts ? { contexts: opts.contexts } : {}), ...(opts.defer ? { defer: opts.defer } : {}), ...(opts.prices ? { prices: opts.prices } : {}) });
  const items = session.requests.length > 0 ? a.contexts.eviction.map((r) => r.item) : session.items;
  const byId = new Map(items.map((i) => [i.id, i]));
  const known = new Set(byId.keys());
  const extra: Item[] = [];
  const variants = new Map<string, Item>();
  const tokens = new Map<string, number>();
  const tok = (it: Item) => {
    let t = tokens.get(it.id);
    if (t === undefined) tokens.set(it.id, (t = opts.count(it.text)));
    return t;
  };
  for (const it of items) tok(it);
  const addExtra = (it: Item) => {
    if (known.has(it.id)) return;
    known.add(it.id);
    extra.push(it);
  };
  for (const it of session.items) addExtra(it);

  // A replayed transcript: spans, and each call's entries read from them when asked for.
  const timeline = a.contexts.timeline;
  const spans: ViewSpan[] | null = timeline
    ? timeline.spans.map((sp) => {
        const original = byId.get(sp.item.id) ?? sp.item;
        const variant = original !== sp.item && original.text !== sp.item.text;
        if (variant) variants.set(sp.item.id, sp.item);
        addExtra(sp.item);
        return { id: sp.item.id, variant, from: sp.from, to: sp.to, order: sp.order, tokens: variant ? opts.count(sp.item.text) : tok(original) };
      })
    : null;
  const outputs = a.contexts.calls.map((c) => ({ outputIds: c.output.map((o) => o.id) }));
  const viewTimeline = spans ? new ViewTimeline({ calls: outputs, spans, itemById: (id) => byId.get(id), variants }) : null;
  const fromSpans = spans ? bandsFromSpans(spans, outputs, (v) => (v.variant ? variants.get(v.id) : undefined) ?? byId.get(v.id)!) : null;

  // Where the fitted ratio moves, the reason: calls are fitted apart when the model or the recorded tools change.
  let runStart = 0;
  let why: string | null = null;
  const segmentOf = (ci: number): CallSegment => {
    const cal = a.calibration.calls[ci]!;
    const prev = ci > 0 ? a.contexts.calls[ci - 1]! : null;
    if (prev && a.calibration.calls[ci - 1]!.segment !== cal.segment) {
      const call = a.contexts.calls[ci]!;
      runStart = ci;
      why = prev.model !== call.model ? `the model switched from ${prev.model ?? 'an unnamed model'} to ${call.model ?? 'an unnamed model'}` : 'the tool list changed';
    }
    return { index: cal.segment, since: runStart + 1, why };
  };

  // Bands are counted with our tokenizer; each call's calibration (calibration.ts) puts them in the provider's
  // tokens, so they add up to the call's calibrated context on every surface.
  const calls: CallView[] = a.contexts.calls.map((call, ci) => {
    const stored = fromSpans ? null : storedEntries(call, ci);
    const bands: CallBands = fromSpans ? { ...fromSpans[ci]!.bands } : { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    const counts: CallBands = fromSpans ? { ...fromSpans[ci]!.items } : { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    for (const e of stored ?? []) {
      const role = (variants.get(e.id) ?? byId.get(e.id))?.role;
      const band = role === 'system' || role === 'developer' ? 'system' : e.isNew && e.region !== 'summary' ? 'newInput' : e.region;
      bands[band] += e.tokens;
      counts[band]++;
    }
    for (const o of call.output) bands.output += tok(o);
    const cal = a.calibration.calls[ci]!;
    bands.tools = call.tools ? opts.count(call.tools) : 0;
    bands.output = Math.round(bands.output * cal.scale);
    // A recorded item keeps one size on every call of its segment: what we count, times the segment's fitted scale,
    // plus its framing tokens — the ratio the context view states. The unrecorded prefix (system prompt, tools) is
    // the calibration's one figure (unrecordedPrefix). What the reported prompt holds beyond that prefix and the
    // recorded items at their size is this call's unaccounted part (signed: the fit's error at this call, or what
    // the harness sent or cut without recording it); the tools band stacks the two, so the bands add up.
    const prefix = unrecordedPrefix(call, cal) ?? 0;
    const fitted = (k: (typeof INPUT_BANDS)[number]) => Math.round(bands[k] * cal.scale + cal.perItem * counts[k]);
    const sized = INPUT_BANDS.reduce((n, k) => n + fitted(k), 0);
    let unaccounted = 0;
    if (call.prefixUnrecorded && cal.contextTokens - sized >= 0) {
      for (const k of INPUT_BANDS) bands[k] = fitted(k);
      unaccounted = cal.contextTokens - sized - prefix;
      bands.tools += prefix + unaccounted;
    } else {
      // The whole prompt is recorded (or the fit overshoots this call): the items share what the prompt holds.
      const counted = a.counted.tokens[ci]!;
      const recorded = Math.max(0, cal.contextTokens - prefix);
      const f = counted > 0 ? recorded / counted : 1;
      for (const k of INPUT_BANDS) bands[k] = Math.round(bands[k] * f);
      bands.tools += prefix;
    }
    // Whole tokens that add up to the calibrated context: the rounding remainder goes to the largest band.
    const rest = cal.contextTokens - INPUT_BANDS.reduce((n, k) => n + bands[k], 0);
    if (rest !== 0) {
      // Not the unrecorded prefix's band when an item band can take it: the prefix stays the calibration's figure.
      const takers = call.prefixUnrecorded && INPUT_BANDS.some((k) => k !== 'tools' && bands[k] > 0) ? INPUT_BANDS.filter((k) => k !== 'tools') : INPUT_BANDS;
      const largest = takers.reduce((a, k) => (bands[k] > bands[a] ? k : a), takers[0]!);
      bands[largest] = Math.max(0, bands[largest] + rest);
    }
    const view: CallView = {
      index: ci,
      id: call.id,
      entries: stored ?? [],
      outputIds: outputs[ci]!.outputIds,
      usage: call.usage,
      timestamp: call.timestamp ?? null,
      model: call.model,
      prefixUnrecorded: call.prefixUnrecorded,
      compactionId: call.compactionId,
      recorded: call.recorded,
      contextTokens: cal.contextTokens,
      unrecordedPrefixTokens: call.prefixUnrecorded ? unrecordedPrefix(call, cal) : 0,
      unaccountedTokens: unaccounted,
      reportedPrompt: cal.reportedPrompt,
      bands,
      scale: cal.scale,
      perItem: cal.perItem,
      segment: segmentOf(ci),
    };
    if (viewTimeline) Object.defineProperty(view, 'entries', { get: () => viewTimeline.entriesAt(ci), enumerable: true, configurable: true });
    return view;
  });

  /** A request log's call: its own list, stored with the call. */
  function storedEntries(call: (typeof a.contexts.calls)[number], ci: number): CallEntryView[] {
    const prev = ci > 0 ? a.contexts.calls[ci - 1]! : null;
    const seenBefore = new Set(prev ? [...prev.entries.map((e) => e.item.id), ...prev.output.map((o) => o.id)] : []);
    return call.entries.map((e): CallEntryView => {
      const original = byId.get(e.item.id) ?? e.item;
      const variant = original !== e.item && original.text !== e.item.text;
      if (variant) variants.set(e.item.id, e.item);
      addExtra(e.item);
      const t = variant ? opts.count(e.item.text) : tok(original);
      return { id: e.item.id, region: e.region, tokens: t, variant, isNew: !seenBefore.has(e.item.id) && ci > 0 };
    });
  }

  const removedBy = new Map<string, string>();
  for (const [id, r] of a.contexts.removals) if (r.compactionId !== null) removedBy.set(id, r.compactionId);
  const ghosts = opts.ghosts === false ? [] : calls.map((call, ci) => {
    const present = new Set(call.entries.map((e) => e.id));
    return a.contexts.eviction
      .filter((row) => {
        const l = labelAt(row.runs, ci);
        return l !== null && l !== 'verbatim' && l !== 'masked' && !present.has(row.item.id);
      })
      .map((row) => ({ id: row.item.id, label: labelAt(row.runs, ci) as GhostView['label'], tokens: tok(row.item), compactionId: a.contexts.removals.get(row.item.id)?.compactionId ?? null }));
  });

  const ctxWindow = contextWindowOf(session);
  return {
    sessionId: session.id,
    rule,
    items: [...items, ...extra],
    variants,
    tokens,
    calls,
    ghosts,
    removedBy,
    compactions: a.compactions,
    eviction: a.contexts.eviction.map((r) => ({ itemId: r.item.id, runs: r.runs })),
    spans,
    cache: a.cache,
    audits: a.audits,
    lints: a.lints,
    lintCandidates: a.lintCandidates,
    format: session.format,
    refetch: a.refetch,
    pending: [...(opts.defer ?? [])],
    facts: a.facts,
    peakContextTokens: a.facts.peakContextTokens,
    contextWindow: ctxWindow.tokens,
    ...(ctxWindow.overruled !== null ? { contextWindowOverruled: ctxWindow.overruled } : {}),
  };
}

/** `count` asked once per distinct text (a text is one string, hashed once by the engine and then looked up). */
function memoized(count: (text: string) => number): (text: string) => number {
  const seen = new Map<string, number>();
  return (text) => {
    let n = seen.get(text);
    if (n === undefined) seen.set(text, (n = count(text)));
    return n;
  };
}
