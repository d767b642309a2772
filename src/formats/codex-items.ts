// Codex rollout `response_item` payloads (Responses API items) → items.
import { arr, asText, get, isObject, str, type JsonObject } from '../model/narrow';
import { redactionHint } from '../model/markers';
import type { Item, Role } from '../model/types';
import type { ParseContext } from './adapter';
import { own } from '../model/dictionary';

const ROLES: Record<string, Role> = { user: 'user', assistant: 'assistant', developer: 'developer', system: 'system' };

/** Response items Codex keeps for itself (undo snapshots); they never reach the model. */
export const CODEX_PRIVATE_ITEMS = new Set(['ghost_snapshot']);

export interface CodexItem {
  item: Item;
  /** Produced by the model (reasoning, assistant text, tool calls): part of a model response. */
  fromModel: boolean;
}

/** Text of message `content`: parts `input_text` / `output_text` / `refusal`; images as `[image]`. */
export function codexContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : asText(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      const text = str(part, 'text') ?? str(part, 'refusal');
      if (text !== undefined) return text;
      const type = str(part, 'type') ?? 'part';
      return type === 'input_image' ? '[image]' : `[${type}]`;
    })
    .join('\n');
}

/** A tool output: a string, or `{content | output}` objects some versions write. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output)) {
    const inner = get(output, 'content') ?? get(output, 'output');
    if (inner !== undefined) return Array.isArray(inner) ? codexContentText(inner) : asText(inner);
  }
  return asText(output);
}

/** Encrypted reasoning is not text; a redacting exporter's placeholder for it is small and kept. */
function encryptedMeta(p: JsonObject): Item['meta'] | undefined {
  const enc = str(p, 'encrypted_content');
  if (!enc) return undefined;
  return redactionHint(enc) ? { encryptedContent: enc.trim() } : { encrypted: true };
}

/**
 * One response item → one item, or null for types this parser does not turn into conversation
 * (reported by the caller). `at` is the payload's path for problems.
 */
export function codexItem(p: JsonObject, id: string, line: number, ctx: ParseContext, at: (string | number)[]): CodexItem | null {
  const type = str(p, 'type');
  const source = { file: ctx.file, line };
  const make = (kind: Item['kind'], role: Role, text: string, extra: Partial<Item> = {}): Item => {
    const item: Item = { id, kind, role, text, source, ...extra };
    const hint = redactionHint(text);
    if (hint) item.redacted = hint;
    return item;
  };
  const callId = str(p, 'call_id');
  const name = str(p, 'name');
  const call = { ...(callId ? { callId } : {}), ...(name ? { name } : {}) };
  switch (type) {
    case 'message': {
      const roleRaw = get(p, 'role');
      const role = typeof roleRaw === 'string' ? own(ROLES, roleRaw) : undefined;
      if (!role) {
        ctx.error({ line, path: [...at, 'role'] }, `unknown message role ${JSON.stringify(roleRaw)}; expected user, assistant, developer or system`);
        return null;
      }
      const content = get(p, 'content');
      if (!Array.isArray(content) && typeof content !== 'string') {
        ctx.error({ line, path: [...at, 'content'] }, 'message has no content parts');
        return null;
      }
      const phase = str(p, 'phase');
      return { item: make('message', role, codexContentText(content), phase ? { meta: { phase } } : {}), fromModel: role === 'assistant' };
    }
    case 'reasoning': {
      const parts = (arr(p, 'summary') ?? []).map((s) => (isObject(s) ? (str(s, 'text') ?? '') : typeof s === 'string' ? s : ''));
      // Open-weight models record the raw reasoning in `content`; OpenAI models only a summary.
      const raw = (arr(p, 'content') ?? []).map((s) => (isObject(s) ? (str(s, 'text') ?? '') : ''));
      const text = (parts.some(Boolean) ? parts : raw).filter(Boolean).join('\n\n');
      const item = make('thinking', 'assistant', text);
      const meta = encryptedMeta(p);
      if (meta) item.meta = meta;
      if (!item.redacted && !text && typeof meta?.['encryptedContent'] === 'string') {
        const hint = redactionHint(meta['encryptedContent']);
        if (hint) item.redacted = hint;
      }
      return { item, fromModel: true };
    }
    case 'function_call':
      if (!callId) ctx.warn({ line, path: [...at, 'call_id'] }, 'function_call has no call_id; it cannot be paired with its output');
      return { item: make('tool_call', 'assistant', asText(get(p, 'arguments')), call), fromModel: true };
    case 'custom_tool_call':
      if (!callId) ctx.warn({ line, path: [...at, 'call_id'] }, 'custom_tool_call has no call_id; it cannot be paired with its output');
      return { item: make('tool_call', 'assistant', asText(get(p, 'input')), call), fromModel: true };
    case 'function_call_output':
    case 'custom_tool_call_output':
      if (!callId) ctx.warn({ line, path: [...at, 'call_id'] }, `${type} has no call_id; it cannot be paired with its call`);
      return { item: make('tool_result', 'tool', outputText(get(p, 'output')), call), fromModel: false };
    case 'local_shell_call': {
      const localId = callId ?? str(p, 'id');
      return { item: make('tool_call', 'assistant', asText(get(p, 'action')), { name: 'local_shell', ...(localId ? { callId: localId } : {}) }), fromModel: true };
    }
    // Tool search (CLI 0.13x+): the model asks for tools by query; the output's `tools` are the schemas it loads into
    // the conversation (codex-rs ResponseItem::ToolSearchOutput), so they are context like any tool output.
    case 'tool_search_call':
      return { item: make('tool_call', 'assistant', asText(get(p, 'arguments')), { name: 'tool_search', ...(callId ? { callId } : {}) }), fromModel: true };
    case 'tool_search_output':
      return { item: make('tool_result', 'tool', asText(get(p, 'tools')), { name: 'tool_search', ...(callId ? { callId } : {}) }), fromModel: false };
    // Multi-agent (CLI 0.147): another agent's message to this one (`author` /root/reviewer, `recipient` /root), delivered
    // into its input; the agent's own report, not the person's words. An encrypted part reads `[encrypted_content]`.
    case 'agent_message': {
      const author = str(p, 'author');
      return { item: make('message', 'user', codexContentText(get(p, 'content')), { meta: { isMeta: true, agentMessage: true, ...(author ? { author } : {}) } }), fromModel: false };
    }
    case 'web_search_call':
      // Runs on the server: the call has no separate output item.
      return { item: make('tool_call', 'assistant', asText(get(p, 'action')), { name: 'web_search' }), fromModel: true };
    default:
      if (type?.endsWith('_call')) return { item: make('tool_call', 'assistant', '', { name: type, ...(callId ? { callId } : {}) }), fromModel: true };
      if (type?.endsWith('_call_output')) return { item: make('tool_result', 'tool', outputText(get(p, 'output')), callId ? { callId } : {}), fromModel: false };
      return null;
  }
}
