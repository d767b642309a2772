// Inspect AI eval logs: a `.json` log `{version, status, eval, plan, results, stats, samples: […]}`, a `.eval` zip
// (read into the same value by src/load/eval-archive.ts), or one unzipped `samples/<id>_epoch_<n>.json`.
//
// Each sample is a session. Its `events` hold one `model` event per call, `{model, input: [ChatMessage…], tools,
// output: {choices: [{message}], usage: {input_tokens, output_tokens, input_tokens_cache_read,
// input_tokens_cache_write}}}`: the input is the call's whole context, so calls are recorded requests. Recent
// Inspect pools inputs (`input: []`, `input_refs: [[start, end), …]` into `events_data.messages`) and moves long
// texts to `attachments` (`attachment://<hash>`); both are resolved here. A `compaction` event `{type: summary|
// edit|trim, tokens_before, tokens_after, source, metadata.strategy}` is recorded before the next call; the
// summarizer's own model call becomes a sidechain of it. Model calls made while scoring are not the agent's; a
// sub-agent's (an `agent` span inside another agent or a tool: handoffs, agents as tools) are a sidechain.
import type { Document } from '../load/document';
import { arr, asText, get, isObject, num, numAt, obj, str, strAt, type JsonObject } from '../model/narrow';
import { pairToolCalls } from '../model/pairing';
import type { CompactionEvent, CompactionKind, Item, ModelResponse, RecordedRequest, Role, Session, Sidechain, Usage } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { ContentIds } from './request-log';

type FieldPath = (string | number)[];

const ATTACHMENT = 'attachment://';
/** Span types whose model calls grade the sample rather than run it. */
const SCORING_SPANS = new Set(['scorers', 'scorer']);
/** Events that structure the log rather than record anything shown: not counted as set aside. */
const STRUCTURE_EVENTS = new Set(['span_begin', 'span_end', 'step']);

const COMPACTION_KINDS: Record<string, CompactionKind> = { summary: 'summary', edit: 'microcompact', trim: 'condensation' };

/** One sample and where it sits in the document. */
interface SampleRef {
  value: JsonObject;
  path: FieldPath;
}

function isEvalHeader(v: unknown): v is JsonObject {
  const e = isObject(v) ? get(v, 'eval') : undefined;
  return isObject(e) && (typeof get(e, 'task') === 'string' || typeof get(e, 'eval_id') === 'string');
}

/** An unzipped sample file: `{id, epoch, input, messages, events}`. */
function isSample(v: unknown): v is JsonObject {
  return isObject(v) && get(v, 'epoch') !== undefined && Array.isArray(get(v, 'messages')) && Array.isArray(get(v, 'events')) && get(v, 'input') !== undefined;
}

/** Resolves the sample's pools: `attachment://` texts and pooled model inputs. */
class SamplePools {
  private readonly attachments: JsonObject;
  readonly messages: unknown[];

  constructor(sample: JsonObject) {
    this.attachments = obj(sample, 'attachments') ?? {};
    this.messages = arr(obj(sample, 'events_data') ?? {}, 'messages') ?? [];
  }

  text(v: unknown): string {
    if (typeof v !== 'string') return asText(v);
    if (!v.startsWith(ATTACHMENT)) return v;
    const found = get(this.attachments, v.slice(ATTACHMENT.length));
    return typeof found === 'string' ? found : v;
  }

  /** A model event's input: inline, or expanded from `input_refs` ranges into the message pool. */
  input(event: JsonObject, ctx: ParseContext, at: FieldPath): unknown[] {
    const inline = arr(event, 'input') ?? [];
    const refs = arr(event, 'input_refs');
    if (inline.length > 0 || !refs) return inline;
    const out: unknown[] = [];
    refs.forEach((r, i) => {
      const start = Array.isArray(r) ? r[0] : undefined;
      const end = Array.isArray(r) ? r[1] : undefined;
      if (typeof start !== 'number' || typeof end !== 'number' || start < 0 || end > this.messages.length || start > end) {
        ctx.error({ path: [...at, 'input_refs', i] }, `input_refs range ${JSON.stringify(r)} is outside events_data.messages (${this.messages.length} messages)`);
        return;
      }
      out.push(...this.messages.slice(start, end));
    });
    return out;
  }
}

/** Text of `content`: a string or a list of Content parts; reasoning parts are returned apart. */
function contentParts(content: unknown, pools: SamplePools): { text: string; reasoning: { text: string; redacted: boolean }[] } {
  if (!Array.isArray(content)) return { text: pools.text(content ?? ''), reasoning: [] };
  const texts: string[] = [];
  const reasoning: { text: string; redacted: boolean }[] = [];
  for (const part of content) {
    if (typeof part === 'string') {
      texts.push(pools.text(part));
      continue;
    }
    if (!isObject(part)) continue;
    const type = str(part, 'type') ?? 'part';
    if (type === 'text') texts.push(pools.text(get(part, 'text') ?? ''));
    else if (type === 'reasoning') {
      const redacted = get(part, 'redacted') === true;
      reasoning.push({ text: redacted ? '[redacted reasoning]' : pools.text(get(part, 'reasoning') ?? get(part, 'summary') ?? ''), redacted });
    } else if (type === 'tool_use') texts.push(`[${str(part, 'name') ?? 'tool_use'}]`);
    else texts.push(`[${type}]`);
  }
  return { text: texts.join('\n'), reasoning };
}

const ROLES: Record<string, Role> = { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool' };

/** One ChatMessage → items; ids are the message's own id (else `${fallback}`) plus a suffix per part. */
function messageItems(m: unknown, pools: SamplePools, ctx: ParseContext, at: FieldPath, fallback: string, extra: Partial<Item>): Item[] {
  if (!isObject(m)) {
    ctx.error({ path: at }, `expected a chat message object, got ${m === null ? 'null' : typeof m}`);
    return [];
  }
  const roleRaw = get(m, 'role');
  const role = typeof roleRaw === 'string' ? ROLES[roleRaw] : undefined;
  if (!role) {
    ctx.error({ path: [...at, 'role'] }, `unknown role ${JSON.stringify(roleRaw)}; expected system, user, assistant or tool`);
    return [];
  }
  const id = str(m, 'id') ?? fallback;
  const source = { file: ctx.file, line: null };
  const { text, reasoning } = contentParts(get(m, 'content'), pools);
  const items: Item[] = [];
  reasoning.forEach((r, j) => items.push({ id: `${id}.r${j}`, kind: 'thinking', role: 'assistant', text: r.text, source, ...extra, ...(r.redacted ? { meta: { encrypted: true } } : {}) }));
  if (role === 'tool') {
    const callId = str(m, 'tool_call_id');
    if (!callId) ctx.warn({ path: [...at, 'tool_call_id'] }, 'tool message has no tool_call_id; it cannot be paired with its call');
    const name = str(m, 'function');
    const item: Item = { id, kind: 'tool_result', role: 'tool', text, source, ...extra, ...(callId ? { callId } : {}), ...(name ? { name } : {}) };
    if (isObject(get(m, 'error'))) item.isError = true;
    items.push(item);
    return items;
  }
  const toolCalls = arr(m, 'tool_calls') ?? [];
  const isSummary = role === 'user' && get(obj(m, 'metadata') ?? {}, 'summary') === true;
  if (text || toolCalls.length === 0 || isSummary) items.push({ id, kind: isSummary ? 'summary' : 'message', role, text, source, ...extra });
  toolCalls.forEach((tc, j) => {
    if (!isObject(tc)) {
      ctx.error({ path: [...at, 'tool_calls', j] }, 'expected a tool call object');
      return;
    }
    const name = str(tc, 'function');
    const callId = str(tc, 'id');
    if (!name) ctx.warn({ path: [...at, 'tool_calls', j, 'function'] }, 'tool call has no function name');
    items.push({ id: `${id}.call${j}`, kind: 'tool_call', role: 'assistant', text: asText(get(tc, 'arguments')), source, ...extra, ...(name ? { name } : {}), ...(callId ? { callId } : {}) });
  });
  return items;
}

/**
 * Inspect's `ModelUsage` of one call: `input_tokens`, `output_tokens`, `input_tokens_cache_read`,
 * `input_tokens_cache_write`, `total_tokens`. Whether `input_tokens` holds the cache depends on the version and the
 * provider: since inspect_ai 0.3.184 (#3341, "input tokens now excludes cached tokens") every provider reports the
 * uncached rest, Google since 0.3.208; before, only Anthropic (and Claude on Bedrock) did, and OpenAI, Grok, Google…
 * reported the whole prompt. Where the cache was used, the usage's own total says which: input + output, or input +
 * output + reads + writes.
 */
function inspectUsage(u: unknown, model: string | null, version: string | undefined): Usage | null {
  if (!isObject(u)) return null;
  const input = num(u, 'input_tokens') ?? null;
  const output = num(u, 'output_tokens') ?? null;
  if (input === null && output === null) return null;
  const read = num(u, 'input_tokens_cache_read') ?? null;
  const write = num(u, 'input_tokens_cache_write') ?? null;
  const total = num(u, 'total_tokens');
  const cache = (read ?? 0) + (write ?? 0);
  let apart: boolean;
  if (cache > 0 && total !== undefined && input !== null && output !== null && (total === input + output + cache || total === input + output)) apart = total !== input + output;
  else apart = excludesCache(model, version);
  return { input, output, cacheRead: read, cacheWrite: write, inputIncludesCache: !apart };
}

/** The inspect_ai version rule for `input_tokens` (see `inspectUsage`). */
function excludesCache(model: string | null, version: string | undefined): boolean {
  const v = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  const n = v ? Number(v[1]) * 1e6 + Number(v[2]) * 1e3 + Number(v[3]) : null;
  const provider = (model ?? '').toLowerCase();
  const claude = /anthropic|bedrock|claude/.test(provider);
  if (n === null || n >= 3208) return true;
  if (n >= 3184) return !/^(google|vertex)\//.test(provider) || claude;
  return claude;
}

/** The wire API of a call: from the raw request Inspect kept, else from the provider prefix of the model. */
function apiOf(event: JsonObject, model: string | null): RecordedRequest['api'] {
  const request = obj(obj(event, 'call') ?? {}, 'request');
  if (request && get(request, 'input') !== undefined && get(request, 'messages') === undefined) return 'openai-responses';
  if (request && get(request, 'system') !== undefined) return 'anthropic';
  const m = (model ?? '').toLowerCase();
  if (m.startsWith('anthropic/') || m.includes('claude')) return 'anthropic';
  return 'openai-chat';
}

/** The text the summarizer returned, as Inspect keeps it: after `</analysis>`, inside `<summary>` when present. */
function summaryBody(text: string): string {
  const after = text.includes('</analysis>') ? text.slice(text.lastIndexOf('</analysis>') + '</analysis>'.length) : text;
  const open = after.indexOf('<summary>');
  if (open < 0) return after.trim();
  const close = after.lastIndexOf('</summary>');
  return (close > open ? after.slice(open + '<summary>'.length, close) : after.slice(open + '<summary>'.length)).trim();
}

interface ModelEventRef {
  event: JsonObject;
  path: FieldPath;
}

/** A recorded compaction and the model events around it, in event order. */
/** A sub-agent's calls (a handoff or an agent run as a tool): its own conversation, not the sample's. */
interface SubAgent {
  span: string;
  name: string;
}

type Step = { kind: 'model'; ref: ModelEventRef } | { kind: 'subagent'; ref: ModelEventRef; agent: SubAgent } | { kind: 'compaction'; event: JsonObject; path: FieldPath };

function stepsOf(sample: SampleRef, ctx: ParseContext, skipped: Record<string, number>): Step[] {
  const events = arr(sample.value, 'events') ?? [];
  const spans = new Map<string, { type: string | null; name: string; parent: string | null }>();
  /** The span and its ancestors, innermost first (bounded: a cycle in bad input must not hang). */
  const chain = (spanId: string | undefined) => {
    const out: { id: string; type: string | null; name: string }[] = [];
    for (let id = spanId; id !== undefined && out.length < 100; ) {
      const span = spans.get(id);
      if (!span) break;
      out.push({ id, type: span.type, name: span.name });
      id = span.parent ?? undefined;
    }
    return out;
  };
  const scoring = (spanId: string | undefined) => chain(spanId).some((s) => s.type !== null && SCORING_SPANS.has(s.type));
  // An agent span inside another agent or a tool is a sub-agent; the outermost agent is the sample's own.
  const subAgent = (spanId: string | undefined): SubAgent | null => {
    const spansUp = chain(spanId);
    const k = spansUp.findIndex((s, j) => s.type === 'agent' && spansUp.slice(j + 1).some((up) => up.type === 'agent' || up.type === 'tool'));
    return k < 0 ? null : { span: spansUp[k]!.id, name: spansUp[k]!.name };
  };
  const steps: Step[] = [];
  events.forEach((e, i) => {
    const path = [...sample.path, 'events', i];
    if (!isObject(e)) {
      ctx.error({ path }, 'expected an event object');
      return;
    }
    const kind = str(e, 'event');
    if (kind === 'span_begin') {
      const id = str(e, 'id');
      if (id) spans.set(id, { type: str(e, 'type') ?? null, name: str(e, 'name') ?? 'agent', parent: str(e, 'parent_id') ?? null });
    } else if (kind === 'model') {
      if (get(e, 'pending') === true) bump(skipped, 'model (pending)');
      else if (scoring(str(e, 'span_id'))) bump(skipped, 'model (scoring)');
      else {
        const agent = subAgent(str(e, 'span_id'));
        steps.push(agent ? { kind: 'subagent', ref: { event: e, path }, agent } : { kind: 'model', ref: { event: e, path } });
      }
    } else if (kind === 'compaction') {
      steps.push({ kind: 'compaction', event: e, path });
    } else if (kind !== undefined && !STRUCTURE_EVENTS.has(kind)) {
      bump(skipped, kind);
    }
  });
  return steps;
}

function bump(skipped: Record<string, number>, key: string): void {
  const k = key in Object.prototype ? `(${key})` : key;
  skipped[k] = (Object.prototype.hasOwnProperty.call(skipped, k) ? skipped[k]! : 0) + 1;
}

function firstChoiceMessage(output: JsonObject | undefined): { message: JsonObject; index: number } | null {
  const choices = output ? arr(output, 'choices') : undefined;
  const first = choices?.[0];
  const message = isObject(first) ? get(first, 'message') : undefined;
  return isObject(message) ? { message, index: 0 } : null;
}

/** The assistant text a model event produced (for matching a summarizer call to the summary it wrote). */
function outputText(event: JsonObject, pools: SamplePools): string {
  const choice = firstChoiceMessage(obj(event, 'output'));
  return choice ? contentParts(get(choice.message, 'content'), pools).text : '';
}

function inputHasSummary(input: unknown[], pools: SamplePools, body: string): boolean {
  const probe = body.slice(0, 120);
  if (!probe) return false;
  return input.some((m) => isObject(m) && get(obj(m, 'metadata') ?? {}, 'summary') === true && contentParts(get(m, 'content'), pools).text.includes(probe));
}

function sampleSession(sample: SampleRef, header: JsonObject | null, ctx: ParseContext, total: number): Session {
  const v = sample.value;
  const evalInfo = header ? (obj(header, 'eval') ?? {}) : {};
  const sampleId = get(v, 'id');
  const epoch = num(v, 'epoch') ?? 1;
  const idText = typeof sampleId === 'string' || typeof sampleId === 'number' ? String(sampleId) : String(sample.path.at(-1) ?? 0);
  const task = str(evalInfo, 'task') ?? null;
  const base = total > 1 || header ? `${str(evalInfo, 'eval_id') ?? idFromFile(ctx.file)}/${idText}_epoch_${epoch}` : idFromFile(ctx.file);
  const session = emptySession('inspect', ctx.file, base);
  session.title = `${task ?? idFromFile(ctx.file)} · sample ${idText}${epoch !== 1 ? ` (epoch ${epoch})` : ''}`;
  session.model = str(evalInfo, 'model') ?? null;
  session.meta['sampleId'] = idText;
  session.meta['epoch'] = epoch;
  if (task) session.meta['task'] = task;
  const version = strAt(evalInfo, 'packages.inspect_ai');
  if (version) session.meta['inspectVersion'] = version;
  const status = header ? str(header, 'status') : undefined;
  if (status) session.meta['status'] = status;
  const error = strAt(v, 'error.message');
  if (error) session.meta['error'] = error.slice(0, 300);
  const score = firstScore(v);
  if (score !== null) session.meta['score'] = score;

  const pools = new SamplePools(v);
  const steps = stepsOf(sample, ctx, session.skipped);
  const ids = new ContentIds();
  const pending: CompactionEvent[] = [];
  const summarizers = summarizerEvents(steps, pools, ctx);
  const agents = new Map<string, { agent: SubAgent; last: ModelEventRef }>();
  for (const step of steps) {
    if (step.kind === 'subagent') {
      agents.set(step.agent.span, { agent: step.agent, last: step.ref });
      continue;
    }
    if (step.kind === 'compaction') {
      pending.push(compactionOf(step.event, step.path, session.compactions.length + pending.length, ctx));
      continue;
    }
    const summarized = summarizers.get(step.ref.event);
    if (summarized !== undefined) {
      session.sidechains.push(sidechainOf(step.ref, pools, ctx, `summarizer-${session.sidechains.length}`, summarized));
      continue;
    }
    const request = requestOf(step.ref, pools, ctx, ids, session);
    for (const c of pending) c.requestId = request.id;
    session.compactions.push(...pending);
    pending.length = 0;
  }
  // A compaction after the last call changed no call's context: kept, tied to no call.
  session.compactions.push(...pending);
  // Each sub-agent's last call holds its whole conversation: its input and what it answered.
  for (const { agent, last } of agents.values()) {
    session.sidechains.push({ ...sidechainOf(last, pools, ctx, `agent-${agent.name}-${session.sidechains.length}`, ''), purpose: 'subagent', compactionId: null });
  }
  session.items = ids.firstSeen;
  if (session.requests.length === 0) fallbackItems(v, sample.path, pools, ctx, session);
  // The sample's calls name the model they ran on (a task may set another model than the eval's).
  session.model = session.requests[0]?.model ?? session.model;
  return session;
}

function firstScore(sample: JsonObject): string | number | boolean | null {
  const scores = obj(sample, 'scores');
  if (!scores) return null;
  for (const key of Object.keys(scores)) {
    const s = get(scores, key);
    const value = isObject(s) ? get(s, 'value') : undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  }
  return null;
}

/**
 * Model events that wrote a compaction summary, each to the id of its compaction: the last call before a
 * `summary` compaction whose output reappears in the next call's summary message.
 */
function summarizerEvents(steps: Step[], pools: SamplePools, ctx: ParseContext): Map<JsonObject, string> {
  const found = new Map<JsonObject, string>();
  let compactions = 0;
  steps.forEach((step, k) => {
    if (step.kind !== 'compaction') return;
    const id = compactionId(step.event, compactions++);
    if (str(step.event, 'type') !== undefined && str(step.event, 'type') !== 'summary') return;
    const before = steps.slice(0, k).filter((s) => s.kind !== 'subagent').at(-1);
    const after = steps.slice(k + 1).find((s) => s.kind === 'model');
    if (before?.kind !== 'model' || after?.kind !== 'model') return;
    const body = summaryBody(outputText(before.ref.event, pools));
    // Inputs are read quietly here: problems in them are reported once, when the call itself is read.
    if (inputHasSummary(pools.input(after.ref.event, quiet(ctx), after.ref.path), pools, body)) found.set(before.ref.event, id);
  });
  return found;
}

function quiet(ctx: ParseContext): ParseContext {
  return { ...ctx, error: () => {}, warn: () => {}, issues: [] };
}

function compactionId(event: JsonObject, index: number): string {
  return str(event, 'uuid') ?? `c${index}`;
}

function compactionOf(e: JsonObject, path: FieldPath, index: number, ctx: ParseContext): CompactionEvent {
  const type = str(e, 'type') ?? 'summary';
  const kind = COMPACTION_KINDS[type];
  if (!kind) ctx.warn({ path: [...path, 'type'] }, `unknown compaction type ${JSON.stringify(type)}; read as a summary`);
  const timestamp = str(e, 'timestamp');
  return {
    id: compactionId(e, index),
    index,
    kind: kind ?? 'summary',
    trigger: strAt(e, 'metadata.strategy') ?? str(e, 'source') ?? null,
    tokensBefore: num(e, 'tokens_before') ?? null,
    tokensAfter: num(e, 'tokens_after') ?? null,
    replacedIds: [],
    keptIds: [],
    summaryId: null,
    atItemId: null,
    ...(timestamp ? { timestamp } : {}),
    source: { file: ctx.file, line: null },
  };
}

function requestOf(ref: ModelEventRef, pools: SamplePools, ctx: ParseContext, ids: ContentIds, session: Session): RecordedRequest {
  const { event, path } = ref;
  const index = session.requests.length;
  const base = `r${index}.`;
  const timestamp = str(event, 'timestamp');
  const ts = timestamp ? { timestamp } : {};
  const model = str(event, 'model') ?? null;
  const id = str(event, 'uuid') ?? `call-${index}`;
  const counts = new Map<string, number>();
  const input = pools.input(event, ctx, path);
  const raw = input.flatMap((m, i) => messageItems(m, pools, ctx, [...path, 'input', i], `${base}m${i}`, {}));
  const items = ids.canonical(raw, counts, base, {});
  pairToolCalls(items);
  const output = obj(event, 'output');
  const choice = firstChoiceMessage(output);
  const responseId = `${id}.response`;
  const outRaw = choice ? messageItems(choice.message, pools, ctx, [...path, 'output', 'choices', 0, 'message'], `${base}out`, {}) : [];
  const out = ids.canonical(outRaw, counts, base, { responseId, ...ts });
  const version = session.meta['inspectVersion'];
  const usage = inspectUsage(output ? get(output, 'usage') : undefined, model, typeof version === 'string' ? version : undefined);
  const tools = arr(event, 'tools');
  const request: RecordedRequest = {
    id,
    index,
    ...ts,
    model,
    api: apiOf(event, model),
    items,
    tools: tools && tools.length > 0 ? JSON.stringify(tools) : null,
    output: out,
    usage,
    source: { file: ctx.file, line: null },
  };
  session.requests.push(request);
  const error = str(event, 'error');
  if (error) ctx.warn({ path: [...path, 'error'] }, `model call ${index + 1} failed: ${error.slice(0, 200)}`);
  if (output) {
    const response: ModelResponse = { id: responseId, index: session.responses.length, itemIds: out.map((it) => it.id), usage, model, ...ts, source: request.source };
    session.responses.push(response);
  }
  return request;
}

function sidechainOf(ref: ModelEventRef, pools: SamplePools, ctx: ParseContext, id: string, compactionId: string): Sidechain {
  const { event, path } = ref;
  const input = pools.input(event, ctx, path).flatMap((m, i) => messageItems(m, pools, ctx, [...path, 'input', i], `${id}.m${i}`, {}));
  const choice = firstChoiceMessage(obj(event, 'output'));
  const output = choice ? messageItems(choice.message, pools, ctx, [...path, 'output', 'choices', 0, 'message'], `${id}.out`, {}) : [];
  // Ids are the sidechain's own: the same message ids appear in the main calls.
  const items = [...input, ...output].map((it, k) => ({ ...it, id: `${id}.${k}` }));
  return { id, purpose: 'compaction', file: ctx.file, items, compactionId };
}

/** A sample without model events (an old or trimmed log): its final `messages` as a transcript. */
function fallbackItems(v: JsonObject, at: FieldPath, pools: SamplePools, ctx: ParseContext, session: Session): void {
  const messages = arr(v, 'messages') ?? [];
  session.items = messages.flatMap((m, i) => messageItems(m, pools, ctx, [...at, 'messages', i], `m${i}`, {}));
  if (session.items.length > 0) ctx.warn({ path: [...at, 'events'] }, 'the sample has no model events: its final messages are shown, without per-call contexts');
}

export const inspect: FormatAdapter = {
  id: 'inspect',
  label: 'Inspect AI log',
  // A sample file holds its chat `messages` beside Inspect's events.
  refines: ['openai-chat'],
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    if (isEvalHeader(doc.value)) return 0.97;
    return isSample(doc.value) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const v = doc.kind === 'json' ? doc.value : undefined;
    const header = isEvalHeader(v) ? v : null;
    const samples: SampleRef[] = [];
    if (header) {
      const list = get(header, 'samples');
      if (list !== undefined && !Array.isArray(list)) ctx.error({ path: ['samples'] }, 'expected `samples` to be an array');
      (Array.isArray(list) ? list : []).forEach((s, i) => {
        if (isObject(s)) samples.push({ value: s, path: ['samples', i] });
        else ctx.error({ path: ['samples', i] }, 'expected a sample object');
      });
      if (samples.length === 0) ctx.warn({ path: ['samples'] }, 'the log has no samples (written with log_samples off, or only its header was given)');
    } else if (isObject(v)) {
      samples.push({ value: v, path: [] });
    }
    const sessions = samples.map((s) => sampleSession(s, header, ctx, samples.length));
    if (header && numAt(header, 'version') !== null) for (const s of sessions) s.meta['logVersion'] = numAt(header, 'version');
    return sessions;
  },
};

