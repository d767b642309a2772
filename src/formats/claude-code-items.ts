// Claude Code `user` / `assistant` records → items, one per content block.
import { asText, get, isObject, str, type JsonObject } from '../model/narrow';
import { classifyText } from '../model/markers';
import type { Item, Role } from '../model/types';
import type { ParseContext } from './adapter';
import { isClearedToolResult } from './claude-code-compaction';

/** Text of a tool result's `content`: a string, or blocks (`text`, `image`, …). */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : asText(content);
  return content
    .map((b) => {
      if (typeof b === 'string') return b;
      if (!isObject(b)) return '';
      const text = str(b, 'text');
      if (text !== undefined) return text;
      return `[${str(b, 'type') ?? 'block'}]`;
    })
    .join('\n');
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : typeof v;
}

/** Record-level flags worth keeping on every item of the record. */
function recordMeta(v: JsonObject): Item['meta'] | undefined {
  const meta: NonNullable<Item['meta']> = {};
  for (const key of ['isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'isApiErrorMessage'] as const) {
    if (get(v, key) === true) meta[key] = true;
  }
  // The tool call whose run wrote this record (a Skill's injected instructions), so the record is the harness's.
  const source = str(v, 'sourceToolUseID');
  if (source) meta['sourceToolUseID'] = source;
  const message = get(v, 'message');
  if (isObject(message) && get(message, 'model') === '<synthetic>') meta['synthetic'] = true;
  return Object.keys(meta).length ? meta : undefined;
}

/**
 * Items of one `user` or `assistant` record, or null when the record is unusable (the problem is
 * reported with its line and field). Ids: the record uuid for one block, `${uuid}.${i}` for several.
 */
export function recordItems(v: JsonObject, line: number, ctx: ParseContext): Item[] | null {
  const type = get(v, 'type') === 'assistant' ? 'assistant' : 'user';
  const message = get(v, 'message');
  if (!isObject(message)) {
    ctx.error({ line, path: ['message'] }, `${type} record has no message object (got ${describe(message)})`);
    return null;
  }
  const content = get(message, 'content');
  const uuid = str(v, 'uuid') ?? `L${line}`;
  const role: Role = type;
  const timestamp = str(v, 'timestamp');
  const meta = recordMeta(v);
  const compactSummary = get(v, 'isCompactSummary') === true;
  const make = (id: string, kind: Item['kind'], itemRole: Role, text: string, extra: Partial<Item> = {}): Item => {
    const item: Item = { id, kind, role: itemRole, text, source: { file: ctx.file, line }, ...extra };
    if (timestamp) item.timestamp = timestamp;
    if (meta || extra.meta) item.meta = { ...meta, ...extra.meta };
    return item;
  };
  // Prompts and hook context; a compact summary (or an older unflagged continuation summary) is a summary.
  const userText = (id: string, text: string): Item =>
    make(id, type === 'user' && (compactSummary || classifyText(text) === 'summary') ? 'summary' : 'message', role, text);

  if (typeof content === 'string') return [userText(uuid, content)];
  if (!Array.isArray(content)) {
    ctx.error({ line, path: ['message', 'content'] }, `expected message.content to be a string or an array of content blocks, got ${describe(content)}`);
    return null;
  }
  const items: Item[] = [];
  const several = content.length > 1;
  content.forEach((block, i) => {
    const id = several ? `${uuid}.${i}` : uuid;
    const at = ['message', 'content', i];
    const blockType = isObject(block) ? get(block, 'type') : undefined;
    if (!isObject(block) || typeof blockType !== 'string') {
      ctx.error({ line, path: isObject(block) ? [...at, 'type'] : at }, 'expected a content block with a string `type`');
      return;
    }
    const field = (name: string): string | null => {
      const value = get(block, name);
      if (typeof value === 'string') return value;
      ctx.error({ line, path: [...at, name] }, `${blockType} block has no string \`${name}\` (got ${describe(value)})`);
      return null;
    };
    switch (blockType) {
      case 'text': {
        const text = field('text');
        if (text !== null) items.push(type === 'user' ? userText(id, text) : make(id, 'message', role, text));
        return;
      }
      case 'thinking': {
        const text = field('thinking');
        if (text !== null) items.push(make(id, 'thinking', 'assistant', text));
        return;
      }
      case 'redacted_thinking':
        // The model saw encrypted reasoning; its text is not in the transcript.
        items.push(make(id, 'thinking', 'assistant', '[redacted_thinking]', { meta: { redactedThinking: true } }));
        return;
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use': {
        const callId = str(block, 'id');
        const name = str(block, 'name');
        if (!callId) ctx.warn({ line, path: [...at, 'id'] }, 'tool_use block has no id; it cannot be paired with its result');
        items.push(make(id, 'tool_call', 'assistant', asText(get(block, 'input')), { ...(name ? { name } : {}), ...(callId ? { callId } : {}) }));
        return;
      }
      default:
        if (blockType === 'tool_result' || blockType.endsWith('_tool_result')) {
          const callId = str(block, 'tool_use_id');
          if (!callId) ctx.warn({ line, path: [...at, 'tool_use_id'] }, 'tool_result block has no tool_use_id; it cannot be paired with its call');
          const text = toolResultText(get(block, 'content'));
          const extra: Partial<Item> = { ...(callId ? { callId } : {}) };
          if (get(block, 'is_error') === true) extra.isError = true;
          if (isClearedToolResult(text)) extra.omission = { target: 'tool_result', refs: [], marker: text.trim() };
          items.push(make(id, 'tool_result', 'tool', text, extra));
          return;
        }
        // image, document, and block types this parser does not know: kept as a placeholder.
        items.push(make(id, 'message', role, `[${blockType}]`));
    }
  });
  return items;
}
