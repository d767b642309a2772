// OpenTelemetry traces (OTLP JSON) of agents: every LLM span is a model call whose context is the input messages
// it records — the exact prompt, as in a request log — so a compaction shows as what dropped out between calls.
// LLM spans are read under the GenAI semantic conventions (and their older forms, OpenLLMetry's included) and under
// OpenInference (otlp-messages.ts, otlp-usage.ts).
//
// - Calls group into sessions by `gen_ai.conversation.id` or `session.id` (on the span or an ancestor), else by trace,
//   and run in start-time order.
// - An LLM span inside another LLM span is the same call seen by a second instrumentation layer (an agent framework
//   over its provider's SDK): the one that records more (messages, then usage) is kept.
// - A framework span that summarizes, compacts or trims the history (its name or operation says so: LangChain's
//   `SummarizationMiddleware.before_model`, a `trim_messages` runnable) is a compaction before the next call when the
//   summarizer ran inside it or the next call's input left messages out; the summarizer's own LLM calls are its
//   sidechain, not calls of the conversation. Such a hook runs before every call: where it changed nothing, nothing
//   is recorded.
// - Our own export (export/otlp-export.ts) writes `compaction_inspector.compaction.*` spans: read back as the same
//   compactions, so a session exported and imported again keeps its calls, usage and compactions.
import type { Document } from '../load/document';
import { recordsOf } from '../load/document';
import { textItem } from '../model/markers';
import { pairToolCalls } from '../model/pairing';
import type { CompactionEvent, CompactionKind, Item, ItemKind, ModelResponse, RecordedRequest, Role, Session, Sidechain } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { spanMessages, spanTools, ITEM_KIND_PROPERTY, type Message, type MessageProblem } from './otlp-messages';
import { attrNum, attrStr, isoOf, resourceSpansOf, spansOf, type OtlpSpan } from './otlp-spans';
import { spanUsage } from './otlp-usage';
import { ContentIds } from './request-log';

/** Attributes our export writes on a compaction span. */
export const COMPACTION_ATTR = {
  kind: 'compaction_inspector.compaction.kind',
  trigger: 'compaction_inspector.compaction.trigger',
  tokensBefore: 'compaction_inspector.compaction.tokens_before',
  tokensAfter: 'compaction_inspector.compaction.tokens_after',
  opaque: 'compaction_inspector.compaction.opaque',
} as const;

/** The session's title, on the agent span our export writes. */
export const SESSION_TITLE = 'compaction_inspector.session.title';

const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion']);
const KINDS = new Set<CompactionKind>(['compact', 'microcompact', 'replacement', 'condensation', 'summary', 'omission', 'log', 'server', 'inferred']);
const ITEM_KINDS = new Set<ItemKind>(['summary', 'omission', 'handoff', 'compaction']);
const SESSION_KEYS = ['gen_ai.conversation.id', 'session.id'];

function isLlmSpan(s: OtlpSpan): boolean {
  const a = s.attributes;
  const oi = attrStr(a, 'openinference.span.kind');
  if (oi) return oi.toUpperCase() === 'LLM';
  if (a.has(COMPACTION_ATTR.kind)) return false;
  const op = attrStr(a, 'gen_ai.operation.name');
  if (op) return LLM_OPERATIONS.has(op);
  const requestType = attrStr(a, 'llm.request.type');
  if (requestType) return requestType === 'chat' || requestType === 'completion';
  return a.has('gen_ai.input.messages') || a.has('gen_ai.prompt.0.role') || a.has('gen_ai.prompt.0.content');
}

/** A span that records a compaction: ours, or an agent framework's summarizing or trimming step. */
function compactionOf(s: OtlpSpan): { kind: CompactionKind; trigger: string | null; own: boolean } | null {
  const own = attrStr(s.attributes, COMPACTION_ATTR.kind);
  if (own !== null) return { kind: KINDS.has(own as CompactionKind) ? (own as CompactionKind) : 'summary', trigger: attrStr(s.attributes, COMPACTION_ATTR.trigger), own: true };
  if (isLlmSpan(s)) return null;
  const label = `${s.name} ${attrStr(s.attributes, 'gen_ai.operation.name') ?? ''}`;
  if (/summari[sz]|compact|condens/i.test(label)) return { kind: 'summary', trigger: s.name || null, own: false };
  if (/\btrim|truncat/i.test(label)) return { kind: 'condensation', trigger: s.name || null, own: false };
  return null;
}

const ROLES: Record<string, Role> = { system: 'system', developer: 'developer', user: 'user', human: 'user', assistant: 'assistant', ai: 'assistant', model: 'assistant', tool: 'tool', function: 'tool' };

/** The messages of one side of a call as items: one item per part, ids from their position. */
function itemsOf(messages: Message[], base: string, source: Item['source'], timestamp: string | undefined): Item[] {
  const ts = timestamp ? { timestamp } : {};
  const out: Item[] = [];
  messages.forEach((m, i) => {
    const role = ROLES[m.role.toLowerCase()] ?? 'user';
    m.parts.forEach((p, j) => {
      const id = `${base}${i}.${j}`;
      if (p.type === 'text') {
        const item = textItem({ id, role, source, ...ts }, p.text);
        if (p.kind && ITEM_KINDS.has(p.kind as ItemKind)) item.kind = p.kind as ItemKind;
        out.push(item);
      } else if (p.type === 'reasoning') out.push({ id, kind: 'thinking', role: 'assistant', text: p.text, source, ...ts });
      else if (p.type === 'tool_call') out.push({ id, kind: 'tool_call', role: 'assistant', text: p.arguments, ...(p.name ? { name: p.name } : {}), ...(p.id ? { callId: p.id } : {}), source, ...ts });
      else out.push({ id, kind: 'tool_result', role: 'tool', text: p.text, ...(p.name ? { name: p.name } : {}), ...(p.id ? { callId: p.id } : {}), source, ...ts });
    });
  });
  return out;
}

function apiOf(s: OtlpSpan, model: string | null): RecordedRequest['api'] {
  const a = s.attributes;
  const provider = attrStr(a, 'gen_ai.provider.name') ?? attrStr(a, 'gen_ai.system') ?? attrStr(a, 'llm.provider') ?? attrStr(a, 'llm.system') ?? '';
  return /anthropic/i.test(provider) || /claude/i.test(model ?? '') ? 'anthropic' : 'openai-chat';
}

interface Call {
  span: OtlpSpan;
  order: number;
}

interface CompactionSpan {
  span: OtlpSpan;
  kind: CompactionKind;
  trigger: string | null;
  own: boolean;
  /** The summarizer's calls inside it. */
  summarizer: Call[];
}

const key = (traceId: string, spanId: string) => `${traceId}/${spanId}`;

export const otlp: FormatAdapter = {
  id: 'otlp',
  label: 'OpenTelemetry trace (OTLP JSON)',
  sniff(doc: Document) {
    const sample = recordsOf(doc).slice(0, 20);
    if (sample.length === 0) return 0;
    const ok = sample.filter((r) => resourceSpansOf(r.value) !== undefined).length;
    return ok / sample.length >= 0.8 ? 0.95 : 0;
  },
  parse(doc, ctx) {
    const spans = spansOf(doc, ctx);
    const byKey = new Map(spans.map((s) => [key(s.traceId, s.spanId), s]));
    const parentOf = (s: OtlpSpan) => (s.parentSpanId ? (byKey.get(key(s.traceId, s.parentSpanId)) ?? null) : null);
    const ancestors = (s: OtlpSpan): OtlpSpan[] => {
      const out: OtlpSpan[] = [];
      const seen = new Set<OtlpSpan>([s]);
      for (let p = parentOf(s); p && !seen.has(p); p = parentOf(p)) {
        seen.add(p);
        out.push(p);
      }
      return out;
    };
    const problemsOf = new Map<OtlpSpan, MessageProblem[]>();
    const messagesOf = (s: OtlpSpan) => {
      const problems: MessageProblem[] = [];
      const m = spanMessages(s, problems);
      problemsOf.set(s, problems);
      return m;
    };
    const skipped: Record<string, number> = {};
    const skip = (what: string) => (skipped[what] = (skipped[what] ?? 0) + 1);

    // Sessions: by conversation id (the span's or an ancestor's), else by trace.
    const sessionKey = (s: OtlpSpan): string => {
      for (const x of [s, ...ancestors(s)]) for (const k of SESSION_KEYS) {
        const v = attrStr(x.attributes, k);
        if (v) return `id:${v}`;
      }
      return `trace:${s.traceId}`;
    };
    // Which spans are calls, which are compactions, and which LLM spans are a second layer over the same call.
    const compactions = new Map<OtlpSpan, CompactionSpan>();
    for (const s of spans) {
      const c = compactionOf(s);
      if (c) compactions.set(s, { span: s, ...c, summarizer: [] });
    }
    const llm = spans.map((s, order) => ({ span: s, order })).filter((c) => isLlmSpan(c.span));
    const llmSet = new Set(llm.map((c) => c.span));
    const richness = (s: OtlpSpan) => {
      const m = messagesOf(s);
      return (m.input.length > 0 ? 2 : 0) + (spanUsage(s.attributes) ? 1 : 0);
    };
    const best = new Map<OtlpSpan, Call>(); // outermost LLM span → the call kept for it
    for (const c of llm) {
      const outer = [...ancestors(c.span)].reverse().find((a) => llmSet.has(a)) ?? c.span;
      const held = best.get(outer);
      if (!held) best.set(outer, c);
      else {
        skip('LLM spans nested in another (the same call, another instrumentation layer)');
        if (richness(c.span) > richness(held.span)) best.set(outer, c);
      }
    }
    // A summarizing span that holds every call after it (an app whose job is summarizing) compacts no conversation:
    // a compaction comes before a call of the conversation that is outside it.
    const kept = [...best.values()];
    for (const [s, c] of compactions) {
      if (c.own) continue;
      const key = sessionKey(s);
      const followed = kept.some((k) => k.span.startNs >= s.startNs && !ancestors(k.span).includes(s) && sessionKey(k.span) === key);
      if (!followed) compactions.delete(s);
    }
    const calls: Call[] = [];
    for (const c of kept.sort((a, b) => a.order - b.order)) {
      const inside = ancestors(c.span).map((a) => compactions.get(a)).find((x) => x !== undefined);
      if (inside) inside.summarizer.push(c);
      else calls.push(c);
    }
    for (const s of spans) {
      if (llmSet.has(s) || compactions.has(s)) continue;
      const a = s.attributes;
      skip(`${attrStr(a, 'gen_ai.operation.name') ?? attrStr(a, 'openinference.span.kind')?.toLowerCase() ?? attrStr(a, 'traceloop.span.kind') ?? 'other'} spans`);
    }

    const groups = new Map<string, { calls: Call[]; compactions: CompactionSpan[] }>();
    const groupFor = (k: string) => {
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { calls: [], compactions: [] }));
      return g;
    };
    for (const c of calls) groupFor(sessionKey(c.span)).calls.push(c);
    for (const c of compactions.values()) groupFor(sessionKey(c.span)).compactions.push(c);

    let warnedNoContent = false;
    const sessions: Session[] = [];
    for (const [gk, g] of groups) {
      if (g.calls.length === 0 && g.compactions.every((c) => !c.own)) continue;
      const session = emptySession('otlp', ctx.file, gk.startsWith('id:') ? gk.slice(3) : idFromFile(ctx.file));
      session.skipped = skipped;
      const ids = new ContentIds();
      const conventions = new Set<string>();
      g.calls.sort((a, b) => (a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : a.order - b.order));
      g.calls.forEach((c, index) => {
        const s = c.span;
        const source = { file: ctx.file, line: s.line };
        const timestamp = isoOf(s.startNs);
        const ts = timestamp ? { timestamp } : {};
        const m = messagesOf(s);
        for (const p of problemsOf.get(s) ?? []) ctx.error({ ...(s.line !== null ? { line: s.line } : {}), path: s.attributePath(p.key) }, p.message);
        if (m.convention) conventions.add(m.convention);
        else if (!warnedNoContent) {
          warnedNoContent = true;
          ctx.warn({ ...(s.line !== null ? { line: s.line } : {}), path: [...s.path, 'attributes'] }, 'an LLM span records no messages (content capture is off: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or OpenInference without hide_inputs); its usage is read, but what it was sent is unknown');
        }
        if (attrStr(s.attributes, 'openinference.span.kind')) conventions.add('openinference');
        const base = `c${index}.`;
        const counts = new Map<string, number>();
        const input = ids.canonical(itemsOf(m.input, `${base}i`, source, timestamp), counts, base, {});
        const responseId = attrStr(s.attributes, 'gen_ai.response.id') ?? `${s.spanId}.response`;
        const output = ids.canonical(itemsOf(m.output, `${base}o`, source, timestamp), counts, base, { responseId, ...ts });
        pairToolCalls(input);
        const model = attrStr(s.attributes, 'gen_ai.response.model') ?? attrStr(s.attributes, 'gen_ai.request.model') ?? attrStr(s.attributes, 'llm.model_name');
        const usage = spanUsage(s.attributes);
        const tools = spanTools(s.attributes);
        const hasSystem = input.some((it) => it.role === 'system' || it.role === 'developer');
        const usesTools = [...input, ...output].some((it) => it.kind === 'tool_call');
        const request: RecordedRequest = { id: s.spanId, index, ...ts, model, api: apiOf(s, model), items: input, tools, output, usage, source, prefixUnrecorded: !hasSystem || (tools === null && usesTools) };
        session.requests.push(request);
        if (output.length > 0 || usage) {
          const response: ModelResponse = { id: responseId, index: session.responses.length, itemIds: output.map((it) => it.id), usage, model, ...ts, source };
          session.responses.push(response);
        }
      });
      session.items = ids.firstSeen;
      session.model = session.requests[0]?.model ?? null;
      addCompactions(session, g.calls.map((c) => c.span.startNs), g.compactions, ctx, messagesOf);
      // A trace this app wrote names its session on the agent span: the title comes back with it.
      const agent = spans.find((x) => attrStr(x.attributes, 'gen_ai.operation.name') === 'invoke_agent' && sessionKey(x) === gk && attrStr(x.attributes, SESSION_TITLE));
      if (agent) session.title = attrStr(agent.attributes, SESSION_TITLE)!;
      session.meta['convention'] = [...conventions].sort().join('+') || 'none';
      const service = g.calls[0] ? attrStr(g.calls[0].span.resource, 'service.name') : null;
      if (service) session.meta['service'] = service;
      sessions.push(session);
    }
    if (sessions.length === 0) {
      ctx.warn({}, 'no LLM spans in this trace: nothing here is a model call (expected spans with gen_ai.operation.name "chat" or openinference.span.kind "LLM")');
      const empty = emptySession('otlp', ctx.file, idFromFile(ctx.file));
      empty.skipped = skipped;
      return [empty];
    }
    const files = sessions.map((s) => s.id);
    if (new Set(files).size < files.length) sessions.forEach((s, i) => (s.id = `${s.id}#${i + 1}`));
    return sessions;
  },
};

/**
 * Each compaction span becomes an event before the first call that starts at or after it (the call whose input
 * shows it). A framework hook that neither ran a summarizer nor left messages out changed nothing: no event.
 */
function addCompactions(session: Session, starts: readonly bigint[], spans: CompactionSpan[], ctx: ParseContext, messagesOf: (s: OtlpSpan) => { output: Message[] }): void {
  const reqs = session.requests;
  spans.sort((a, b) => (a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : 0));
  for (const c of spans) {
    const next = starts.findIndex((t) => t >= c.span.startNs);
    const nextReq = next >= 0 ? reqs[next]! : null;
    const prevReq = next > 0 ? reqs[next - 1]! : next < 0 ? (reqs.at(-1) ?? null) : null;
    const dropped = !!(nextReq && prevReq && prevReq.items.some((it) => !nextReq.items.includes(it)));
    if (!c.own && c.summarizer.length === 0 && !dropped) {
      session.skipped['compaction hooks that changed nothing'] = (session.skipped['compaction hooks that changed nothing'] ?? 0) + 1;
      continue;
    }
    const id = `otlp-compaction-${session.compactions.length + 1}`;
    const timestamp = isoOf(c.span.startNs);
    const event: CompactionEvent = {
      id,
      index: session.compactions.length,
      kind: c.kind,
      trigger: c.trigger,
      tokensBefore: c.own ? attrNum(c.span.attributes, COMPACTION_ATTR.tokensBefore) : null,
      tokensAfter: c.own ? attrNum(c.span.attributes, COMPACTION_ATTR.tokensAfter) : null,
      replacedIds: [],
      keptIds: [],
      summaryId: null,
      atItemId: null,
      ...(timestamp ? { timestamp } : {}),
      source: { file: ctx.file, line: c.span.line },
      ...(nextReq ? { requestId: nextReq.id } : {}),
      ...(c.own && c.span.attributes.get(COMPACTION_ATTR.opaque) === true ? { opaque: true } : {}),
    };
    // The summarizer's reply is the summary: the new item of the next call that carries it.
    const summaryText = c.summarizer
      .flatMap((s) => messagesOf(s.span).output.flatMap((m) => m.parts))
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('\n')
      .trim();
    if (summaryText && nextReq) {
      const before = new Set(prevReq?.items ?? []);
      const probe = summaryText.slice(0, 200);
      const carrier = nextReq.items.find((it) => !before.has(it) && it.kind !== 'tool_call' && it.text.includes(probe));
      if (carrier) {
        if (carrier.kind === 'message') carrier.kind = 'summary';
        event.summaryId = carrier.id;
        event.atItemId = carrier.id;
      }
    }
    session.compactions.push(event);
    if (c.summarizer.length > 0) session.sidechains.push(summarizerSidechain(c, id, ctx, messagesOf));
  }
}

function summarizerSidechain(c: CompactionSpan, compactionId: string, ctx: ParseContext, messagesOf: (s: OtlpSpan) => { output: Message[] }): Sidechain {
  const items: Item[] = [];
  const responses: ModelResponse[] = [];
  c.summarizer.forEach((call, k) => {
    const s = call.span;
    const source = { file: ctx.file, line: s.line };
    const m = spanMessages(s, []);
    const timestamp = isoOf(s.startNs);
    const input = itemsOf(m.input, `${compactionId}.s${k}.i`, source, timestamp);
    const output = itemsOf(messagesOf(s).output, `${compactionId}.s${k}.o`, source, timestamp);
    items.push(...input, ...output);
    responses.push({ id: `${s.spanId}.response`, index: k, itemIds: output.map((it) => it.id), usage: spanUsage(s.attributes), model: attrStr(s.attributes, 'gen_ai.request.model') ?? attrStr(s.attributes, 'llm.model_name'), source, ...(timestamp ? { timestamp } : {}) });
  });
  return { id: `${compactionId}.summarizer`, purpose: 'compaction', file: ctx.file, items, compactionId, responses };
}
