// The messages an LLM span records, in whichever convention wrote them, as one shape: role + parts.
//  - GenAI semantic conventions (v1.37+): `gen_ai.input.messages` / `gen_ai.output.messages` (JSON strings or
//    structured values: `[{role, parts: [{type: text|reasoning|tool_call|tool_call_response|…}]}]`) and
//    `gen_ai.system_instructions` (a parts list).
//  - Older GenAI (v1.28–1.36): per-message events `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`,
//    recorded on the span (`gen_ai.event.content` as JSON, or the body's fields as attributes), pydantic-ai's
//    `events` attribute (a JSON list of those bodies), and v1.27's `gen_ai.content.prompt` / `.completion` events.
//  - OpenLLMetry: `gen_ai.prompt.N.role/content/tool_calls.M.*` and `gen_ai.completion.N.*`.
//  - OpenInference: `llm.input_messages.N.message.role/content/contents/tool_calls.M.tool_call.*/tool_call_id`.
import { asText, get, isObject, str, type JsonObject } from '../model/narrow';
import type { Attributes, AttrValue, OtlpSpan } from './otlp-spans';
import { attrStr } from './otlp-spans';

export type Part =
  | { type: 'text'; text: string; kind?: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; id: string | null; name: string; arguments: string }
  | { type: 'tool_result'; id: string | null; name: string | null; text: string };

export interface Message {
  role: string;
  parts: Part[];
}

export interface SpanMessages {
  input: Message[];
  output: Message[];
  /** Which convention the messages came from; null when the span records none (content capture off). */
  convention: 'genai' | 'genai-events' | 'openllmetry' | 'openinference' | null;
}

/** A problem with one attribute, reported by the adapter with the span's path. */
export interface MessageProblem {
  key: string;
  message: string;
}

/** A property our export writes on a part to keep the item's kind (a summary, an omission marker). */
export const ITEM_KIND_PROPERTY = 'compaction_inspector.item_kind';

/** A JSON-string attribute parsed, or a structured one as it is. */
function jsonValue(v: AttrValue | undefined, key: string, problems: MessageProblem[]): unknown {
  if (typeof v !== 'string') return v ?? undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch (e) {
    problems.push({ key, message: `\`${key}\` is not valid JSON (${e instanceof Error ? e.message : String(e)}); its messages are left out` });
    return undefined;
  }
}

// ---- GenAI semantic conventions: role + parts ----

function genaiPart(p: unknown): Part | null {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return null;
  const type = str(p, 'type') ?? 'text';
  const kind = str(p, ITEM_KIND_PROPERTY);
  switch (type) {
    case 'text':
      return { type: 'text', text: asText(get(p, 'content') ?? get(p, 'text')), ...(kind ? { kind } : {}) };
    case 'reasoning':
    case 'thinking':
      return { type: 'reasoning', text: asText(get(p, 'content') ?? get(p, 'text')) };
    case 'tool_call':
      return { type: 'tool_call', id: str(p, 'id') ?? null, name: str(p, 'name') ?? '', arguments: asText(get(p, 'arguments')) };
    case 'tool_call_response':
      // `response` in the schema; `result` in the spec's first examples and some instrumentations.
      return { type: 'tool_result', id: str(p, 'id')?.trim() ?? null, name: str(p, 'name') ?? null, text: asText(get(p, 'response') ?? get(p, 'result')) };
    default:
      // blob, file_data, uri and custom parts: what was sent, as text (never the bytes themselves).
      return { type: 'text', text: `[${type}${str(p, 'mime_type') ? ` ${str(p, 'mime_type')}` : ''}${str(p, 'uri') ? ` ${str(p, 'uri')}` : ''}]` };
  }
}

function genaiMessage(m: unknown): Message | null {
  if (!isObject(m)) return null;
  const role = str(m, 'role') ?? 'user';
  const parts = get(m, 'parts');
  if (Array.isArray(parts)) return { role, parts: parts.map(genaiPart).filter((p): p is Part => p !== null) };
  // A chat-shaped message where a parts list was expected (older writers).
  return chatMessage(m);
}

function genaiMessages(v: unknown): Message[] {
  return Array.isArray(v) ? v.map(genaiMessage).filter((m): m is Message => m !== null) : [];
}

// ---- Chat-shaped messages (OpenAI chat, Anthropic blocks): events, OpenLLMetry JSON content ----

/** Anthropic content blocks or OpenAI content parts as parts. */
function blockParts(blocks: unknown[]): Part[] {
  return blocks.flatMap((b): Part[] => {
    if (typeof b === 'string') return [{ type: 'text', text: b }];
    if (!isObject(b)) return [];
    const type = str(b, 'type') ?? 'text';
    if (type === 'text' || type === 'input_text' || type === 'output_text') return [{ type: 'text', text: str(b, 'text') ?? '' }];
    if (type === 'thinking' || type === 'reasoning') return [{ type: 'reasoning', text: str(b, 'thinking') ?? str(b, 'text') ?? '' }];
    if (type === 'redacted_thinking') return [{ type: 'reasoning', text: '[redacted thinking]' }];
    if (type === 'tool_use') return [{ type: 'tool_call', id: str(b, 'id') ?? null, name: str(b, 'name') ?? '', arguments: asText(get(b, 'input')) }];
    if (type === 'tool_result') return [{ type: 'tool_result', id: str(b, 'tool_use_id') ?? null, name: null, text: toolResultText(get(b, 'content')) }];
    return [{ type: 'text', text: `[${type}]` }];
  });
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isObject(c) && typeof get(c, 'text') === 'string' ? (get(c, 'text') as string) : asText(c))).join('\n');
  return asText(content);
}

/** Content that is a JSON list of typed blocks (OpenLLMetry writes Anthropic content lists as JSON strings). */
function contentParts(content: unknown): Part[] {
  if (content === undefined || content === null) return [];
  if (Array.isArray(content)) return blockParts(content);
  if (typeof content === 'string') {
    const t = content.trimStart();
    if (t.startsWith('[{')) {
      try {
        const v: unknown = JSON.parse(content);
        if (Array.isArray(v) && v.length > 0 && v.every((b) => isObject(b) && typeof get(b, 'type') === 'string')) return blockParts(v);
      } catch {
        // plain text that happens to start like JSON
      }
    }
    return [{ type: 'text', text: content }];
  }
  return [{ type: 'text', text: asText(content) }];
}

function chatToolCalls(calls: unknown): Part[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((c): Part[] => {
    if (!isObject(c)) return [];
    const fn = get(c, 'function');
    const name = (isObject(fn) ? str(fn, 'name') : undefined) ?? str(c, 'name') ?? '';
    const args = isObject(fn) ? get(fn, 'arguments') : (get(c, 'arguments') ?? get(c, 'input'));
    return [{ type: 'tool_call', id: str(c, 'id') ?? null, name, arguments: asText(args) }];
  });
}

/** An OpenAI-chat-shaped message object; `role` may come from the event's name instead. */
export function chatMessage(m: JsonObject, roleHint?: string): Message | null {
  const role = str(m, 'role') ?? roleHint ?? 'user';
  const content = get(m, 'content');
  if (role === 'tool' || role === 'function') {
    const id = str(m, 'tool_call_id') ?? str(m, 'id') ?? null;
    return { role: 'tool', parts: [{ type: 'tool_result', id, name: str(m, 'name') ?? null, text: toolResultText(content) }] };
  }
  const parts = [...contentParts(content), ...chatToolCalls(get(m, 'tool_calls'))];
  return { role, parts };
}

// ---- Flattened attributes: `prefix.N.rest` ----

/** Groups `prefix.N.rest` keys by N, in index order: each entry maps `rest` to the value. */
export function indexed(attrs: Attributes, prefix: string): Map<string, AttrValue>[] {
  const byIndex = new Map<number, Map<string, AttrValue>>();
  const dotted = `${prefix}.`;
  for (const [key, value] of attrs) {
    if (!key.startsWith(dotted)) continue;
    const rest = key.slice(dotted.length);
    const dot = rest.indexOf('.');
    const head = dot < 0 ? rest : rest.slice(0, dot);
    if (!/^\d+$/.test(head)) continue;
    const n = Number(head);
    let m = byIndex.get(n);
    if (!m) byIndex.set(n, (m = new Map()));
    m.set(dot < 0 ? '' : rest.slice(dot + 1), value);
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, m]) => m);
}

const text = (v: AttrValue | undefined): string | null => (typeof v === 'string' ? v : v === undefined || v === null ? null : asText(v));

/** OpenInference: `message.role`, `message.content` or `message.contents.K.message_content.*`, tool calls, results. */
function openInferenceMessage(m: Map<string, AttrValue>): Message {
  const role = text(m.get('message.role')) ?? 'user';
  const parts: Part[] = [];
  const toolCallId = text(m.get('message.tool_call_id'));
  const content = text(m.get('message.content'));
  const contents = indexed(m, 'message.contents').map((c) => text(c.get('message_content.text')) ?? (c.get('message_content.type') ? `[${text(c.get('message_content.type'))}]` : '')).join('\n');
  const body = content ?? (contents || null);
  if (role === 'tool' || role === 'function' || toolCallId !== null) {
    return { role: 'tool', parts: [{ type: 'tool_result', id: toolCallId, name: text(m.get('message.name')), text: body ?? '' }] };
  }
  if (body !== null) parts.push({ type: 'text', text: body });
  for (const c of indexed(m, 'message.tool_calls')) {
    parts.push({ type: 'tool_call', id: text(c.get('tool_call.id')), name: text(c.get('tool_call.function.name')) ?? '', arguments: text(c.get('tool_call.function.arguments')) ?? '' });
  }
  return { role, parts };
}

/** OpenLLMetry: `role`, `content` (text or a JSON list of blocks), `tool_calls.M.{id,name,arguments}`, `tool_call_id`. */
function openLlmetryMessage(m: Map<string, AttrValue>): Message {
  const role = text(m.get('role')) ?? 'user';
  const toolCallId = text(m.get('tool_call_id'));
  if (role === 'tool' || toolCallId !== null) return { role: 'tool', parts: [{ type: 'tool_result', id: toolCallId, name: text(m.get('name')), text: text(m.get('content')) ?? '' }] };
  const parts = contentParts(m.get('content') ?? undefined);
  for (const c of indexed(m, 'tool_calls')) parts.push({ type: 'tool_call', id: text(c.get('id')), name: text(c.get('name')) ?? '', arguments: text(c.get('arguments')) ?? '' });
  return { role, parts };
}

// ---- Events ----

const EVENT_ROLES: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** An event's body: `gen_ai.event.content` as JSON (Azure AI Inference, Semantic Kernel), else its attributes. */
function eventBody(attrs: Attributes, problems: MessageProblem[]): JsonObject {
  const raw = attrs.get('gen_ai.event.content');
  if (raw !== undefined) {
    const v = jsonValue(raw, 'gen_ai.event.content', problems);
    if (isObject(v)) return v;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of attrs) out[k] = typeof v === 'string' && (k === 'tool_calls' || k === 'message') ? safeJson(v) : v;
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
}

/** A `gen_ai.choice` body: `{index, finish_reason, message: {role, content, tool_calls}}`. */
function choiceMessage(body: JsonObject): Message | null {
  const message = get(body, 'message');
  if (isObject(message)) return chatMessage(message, 'assistant');
  return chatMessage(body, 'assistant');
}

/** Per-message events on the span, or pydantic-ai's `events` attribute; null when there are none. */
function eventMessages(span: OtlpSpan, problems: MessageProblem[]): { input: Message[]; output: Message[] } | null {
  const input: Message[] = [];
  const output: Message[] = [];
  let seen = false;
  for (const e of span.events) {
    const role = EVENT_ROLES[e.name];
    if (role) {
      seen = true;
      const m = chatMessage(eventBody(e.attributes, problems), role);
      if (m) input.push({ ...m, role: m.role === 'user' && role !== 'user' ? role : m.role });
    } else if (e.name === 'gen_ai.choice') {
      seen = true;
      const m = choiceMessage(eventBody(e.attributes, problems));
      if (m) output.push(m);
    } else if (e.name === 'gen_ai.content.prompt' || e.name === 'gen_ai.content.completion') {
      seen = true;
      const key = e.name === 'gen_ai.content.prompt' ? 'gen_ai.prompt' : 'gen_ai.completion';
      const v = jsonValue(e.attributes.get(key), key, problems);
      const list = Array.isArray(v) ? v : [];
      for (const m of list) {
        const msg = isObject(m) ? chatMessage(m) : null;
        if (msg) (e.name === 'gen_ai.content.prompt' ? input : output).push(msg);
      }
    }
  }
  if (seen) return { input, output };
  const events = span.attributes.get('events');
  if (events === undefined) return null;
  const list = jsonValue(events, 'events', problems);
  if (!Array.isArray(list)) return null;
  for (const e of list) {
    if (!isObject(e)) continue;
    const name = str(e, 'event.name');
    if (name === 'gen_ai.choice' || (get(e, 'index') !== undefined && isObject(get(e, 'message')))) {
      const m = choiceMessage(e);
      if (m) output.push(m);
      continue;
    }
    const m = chatMessage(e, name ? EVENT_ROLES[name] : undefined);
    if (m) input.push(m);
  }
  return { input, output };
}

/** The span's messages, from the first convention that records any. */
export function spanMessages(span: OtlpSpan, problems: MessageProblem[]): SpanMessages {
  const a = span.attributes;
  if (a.has('gen_ai.input.messages') || a.has('gen_ai.output.messages') || a.has('gen_ai.system_instructions')) {
    const system = jsonValue(a.get('gen_ai.system_instructions'), 'gen_ai.system_instructions', problems);
    const systemParts = Array.isArray(system) ? system.map(genaiPart).filter((p): p is Part => p !== null) : typeof system === 'string' ? [{ type: 'text' as const, text: system }] : [];
    const input = genaiMessages(jsonValue(a.get('gen_ai.input.messages'), 'gen_ai.input.messages', problems));
    return {
      input: systemParts.length ? [{ role: 'system', parts: systemParts }, ...input] : input,
      output: genaiMessages(jsonValue(a.get('gen_ai.output.messages'), 'gen_ai.output.messages', problems)),
      convention: 'genai',
    };
  }
  const oiIn = indexed(a, 'llm.input_messages');
  const oiOut = indexed(a, 'llm.output_messages');
  if (oiIn.length || oiOut.length) return { input: oiIn.map(openInferenceMessage), output: oiOut.map(openInferenceMessage), convention: 'openinference' };
  const olIn = indexed(a, 'gen_ai.prompt');
  const olOut = indexed(a, 'gen_ai.completion');
  if (olIn.length || olOut.length) return { input: olIn.map(openLlmetryMessage), output: olOut.map(openLlmetryMessage), convention: 'openllmetry' };
  const events = eventMessages(span, problems);
  if (events) return { ...events, convention: 'genai-events' };
  return { input: [], output: [], convention: null };
}

/** Tool schemas the span records (`gen_ai.tool.definitions`, OpenInference `llm.tools.N.tool.json_schema`). */
export function spanTools(attrs: Attributes): string | null {
  const defs = attrs.get('gen_ai.tool.definitions');
  if (defs !== undefined && defs !== null) return typeof defs === 'string' ? defs : JSON.stringify(defs);
  const tools = indexed(attrs, 'llm.tools').map((t) => attrStr(new Map(t), 'tool.json_schema')).filter((t): t is string => t !== null);
  return tools.length ? `[${tools.join(',')}]` : null;
}
