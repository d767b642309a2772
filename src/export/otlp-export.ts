// Our analysis as OpenTelemetry spans, in OTLP's JSON encoding (an ExportTraceServiceRequest, one line, as the
// collector's file exporter writes it), so findings reach the tools teams already watch (Jaeger, Tempo, Phoenix,
// Langfuse). One trace per session:
//  - a root span `invoke_agent <format>` carrying the session's facts;
//  - a span per model call, `chat <model>`, with the GenAI semantic conventions' attributes (model, reported usage
//    with the cache inside the input count, the messages it was sent and returned) and our figures: context tokens
//    by region, the cache verdict and its cause, miss tokens and cost;
//  - a span per compaction, `compaction_inspector.compaction`, just before the call it precedes: tokens before and
//    after, what the summary kept, lost and invented, what later turns needed or fetched again, the re-fetch tax.
// Names follow the GenAI conventions where a name exists and use `compaction_inspector.*` where none does. Every
// figure is read from the analysis view (analysis-view.ts → analyze-session.ts), the engine module the CLI's JSON,
// the app's panels and the HTML report read: one number, one source. Reading it back (formats/otlp.ts) gives the same
// calls, usage and compactions.
import type { AnalysisView, CallView } from '../analysis/analysis-view';
import { auditCount, type ShownAudit } from '../audit/trim-audit';
import type { CacheReport } from '../cache';
import { COMPACTION_ATTR, SESSION_TITLE } from '../formats/otlp';
import { ITEM_KIND_PROPERTY } from '../formats/otlp-messages';
import { CACHE_WRITE_1H, CACHE_WRITE_5M } from '../formats/otlp-usage';
import type { Item, Session } from '../model/types';
import type { ResolvedCompaction } from '../analysis/session-facts';

/** An OTLP AnyValue key-value, as the JSON encoding writes it. */
export interface OtlpKeyValue {
  key: string;
  value: { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
}

export interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  status: Record<string, never>;
}

export interface OtlpTraceJson {
  resourceSpans: { resource: { attributes: OtlpKeyValue[] }; scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpanJson[] }[] }[];
}

export interface OtlpExportOptions {
  /** The exporting program's version (the CLI's package version). */
  version?: string;
  /** Used for calls without a timestamp (ms since the epoch); the time of export by default. */
  now?: number;
  /** Write the messages each call was sent and returned (`gen_ai.input.messages` / `output.messages`); default true. */
  content?: boolean;
}

export interface OtlpSessionInput {
  session: Session;
  /** The finished analysis of the session (no part pending). */
  view: AnalysisView;
}

const NS = 'compaction_inspector';
const SPAN_KIND = { internal: 1, client: 3 } as const;

/** Typed attributes; null and undefined values are left out. */
class Attrs {
  readonly list: OtlpKeyValue[] = [];
  str(key: string, v: string | null | undefined): this {
    if (v !== null && v !== undefined) this.list.push({ key, value: { stringValue: v } });
    return this;
  }
  int(key: string, v: number | null | undefined): this {
    if (v !== null && v !== undefined && Number.isFinite(v)) this.list.push({ key, value: { intValue: String(Math.round(v)) } });
    return this;
  }
  dbl(key: string, v: number | null | undefined): this {
    if (v !== null && v !== undefined && Number.isFinite(v)) this.list.push({ key, value: { doubleValue: v } });
    return this;
  }
  bool(key: string, v: boolean | null | undefined): this {
    if (v !== null && v !== undefined) this.list.push({ key, value: { boolValue: v } });
    return this;
  }
}

/** 64 bits of FNV-1a over a string, as 16 hex digits: stable ids, so an export of the same analysis is the same file. */
function hash64(s: string, seed: number): string {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x01000193 ^ (seed * 31);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  const hex = h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
  return /^0+$/.test(hex) ? '0000000000000001' : hex;
}

const spanId = (sessionId: string, what: string) => hash64(`${sessionId}\u0000${what}`, 7);
const traceId = (sessionId: string) => hash64(sessionId, 1) + hash64(sessionId, 2);

/** Each call's start in nanoseconds: its timestamp, kept strictly increasing so the calls' order survives a reader. */
function callStarts(calls: readonly CallView[], now: number): bigint[] {
  const out: bigint[] = [];
  let last = -1n;
  const fallback = BigInt(Math.round(now)) * 1_000_000n;
  for (const c of calls) {
    const ms = c.timestamp ? Date.parse(c.timestamp) : NaN;
    let t = Number.isFinite(ms) ? BigInt(ms) * 1_000_000n : last >= 0n ? last : fallback;
    // Two spans per step apart: a compaction span sits between a call and the one before it.
    if (t <= last + 1n) t = last + 2n;
    out.push(t);
    last = t;
  }
  return out;
}

/** GenAI message parts of the items a call was sent or returned: consecutive items of one role form a message. */
function messagesOf(items: readonly Item[]): unknown[] {
  const messages: { role: string; parts: Record<string, unknown>[] }[] = [];
  for (const it of items) {
    const role = it.kind === 'tool_result' ? 'tool' : it.role === 'developer' ? 'system' : it.role === 'environment' ? 'user' : it.role;
    const part: Record<string, unknown> =
      it.kind === 'tool_call'
        ? { type: 'tool_call', ...(it.callId ? { id: it.callId } : {}), name: it.name ?? '', arguments: it.text }
        : it.kind === 'tool_result'
          ? { type: 'tool_call_response', ...(it.callId ? { id: it.callId } : {}), response: it.text }
          : it.kind === 'thinking'
            ? { type: 'reasoning', content: it.text }
            : { type: 'text', content: it.text, ...(it.kind !== 'message' ? { [ITEM_KIND_PROPERTY]: it.kind } : {}) };
    const last = messages.at(-1);
    if (last && last.role === role) last.parts.push(part);
    else messages.push({ role, parts: [part] });
  }
  return messages;
}

/** The provider as the GenAI conventions name it, from the cache rule the analysis applied to the call. */
function providerName(report: CacheReport | undefined): string | null {
  const rule = report?.rule;
  return rule === 'anthropic' || rule === 'openai' || rule === 'deepseek' ? rule : null;
}

function callSpan(view: AnalysisView, session: Session, ci: number, ids: { trace: string; root: string }, start: bigint, content: boolean): OtlpSpanJson {
  const call = view.calls[ci]!;
  const report = view.cache[ci];
  const byId = itemIndex(view);
  const sent = call.entries.map((e) => (e.variant ? view.variants.get(e.id) : undefined) ?? byId.get(e.id)).filter((x): x is Item => x !== undefined);
  const returned = call.outputIds.map((id) => byId.get(id)).filter((x): x is Item => x !== undefined);
  const u = call.usage;
  const a = new Attrs()
    .str('gen_ai.operation.name', 'chat')
    .str('gen_ai.provider.name', providerName(report))
    .str('gen_ai.request.model', call.model)
    .str('gen_ai.conversation.id', session.id)
    // The conventions' input count holds the cache read and write: the whole prompt as reported.
    .int('gen_ai.usage.input_tokens', call.reportedPrompt)
    .int('gen_ai.usage.output_tokens', u?.output)
    .int('gen_ai.usage.cache_read.input_tokens', u?.cacheRead)
    .int('gen_ai.usage.cache_creation.input_tokens', u?.cacheWrite)
    .int(CACHE_WRITE_5M, u?.cacheWrite5m)
    .int(CACHE_WRITE_1H, u?.cacheWrite1h);
  if (content) a.str('gen_ai.input.messages', JSON.stringify(messagesOf(sent))).str('gen_ai.output.messages', JSON.stringify(messagesOf(returned)));
  a.int(`${NS}.call.number`, ci + 1)
    .int(`${NS}.context.tokens`, call.contextTokens)
    .str(`${NS}.context.source`, call.reportedPrompt !== null ? 'reported' : 'estimated')
    .int(`${NS}.context.unrecorded_prefix_tokens`, call.unrecordedPrefixTokens)
    .int(`${NS}.context.unaccounted_tokens`, call.prefixUnrecorded ? call.unaccountedTokens : null);
  for (const [region, tokens] of Object.entries(call.bands)) a.int(`${NS}.context.region.${region === 'newInput' ? 'new_input' : region}.tokens`, tokens);
  if (report) {
    a.str(`${NS}.cache.verdict`, report.cacheBreak ? 'break' : 'held')
      .str(`${NS}.cache.cause`, report.cause)
      .bool(`${NS}.cache.reported_miss`, report.reportedMiss)
      .bool(`${NS}.cache.predicted_break`, report.predictedBreak)
      .int(`${NS}.cache.predicted_cached_tokens`, report.cachedPredicted)
      .int(`${NS}.cache.miss_tokens`, report.missTokens)
      .dbl(`${NS}.cache.miss_cost_usd`, report.missCostUsd)
      .int(`${NS}.cache.ttl_ms`, report.ttlMs)
      .str(`${NS}.cache.diagnostic`, report.diagnostic);
  }
  const compaction = call.compactionId ? view.compactions.find((c) => c.id === call.compactionId) : undefined;
  if (compaction) a.int(`${NS}.call.after_compaction`, compaction.index);
  return {
    traceId: ids.trace,
    spanId: spanId(session.id, `call/${ci}`),
    parentSpanId: ids.root,
    name: call.model ? `chat ${call.model}` : 'chat',
    kind: SPAN_KIND.client,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start),
    attributes: a.list,
    status: {},
  };
}

const itemIndexes = new WeakMap<AnalysisView, Map<string, Item>>();
function itemIndex(view: AnalysisView): Map<string, Item> {
  let m = itemIndexes.get(view);
  if (!m) itemIndexes.set(view, (m = new Map(view.items.map((i) => [i.id, i]))));
  return m;
}

/** Audit figures an audit carries beyond the counted lists, where the engine reports them (survival by kind, re-fetched). */
type AuditExtras = ShownAudit & { lostRefetchedLater?: readonly unknown[]; survival?: Record<string, { evicted: number; kept: number }> };

function compactionSpan(view: AnalysisView, session: Session, c: ResolvedCompaction, ids: { trace: string; root: string }, at: bigint): OtlpSpanJson {
  const audit = view.audits.find((x) => x.compaction === c.index) as AuditExtras | undefined;
  const refetch = view.refetch.find((x) => x.compaction === c.index);
  const a = new Attrs()
    .str('gen_ai.conversation.id', session.id)
    .int(`${NS}.compaction.index`, c.index)
    .str(COMPACTION_ATTR.kind, c.kind)
    .str(COMPACTION_ATTR.trigger, c.trigger)
    .int(`${NS}.compaction.call`, c.call)
    .int(COMPACTION_ATTR.tokensBefore, c.tokensBefore)
    .int(COMPACTION_ATTR.tokensAfter, c.tokensAfter)
    .str(`${NS}.compaction.tokens_before_source`, c.tokensBeforeSource)
    .str(`${NS}.compaction.tokens_after_source`, c.tokensAfterSource)
    .bool(COMPACTION_ATTR.opaque, c.opaque === true)
    .int(`${NS}.compaction.replaced_items`, c.replacedIds.length)
    .int(`${NS}.compaction.kept_items`, c.keptIds.length);
  if (audit) {
    a.int(`${NS}.audit.kept`, auditCount(audit, 'kept'))
      .int(`${NS}.audit.lost`, auditCount(audit, 'lost'))
      .int(`${NS}.audit.invented`, auditCount(audit, 'invented'))
      .int(`${NS}.audit.lost_needed`, auditCount(audit, 'lostReferencedLater'))
      .int(`${NS}.audit.instruction_like`, auditCount(audit, 'instructionLike'));
    if (audit.lostRefetchedLater) a.int(`${NS}.audit.lost_refetched`, audit.lostRefetchedLater.length);
    for (const [kind, s] of Object.entries(audit.survival ?? {})) a.int(`${NS}.survival.${kind}.evicted`, s.evicted).int(`${NS}.survival.${kind}.kept`, s.kept);
  }
  if (refetch) {
    a.int(`${NS}.refetch.count`, refetch.refetches.length).int(`${NS}.refetch.tokens`, refetch.refetchTokens).int(`${NS}.refetch.rereads_after_change`, refetch.changedRereads.length);
  }
  return {
    traceId: ids.trace,
    spanId: spanId(session.id, `compaction/${c.index}`),
    parentSpanId: ids.root,
    name: `${NS}.compaction`,
    kind: SPAN_KIND.internal,
    startTimeUnixNano: String(at),
    endTimeUnixNano: String(at),
    attributes: a.list,
    status: {},
  };
}

function rootSpan(view: AnalysisView, session: Session, ids: { trace: string; root: string }, start: bigint, end: bigint): OtlpSpanJson {
  const f = view.facts;
  const a = new Attrs()
    .str('gen_ai.operation.name', 'invoke_agent')
    .str('gen_ai.agent.name', session.format)
    .str('gen_ai.conversation.id', session.id)
    .str('gen_ai.request.model', session.model)
    .str(`${NS}.session.format`, session.format)
    .str(SESSION_TITLE, session.title)
    .int(`${NS}.session.calls`, f.calls)
    .int(`${NS}.session.items`, f.items)
    .int(`${NS}.session.tool_calls`, f.toolCalls)
    .int(`${NS}.session.compactions.recorded`, f.compactions.recorded)
    .int(`${NS}.session.compactions.inferred`, f.compactions.inferred)
    .int(`${NS}.session.peak_context_tokens`, f.peakContextTokens)
    .int(`${NS}.session.peak_call`, f.peakCall)
    .str(`${NS}.session.peak_source`, f.peakSource)
    .dbl(`${NS}.session.peak_uncertainty`, f.peakUncertainty)
    .int(`${NS}.session.total_input_tokens`, f.totalInputTokens)
    .int(`${NS}.session.reported_input_tokens`, f.reportedInputTokens)
    .int(`${NS}.session.reported_calls`, f.reportedCalls)
    // The session cost at the reported usage (session-cost.ts), with the responses billed off the timeline.
    .dbl(`${NS}.session.cost_usd`, f.cost.usd)
    .int(`${NS}.session.off_branch.responses`, f.offBranch?.responses ?? null)
    .int(`${NS}.session.off_branch.prompt_tokens`, f.offBranch?.prompt ?? null)
    .int(`${NS}.session.off_branch.output_tokens`, f.offBranch?.output ?? null)
    .str(`${NS}.tokenizer.encoding`, f.tokenizer.encoding)
    .dbl(`${NS}.tokenizer.scale`, f.tokenizer.scale)
    .int(`${NS}.tokenizer.prefix_tokens`, f.tokenizer.prefixTokens)
    .bool(`${NS}.tokenizer.estimated`, f.tokenizer.estimated)
    .dbl(`${NS}.tokenizer.fit_spread`, f.tokenizer.fitSpread);
  const cache = f.cache;
  if (cache) {
    a.dbl(`${NS}.cache.hit_rate`, cache.hitRate)
      .int(`${NS}.cache.breaks`, cache.breaks)
      .int(`${NS}.cache.reported_misses`, cache.reportedMisses)
      .int(`${NS}.cache.predicted_breaks`, cache.predictedBreaks)
      .int(`${NS}.cache.miss_tokens`, cache.missTokens)
      .dbl(`${NS}.cache.miss_cost_usd`, cache.missCostUsd);
    for (const [cause, n] of Object.entries(cache.byCause)) a.int(`${NS}.cache.breaks_by_cause.${cause}`, n);
  }
  return {
    traceId: ids.trace,
    spanId: ids.root,
    name: `invoke_agent ${session.format}`,
    kind: SPAN_KIND.internal,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(end),
    attributes: a.list,
    status: {},
  };
}

/** The spans of one analysed session: the root, its calls and its compactions, in time order. */
export function sessionSpans(input: OtlpSessionInput, opts: OtlpExportOptions = {}): OtlpSpanJson[] {
  const { session, view } = input;
  if (view.pending.length > 0) throw new Error(`the analysis of ${session.id} is not finished (${view.pending.join(', ')} pending)`);
  const ids = { trace: traceId(session.id), root: spanId(session.id, 'root') };
  const starts = callStarts(view.calls, opts.now ?? Date.now());
  const content = opts.content !== false;
  const calls = view.calls.map((_, ci) => callSpan(view, session, ci, ids, starts[ci]!, content));
  const compactions = view.compactions.map((c) => {
    const at = c.call !== null ? starts[c.call - 1]! - 1n : (starts.at(-1) ?? BigInt(Math.round(opts.now ?? Date.now())) * 1_000_000n) + 1n;
    return compactionSpan(view, session, c, ids, at);
  });
  const first = starts[0] ?? BigInt(Math.round(opts.now ?? Date.now())) * 1_000_000n;
  const last = [...starts, ...compactions.map((c) => BigInt(c.startTimeUnixNano))].reduce((m, t) => (t > m ? t : m), first);
  const ordered = [...calls, ...compactions].sort((x, y) => {
    const a = BigInt(x.startTimeUnixNano);
    const b = BigInt(y.startTimeUnixNano);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return [rootSpan(view, session, ids, first - 1n, last), ...ordered];
}

/** One ExportTraceServiceRequest holding every given session's trace. */
export function otlpTraces(inputs: readonly OtlpSessionInput[], opts: OtlpExportOptions = {}): OtlpTraceJson {
  const version = opts.version ?? 'unknown';
  return {
    resourceSpans: [
      {
        resource: { attributes: new Attrs().str('service.name', 'compaction-inspector').str('service.version', version).list },
        scopeSpans: [{ scope: { name: 'compaction-inspector', version }, spans: inputs.flatMap((i) => sessionSpans(i, opts)) }],
      },
    ],
  };
}

/** The file: one line, as the collector's file exporter writes one request per line (so it reads as JSON and JSONL). */
export function otlpText(inputs: readonly OtlpSessionInput[], opts: OtlpExportOptions = {}): string {
  return `${JSON.stringify(otlpTraces(inputs, opts))}\n`;
}
