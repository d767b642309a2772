// OpenAI Responses API: a request body `{input:[…]}`, a response `{output:[…]}`, or a bare array of items.
import type { Document } from '../load/document';
import { arr, asText, get, isObject, num, numAt, str, strAt, type JsonObject } from '../model/narrow';
import { textItem } from '../model/markers';
import type { Item, ModelResponse, Role, Usage } from '../model/types';
import { cacheInsideUsage, reportsACall } from '../model/usage';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { compactionsAtItems } from './openai-responses-compaction';
import { countKey, own } from '../model/dictionary';

const ROLES: Record<string, Role> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'developer' };

/** Item types only the Responses API writes; any of them makes a list unmistakably Responses items. */
const SPECIFIC_TYPES = new Set([
  'function_call',
  'function_call_output',
  'reasoning',
  'compaction',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_call',
  'image_generation_call',
  'code_interpreter_call',
  'item_reference',
]);
const PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'input_audio', 'refusal']);
/** Item types that carry no conversation content: counted as skipped. */
const SKIPPED_TYPES = new Set(['item_reference', 'mcp_list_tools', 'mcp_approval_request', 'mcp_approval_response']);

function sub(at: At, ...keys: (string | number)[]): At {
  return { ...at, path: [...(at.path ?? []), ...keys] };
}

/** Text of message content: a string, or parts (`input_text`, `output_text`, `refusal`, `input_image`, …). */
export function responsesContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : asText(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      const text = str(part, 'text') ?? str(part, 'refusal');
      if (text !== undefined) return text;
      const type = str(part, 'type') ?? 'part';
      if (type === 'input_image') return '[image]';
      if (type === 'input_audio') return '[audio]';
      if (type === 'input_file') return str(part, 'filename') ? `[file ${str(part, 'filename')}]` : '[file]';
      return `[${type}]`;
    })
    .join('\n');
}

function joinedTexts(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v
    .map((p) => (typeof p === 'string' ? p : isObject(p) ? (str(p, 'text') ?? '') : ''))
    .filter((t) => t)
    .join('\n\n');
}

/** Tool input of a `*_call` item, whichever field that call type uses. */
function callInput(raw: JsonObject): string {
  for (const key of ['arguments', 'input', 'code', 'queries', 'action', 'prompt']) {
    const v = get(raw, key);
    if (v !== undefined && v !== null) return asText(v);
  }
  return '';
}

/** Marks items that came from a native `compaction` item, so compaction events can be derived. */
export function isResponsesCompaction(item: Item): boolean {
  return item.meta?.['itemType'] === 'compaction';
}

/**
 * Converts Responses items to items. Shared with the request-log adapter.
 * `at(i)` locates item i for error reporting. Ids are the item's own `id` where it has one (and it is
 * unused so far), else `${prefix}${i}`. Items without conversation content are counted in `skipped`.
 */
export function responsesItemsToItems(
  list: unknown[],
  ctx: ParseContext,
  at: (i: number) => At,
  prefix = 'm',
  skipped: Record<string, number> = {},
): Item[] {
  const items: Item[] = [];
  const used = new Set<string>();
  const unique = (want: string): string => {
    let id = want;
    for (let n = 2; used.has(id); n++) id = `${want}~${n}`;
    used.add(id);
    return id;
  };
  list.forEach((raw, i) => {
    const where = at(i);
    if (!isObject(raw)) {
      ctx.error(where, `expected a Responses item object, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`);
      return;
    }
    const type = str(raw, 'type') ?? (get(raw, 'role') !== undefined ? 'message' : undefined);
    const source = { file: ctx.file, line: where.line ?? null };
    const ownId = str(raw, 'id');
    const id = unique(ownId && !used.has(ownId) ? ownId : `${prefix}${i}`);
    const callId = str(raw, 'call_id');
    const withCall = callId ? { callId } : {};
    if (type === undefined) {
      ctx.error(sub(where, 'type'), 'item has neither `type` nor `role`');
      return;
    }
    if (type === 'message') {
      const roleRaw = get(raw, 'role');
      const role = typeof roleRaw === 'string' ? own(ROLES, roleRaw) : undefined;
      if (!role) {
        ctx.error(sub(where, 'role'), `unknown role ${JSON.stringify(roleRaw)}; expected user, assistant, system or developer`);
        return;
      }
      items.push(textItem({ id, role, source }, responsesContentText(get(raw, 'content')), 'message'));
      return;
    }
    if (type === 'reasoning') {
      const encrypted = str(raw, 'encrypted_content');
      const text = joinedTexts(get(raw, 'content')) || joinedTexts(get(raw, 'summary')) || (encrypted !== undefined ? `[encrypted reasoning, ${encrypted.length} chars]` : '');
      const item = textItem({ id, role: 'assistant', source }, text, 'thinking');
      item.kind = 'thinking';
      if (encrypted !== undefined) item.meta = { encrypted: true };
      items.push(item);
      return;
    }
    if (type === 'compaction') {
      // Opaque in the real API (`encrypted_content`); some harnesses log a readable `summary` instead.
      const encrypted = str(raw, 'encrypted_content');
      const text = joinedTexts(get(raw, 'summary')) || joinedTexts(get(raw, 'content')) || `[encrypted compaction, ${(encrypted ?? '').length} chars]`;
      items.push({ id, kind: 'summary', role: 'assistant', text, source, meta: { itemType: 'compaction', encrypted: encrypted !== undefined } });
      return;
    }
    if (type.endsWith('_call')) {
      // Function and custom tool calls name the tool; hosted calls (`web_search_call`, …) are named by their type.
      const hosted = type !== 'function_call' && type !== 'custom_tool_call';
      const name = str(raw, 'name') ?? (hosted ? type.slice(0, -'_call'.length) : undefined);
      if (!name) ctx.warn(sub(where, 'name'), `${type} has no name`);
      const linkId = callId ?? ownId;
      items.push({ id, kind: 'tool_call', role: 'assistant', text: callInput(raw), source, ...(name ? { name } : {}), ...(linkId ? { callId: linkId } : {}) });
      // Hosted calls (mcp_call, code_interpreter_call, …) carry their own result.
      const output = get(raw, 'output') ?? get(raw, 'outputs') ?? get(raw, 'results');
      if (hosted && output !== undefined && output !== null) {
        items.push({ id: unique(`${id}.output`), kind: 'tool_result', role: 'tool', text: asText(output), source, ...(name ? { name } : {}), ...(linkId ? { callId: linkId } : {}) });
      }
      return;
    }
    if (type.endsWith('_call_output')) {
      if (!callId) ctx.warn(sub(where, 'call_id'), `${type} has no call_id; it cannot be paired with its call`);
      const output = get(raw, 'output');
      const text = Array.isArray(output) ? responsesContentText(output) : asText(output);
      const item = textItem({ id, role: 'tool', source, ...withCall }, text, 'tool_result');
      if (item.kind === 'message') item.kind = 'tool_result';
      items.push(item);
      return;
    }
    used.delete(id);
    countKey(skipped, type);
    if (!SKIPPED_TYPES.has(type)) ctx.warn(sub(where, 'type'), `unknown Responses item type ${JSON.stringify(type)} skipped`);
  });
  return items;
}

/**
 * The items of a request body: `instructions` (as a system item), then `input` (a string or items).
 * Ids: `${base}instructions`, then the items' own ids or `${base}m${i}` (same scheme as `anthropicToItems`).
 */
export function responsesRequestItems(body: JsonObject, ctx: ParseContext, at: (path: (string | number)[]) => At, base = '', skipped: Record<string, number> = {}): Item[] {
  const items: Item[] = [];
  const instructions = get(body, 'instructions');
  if (typeof instructions === 'string' && instructions) {
    items.push({ id: `${base}instructions`, kind: 'message', role: 'system', text: instructions, source: { file: ctx.file, line: at(['instructions']).line ?? null } });
  } else if (Array.isArray(instructions)) {
    items.push(...responsesItemsToItems(instructions, ctx, (i) => at(['instructions', i]), `${base}instructions.`, skipped));
  }
  const input = get(body, 'input');
  if (typeof input === 'string') {
    items.push(textItem({ id: `${base}m0`, role: 'user', source: { file: ctx.file, line: at(['input']).line ?? null } }, input, 'message'));
  } else if (Array.isArray(input)) {
    items.push(...responsesItemsToItems(input, ctx, (i) => at(['input', i]), `${base}m`, skipped));
  }
  return items;
}

/**
 * Usage of a Responses body: `input_tokens` (the whole prompt, cached tokens included), `output_tokens` (reasoning
 * included), `input_tokens_details.cached_tokens` and, where reported, `cache_write_tokens`, both parts of the input.
 */
export function responsesUsage(u: unknown): Usage | null {
  if (!isObject(u)) return null;
  const usage = cacheInsideUsage(num(u, 'input_tokens') ?? null, num(u, 'output_tokens') ?? null, numAt(u, 'input_tokens_details.cached_tokens'), numAt(u, 'input_tokens_details.cache_write_tokens'));
  return (usage.input === null && usage.output === null) || !reportsACall(usage) ? null : usage;
}

/** `created_at` in Unix seconds → ISO time. */
export function unixSecondsToIso(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(v * 1000).toISOString() : undefined;
}

/** True for LiveKit ChatContext items, which also use `type: "message"` but hold plain-string content. */
function looksLikeLivekit(item: JsonObject): boolean {
  const type = str(item, 'type');
  if (type === 'agent_handoff' || type === 'agent_config_update') return true;
  if (get(item, 'created_at') !== undefined && type === 'message') return true;
  const content = get(item, 'content');
  return Array.isArray(content) && content.length > 0 && content.every((c) => typeof c === 'string');
}

/** Share of items that look like Responses items, and whether any shape is specific to this API. */
function scoreItems(list: unknown[]): number {
  const sample = list.slice(0, 30).filter(isObject);
  if (sample.length === 0 || sample.length < Math.min(list.length, 30) * 0.8) return 0;
  if (sample.some(looksLikeLivekit)) return 0;
  let ok = 0;
  let specific = false;
  for (const item of sample) {
    const type = str(item, 'type');
    if (type !== undefined && (SPECIFIC_TYPES.has(type) || type.endsWith('_call') || type.endsWith('_call_output'))) {
      ok++;
      specific = true;
      continue;
    }
    if ((type === 'message' || type === undefined) && typeof get(item, 'role') === 'string') {
      ok++;
      if (type === 'message') specific = true;
      const content = get(item, 'content');
      if (Array.isArray(content) && content.some((p) => isObject(p) && PART_TYPES.has(str(p, 'type') ?? ''))) specific = true;
    }
  }
  if (ok / sample.length < 0.8) return 0;
  return specific ? 0.9 : 0.55;
}

export const openaiResponses: FormatAdapter = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    const v = doc.value;
    if (Array.isArray(v)) return scoreItems(v) >= 0.9 ? 0.85 : 0;
    if (!isObject(v)) return 0;
    // Chat Completions and LiveKit own these keys.
    if (get(v, 'messages') !== undefined || get(v, 'items') !== undefined) return 0;
    const output = arr(v, 'output');
    if (output && str(v, 'object') === 'response') return 0.95;
    const input = get(v, 'input');
    if (Array.isArray(input)) return input.length === 0 ? (str(v, 'model') ? 0.6 : 0) : scoreItems(input);
    if (typeof input === 'string' && str(v, 'model')) return 0.6;
    if (output && output.length > 0) return scoreItems(output) >= 0.9 ? 0.85 : 0;
    return 0;
  },
  parse(doc, ctx) {
    const session = emptySession('openai-responses', ctx.file, idFromFile(ctx.file));
    const value = doc.kind === 'json' ? doc.value : undefined;
    const at = (p: (string | number)[]): At => ({ path: p });
    if (Array.isArray(value)) {
      session.items = responsesItemsToItems(value, ctx, (i) => at([i]), 'm', session.skipped);
    } else if (isObject(value)) {
      const input = get(value, 'input');
      const output = get(value, 'output');
      if (input === undefined && output === undefined) ctx.error({ path: ['input'] }, 'expected an `input` or `output` array of Responses items');
      if (output !== undefined && !Array.isArray(output)) ctx.error({ path: ['output'] }, 'expected `output` to be an array of items');
      session.items = responsesRequestItems(value, ctx, at, '', session.skipped);
      session.model = str(value, 'model') ?? null;
      const sid = strAt(value, 'metadata.session_id');
      if (sid) session.id = sid;
      const prev = str(value, 'previous_response_id');
      if (prev) session.meta['previousResponseId'] = prev;
      if (Array.isArray(output)) {
        const responseId = str(value, 'id') ?? 'response';
        const produced = responsesItemsToItems(output, ctx, (i) => at(['output', i]), 'out', session.skipped);
        for (const it of produced) it.responseId = responseId;
        session.items.push(...produced);
        const timestamp = unixSecondsToIso(get(value, 'created_at'));
        const response: ModelResponse = {
          id: responseId,
          index: 0,
          itemIds: produced.map((it) => it.id),
          usage: responsesUsage(get(value, 'usage')),
          model: session.model,
          ...(timestamp ? { timestamp } : {}),
          source: { file: ctx.file, line: null },
        };
        session.responses.push(response);
      }
    } else {
      ctx.error({}, 'expected a Responses request, response or array of items');
    }
    session.compactions = compactionsAtItems(session.items, isResponsesCompaction);
    return [session];
  },
};
