// OpenAI Chat Completions: `{messages:[…]}`, a request body, or a bare array of messages.
import type { Document } from '../load/document';
import { arr, asText, get, isObject, str, strAt, type JsonObject } from '../model/narrow';
import { textItem } from '../model/markers';
import type { Item, Role } from '../model/types';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { own } from '../model/dictionary';

const ROLES: Record<string, Role> = {
  system: 'system',
  developer: 'developer',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

function messagesOf(value: unknown): { messages: unknown[]; body: JsonObject | null } | null {
  if (Array.isArray(value)) return { messages: value, body: null };
  if (isObject(value)) {
    const messages = arr(value, 'messages');
    if (messages) return { messages, body: value };
  }
  return null;
}

function looksLikeChatMessage(m: unknown): boolean {
  return isObject(m) && typeof get(m, 'role') === 'string' && (get(m, 'content') !== undefined || get(m, 'tool_calls') !== undefined);
}

/** Text of `content`: a string, or an array of parts (`text`, `image_url`, `input_audio`, …). */
export function chatContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : asText(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      const text = str(part, 'text') ?? str(part, 'refusal');
      if (text !== undefined) return text;
      const type = str(part, 'type') ?? 'part';
      return `[${type}]`;
    })
    .join('\n');
}

/**
 * Converts Chat Completions messages to items. Shared with the request-log adapter.
 * `at(i)` locates message i for error reporting; ids are `${prefix}${i}` plus suffixes.
 */
export function chatMessagesToItems(messages: unknown[], ctx: ParseContext, at: (i: number) => At, prefix = 'm'): Item[] {
  const items: Item[] = [];
  messages.forEach((m, i) => {
    const where = at(i);
    if (!isObject(m)) {
      ctx.error(where, `expected a message object, got ${m === null ? 'null' : typeof m}`);
      return;
    }
    const roleRaw = get(m, 'role');
    const role = typeof roleRaw === 'string' ? own(ROLES, roleRaw) : undefined;
    if (!role) {
      ctx.error({ ...where, path: [...(where.path ?? []), 'role'] }, `unknown role ${JSON.stringify(roleRaw)}; expected system, developer, user, assistant or tool`);
      return;
    }
    const id = `${prefix}${i}`;
    const source = { file: ctx.file, line: where.line ?? null };
    const reasoning = str(m, 'reasoning_content') ?? str(m, 'reasoning');
    if (reasoning) items.push({ id: `${id}.think`, kind: 'thinking', role: 'assistant', text: reasoning, source });
    if (role === 'tool') {
      const callId = str(m, 'tool_call_id');
      if (!callId) ctx.warn({ ...where, path: [...(where.path ?? []), 'tool_call_id'] }, 'tool message has no tool_call_id; it cannot be paired with its call');
      const text = chatContentText(get(m, 'content'));
      const item = textItem({ id, role: 'tool', source, ...(callId ? { callId } : {}), ...(str(m, 'name') ? { name: str(m, 'name')! } : {}) }, text, 'tool_result');
      if (item.kind === 'message') item.kind = 'tool_result';
      items.push(item);
      return;
    }
    const content = get(m, 'content');
    const text = chatContentText(content);
    const toolCalls = arr(m, 'tool_calls') ?? [];
    if (text || toolCalls.length === 0) items.push(textItem({ id, role, source }, text));
    toolCalls.forEach((tc, j) => {
      const tcAt = { ...where, path: [...(where.path ?? []), 'tool_calls', j] };
      if (!isObject(tc)) {
        ctx.error(tcAt, 'expected a tool call object');
        return;
      }
      const fn = get(tc, 'function');
      const name = isObject(fn) ? str(fn, 'name') : undefined;
      const args = isObject(fn) ? get(fn, 'arguments') : undefined;
      const callId = str(tc, 'id');
      if (!name) ctx.warn({ ...tcAt, path: [...(tcAt.path ?? []), 'function', 'name'] }, 'tool call has no function name');
      items.push({ id: `${id}.call${j}`, kind: 'tool_call', role: 'assistant', text: asText(args), source, ...(name ? { name } : {}), ...(callId ? { callId } : {}) });
    });
  });
  return items;
}

export const openaiChat: FormatAdapter = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    const found = messagesOf(doc.value);
    if (!found || found.messages.length === 0) return 0;
    const sample = found.messages.slice(0, 20);
    const ok = sample.filter(looksLikeChatMessage).length / sample.length;
    // Tolerate broken messages: a file with a few bad ones should be parsed and the bad ones reported.
    if (ok < 0.5) return 0;
    // OpenAI-specific shapes raise confidence; plain role/content could also be Anthropic.
    const specific = sample.some((m) => isObject(m) && (get(m, 'tool_calls') !== undefined || get(m, 'role') === 'tool' || get(m, 'role') === 'system' || get(m, 'role') === 'developer'));
    return specific ? 0.8 : 0.6;
  },
  parse(doc, ctx) {
    const value = doc.kind === 'json' ? doc.value : undefined;
    const found = messagesOf(value);
    const session = emptySession('openai-chat', ctx.file, idFromFile(ctx.file));
    if (!found) {
      ctx.error({ path: ['messages'] }, 'expected a `messages` array');
      return [session];
    }
    const base: (string | number)[] = found.body ? ['messages'] : [];
    session.items = chatMessagesToItems(found.messages, ctx, (i) => ({ path: [...base, i] }));
    if (found.body) {
      session.model = str(found.body, 'model') ?? null;
      // A transcript exported with its harness metadata names its session, so logs can join to it.
      const metaSessionId = strAt(found.body, 'metadata.session_id');
      if (metaSessionId) session.id = metaSessionId;
    }
    return [session];
  },
};
