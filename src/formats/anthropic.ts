// Anthropic Messages API: a request body `{system?, messages:[…]}`, a response `{type:"message", content:[…]}`,
// or a bare array of messages whose content blocks are Anthropic's.
import type { Document } from '../load/document';
import { arr, asText, get, isObject, num, str, strAt, type JsonObject } from '../model/narrow';
import { textItem } from '../model/markers';
import type { Item, ModelResponse, Role, Usage } from '../model/types';
import { cacheApartUsage, reportsACall } from '../model/usage';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { compactionsAtItems } from './openai-responses-compaction';

/** Block types no other chat API writes. */
const SPECIFIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'compaction',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'document',
  'search_result',
  'container_upload',
]);

type PathAt = (path: (string | number)[]) => At;

/** `cache_control: {type, ttl?}` → meta the cache analysis reads as a breakpoint. */
function cacheMeta(block: JsonObject): Record<string, string> | undefined {
  const cc = get(block, 'cache_control');
  if (!isObject(cc)) return undefined;
  const meta: Record<string, string> = { cacheControl: str(cc, 'type') ?? 'ephemeral' };
  const ttl = str(cc, 'ttl');
  if (ttl) meta['cacheTtl'] = ttl;
  return meta;
}

function placeholder(block: JsonObject, type: string): string {
  const title = str(block, 'title') ?? strAt(block, 'source.filename');
  return title ? `[${type} ${title}]` : `[${type}]`;
}

/** Text of `tool_result.content`: a string or blocks (text, image, search results, documents). */
export function anthropicResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : asText(content);
  return content
    .map((b) => {
      if (typeof b === 'string') return b;
      if (!isObject(b)) return '';
      const type = str(b, 'type') ?? 'block';
      if (type === 'text') return str(b, 'text') ?? '';
      if (type === 'web_search_result' || type === 'search_result') return [str(b, 'title'), str(b, 'url') ?? str(b, 'source')].filter(Boolean).join(' ');
      return placeholder(b, type);
    })
    .join('\n');
}

/** True for items that came from an Anthropic `compaction` block. */
export function isAnthropicCompaction(item: Item): boolean {
  return item.meta?.['blockType'] === 'compaction';
}

/** One content block → an item, or null when the block is unreadable (reported through ctx). */
function blockToItem(block: unknown, role: Role, id: string, ctx: ParseContext, where: At): Item | null {
  const source = { file: ctx.file, line: where.line ?? null };
  const sub = (...keys: (string | number)[]): At => ({ ...where, path: [...(where.path ?? []), ...keys] });
  if (typeof block === 'string') return textItem({ id, role, source }, block, 'message');
  if (!isObject(block)) {
    ctx.error(where, `expected a content block object, got ${block === null ? 'null' : typeof block}`);
    return null;
  }
  const type = str(block, 'type');
  const meta = cacheMeta(block);
  const withMeta = (item: Item): Item => {
    if (meta) item.meta = { ...(item.meta ?? {}), ...meta };
    return item;
  };
  switch (type) {
    case 'text':
      return withMeta(textItem({ id, role, source }, str(block, 'text') ?? '', 'message'));
    case 'thinking':
      return withMeta({ id, kind: 'thinking', role: 'assistant', text: str(block, 'thinking') ?? '', source });
    case 'redacted_thinking':
      return withMeta({ id, kind: 'thinking', role: 'assistant', text: '[redacted thinking]', source, meta: { encrypted: true } });
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const name = str(block, 'name');
      const callId = str(block, 'id');
      if (!name) ctx.warn(sub('name'), `${type} block has no name`);
      if (!callId) ctx.warn(sub('id'), `${type} block has no id; its result cannot be paired with it`);
      return withMeta({ id, kind: 'tool_call', role: 'assistant', text: asText(get(block, 'input')), source, ...(name ? { name } : {}), ...(callId ? { callId } : {}) });
    }
    case 'compaction': {
      // Anthropic's compaction block holds the readable summary that replaces the earlier turns; a proxy
      // that re-encodes it may keep only `encrypted_content`, which nobody can read.
      const content = get(block, 'content');
      const encrypted = str(block, 'encrypted_content');
      const readable = typeof content === 'string' && content !== '';
      const text = readable ? content : encrypted !== undefined ? `[encrypted compaction, ${encrypted.length} chars]` : '[compaction]';
      return withMeta({ id, kind: 'summary', role: 'assistant', text, source, meta: { blockType: 'compaction', encrypted: !readable && encrypted !== undefined } });
    }
    case 'image':
    case 'document':
    case 'container_upload':
      return withMeta({ id, kind: 'message', role, text: placeholder(block, type), source });
    case undefined:
      ctx.error(sub('type'), 'content block has no type');
      return null;
    default:
      if (type === 'tool_result' || type.endsWith('_tool_result')) {
        const callId = str(block, 'tool_use_id');
        if (!callId) ctx.warn(sub('tool_use_id'), `${type} block has no tool_use_id; it cannot be paired with its call`);
        const item = textItem({ id, role: 'tool', source, ...(callId ? { callId } : {}) }, anthropicResultText(get(block, 'content')), 'tool_result');
        if (item.kind === 'message') item.kind = 'tool_result';
        if (get(block, 'is_error') === true) item.isError = true;
        return withMeta(item);
      }
      ctx.warn(sub('type'), `unknown content block type ${JSON.stringify(type)} kept as a placeholder`);
      return withMeta({ id, kind: 'message', role, text: placeholder(block, type), source });
  }
}

/** Items of one message's content: a string, or blocks (one item per block, so cache breakpoints keep their place). */
export function anthropicContentToItems(content: unknown, role: Role, ctx: ParseContext, where: At, id: string): Item[] {
  const source = { file: ctx.file, line: where.line ?? null };
  if (typeof content === 'string') return [textItem({ id, role, source }, content, 'message')];
  if (!Array.isArray(content)) {
    ctx.error({ ...where, path: [...(where.path ?? []), 'content'] }, 'expected `content` to be a string or an array of blocks');
    return [];
  }
  const items: Item[] = [];
  content.forEach((block, j) => {
    const item = blockToItem(block, role, `${id}.${j}`, ctx, { ...where, path: [...(where.path ?? []), 'content', j] });
    if (item) items.push(item);
  });
  return items;
}

/**
 * Converts a Messages request body to items: `system` first (role system), then `messages`.
 * Shared with the request-log adapter. `at(path)` locates a field of the body (e.g. `['messages', 3]`).
 * Ids: `${prefix}system` (or `${prefix}system.${j}` per system block), `${prefix}m${i}` for string
 * content, `${prefix}m${i}.${j}` per block.
 */
export function anthropicToItems(body: JsonObject, ctx: ParseContext, at: PathAt, prefix = ''): Item[] {
  const items: Item[] = [];
  const system = get(body, 'system');
  if (typeof system === 'string') {
    if (system) items.push({ id: `${prefix}system`, kind: 'message', role: 'system', text: system, source: { file: ctx.file, line: at(['system']).line ?? null } });
  } else if (Array.isArray(system)) {
    system.forEach((block, j) => {
      const item = blockToItem(block, 'system', `${prefix}system.${j}`, ctx, at(['system', j]));
      if (item) items.push(item);
    });
  } else if (system !== undefined && system !== null) {
    ctx.error(at(['system']), 'expected `system` to be a string or an array of text blocks');
  }
  const messages = arr(body, 'messages') ?? [];
  messages.forEach((m, i) => {
    const where = at(['messages', i]);
    if (!isObject(m)) {
      ctx.error(where, `expected a message object, got ${m === null ? 'null' : typeof m}`);
      return;
    }
    const roleRaw = get(m, 'role');
    if (roleRaw !== 'user' && roleRaw !== 'assistant') {
      ctx.error(at(['messages', i, 'role']), `unknown role ${JSON.stringify(roleRaw)}; expected user or assistant`);
      return;
    }
    items.push(...anthropicContentToItems(get(m, 'content'), roleRaw, ctx, where, `${prefix}m${i}`));
  });
  return items;
}

/**
 * The Claude API's cache diagnostics (beta `cache-diagnosis-2026-04-07`): the request opts in with
 * `diagnostics.previous_message_id`, and the response carries `diagnostics.cache_miss_reason.type`
 * (`model_changed`, `system_changed`, `tools_changed`, `messages_changed`, `previous_message_not_found`,
 * `unavailable`), or `diagnostics: null` when the comparison found no divergence. Returns that type, `hit`, or null
 * when the call did not ask, had nothing to compare against, or the comparison was still running.
 */
export function anthropicDiagnostic(request: unknown, response: unknown): string | null {
  const asked = isObject(request) ? get(request, 'diagnostics') : undefined;
  if (!isObject(asked) || typeof get(asked, 'previous_message_id') !== 'string') return null;
  if (!isObject(response) || !('diagnostics' in response)) return null;
  const d = get(response, 'diagnostics');
  if (d === null) return 'hit';
  if (!isObject(d)) return null;
  const reason = get(d, 'cache_miss_reason');
  return isObject(reason) ? (str(reason, 'type') ?? null) : null;
}

/**
 * Usage of a Messages response: cache writes and reads are reported apart from `input_tokens` (the uncached rest;
 * Anthropic's prompt caching docs: total input = input + cache_creation + cache_read). Written once per response.
 */
export function anthropicUsage(u: unknown): Usage | null {
  if (!isObject(u)) return null;
  const usage = cacheApartUsage(num(u, 'input_tokens') ?? null, num(u, 'output_tokens') ?? null, num(u, 'cache_read_input_tokens') ?? null, num(u, 'cache_creation_input_tokens') ?? null);
  // Claude Code and the API split cache writes by lifetime; the 1-hour TTL is read from here.
  const split = get(u, 'cache_creation');
  if (isObject(split)) {
    usage.cacheWrite5m = num(split, 'ephemeral_5m_input_tokens') ?? null;
    usage.cacheWrite1h = num(split, 'ephemeral_1h_input_tokens') ?? null;
  }
  return (usage.input === null && usage.output === null) || !reportsACall(usage) ? null : usage;
}

function hasSpecificBlock(messages: unknown[]): boolean {
  return messages.slice(0, 50).some((m) => {
    const content = isObject(m) ? get(m, 'content') : undefined;
    return (
      Array.isArray(content) &&
      content.some((b) => isObject(b) && (SPECIFIC_BLOCKS.has(str(b, 'type') ?? '') || get(b, 'cache_control') !== undefined || (str(b, 'type') === 'image' && isObject(get(b, 'source')))))
    );
  });
}

function onlyUserAssistant(messages: unknown[]): boolean {
  return messages.slice(0, 50).every((m) => isObject(m) && (get(m, 'role') === 'user' || get(m, 'role') === 'assistant') && get(m, 'content') !== undefined);
}

/** Whether a parsed body (with `messages`) is an Anthropic Messages request rather than Chat Completions. */
export function looksLikeAnthropicBody(body: JsonObject): boolean {
  const messages = arr(body, 'messages');
  if (!messages || !onlyUserAssistant(messages)) return false;
  const system = get(body, 'system');
  return typeof system === 'string' || Array.isArray(system) || hasSpecificBlock(messages);
}

/** A Messages response object: `{type:"message", role:"assistant", content:[…]}`. */
export function isAnthropicResponse(v: unknown): v is JsonObject {
  return isObject(v) && get(v, 'type') === 'message' && get(v, 'role') === 'assistant' && Array.isArray(get(v, 'content'));
}

export const anthropic: FormatAdapter = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    const v = doc.value;
    if (Array.isArray(v)) return v.length > 0 && onlyUserAssistant(v) && hasSpecificBlock(v) ? 0.85 : 0;
    if (!isObject(v)) return 0;
    if (isAnthropicResponse(v)) return 0.95;
    const messages = arr(v, 'messages');
    if (!messages || messages.length === 0 || !onlyUserAssistant(messages)) return 0;
    // Above OpenAI Chat's 0.6/0.8: a top-level system or Anthropic-only blocks settle it.
    if (hasSpecificBlock(messages)) return 0.9;
    const system = get(v, 'system');
    return typeof system === 'string' || Array.isArray(system) ? 0.85 : 0;
  },
  parse(doc, ctx) {
    const session = emptySession('anthropic', ctx.file, idFromFile(ctx.file));
    const v = doc.kind === 'json' ? doc.value : undefined;
    const at: PathAt = (p) => ({ path: p });
    if (Array.isArray(v)) {
      session.items = anthropicToItems({ messages: v }, ctx, (p) => ({ path: p.slice(1) }));
    } else if (isAnthropicResponse(v)) {
      const responseId = str(v, 'id') ?? 'response';
      session.model = str(v, 'model') ?? null;
      session.items = anthropicContentToItems(get(v, 'content'), 'assistant', ctx, { path: [] }, 'm0');
      for (const it of session.items) it.responseId = responseId;
      const response: ModelResponse = {
        id: responseId,
        index: 0,
        itemIds: session.items.map((it) => it.id),
        usage: anthropicUsage(get(v, 'usage')),
        model: session.model,
        source: { file: ctx.file, line: null },
      };
      session.responses.push(response);
    } else if (isObject(v) && Array.isArray(get(v, 'messages'))) {
      session.items = anthropicToItems(v, ctx, at);
      session.model = str(v, 'model') ?? null;
      const sid = strAt(v, 'metadata.session_id');
      if (sid) session.id = sid;
      const cc = get(v, 'cache_control');
      if (isObject(cc)) session.meta['cacheControl'] = str(cc, 'type') ?? 'ephemeral';
    } else {
      ctx.error({ path: ['messages'] }, 'expected a `messages` array');
    }
    session.compactions = compactionsAtItems(session.items, isAnthropicCompaction);
    return [session];
  },
};
