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

const RECORD_FLAGS = ['isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'isApiErrorMessage'] as const;

/** The `kind` of a Claude Code `origin` object (`{"kind":"human"}`, `{"kind":"task-notification"}`), else undefined. */
export function originKind(origin: unknown): string | undefined {
  if (!isObject(origin)) return undefined;
  const kind = get(origin, 'kind');
  return typeof kind === 'string' && kind !== '' ? kind : undefined;
}

/** Record-level flags worth keeping on every item of the record. */
function recordMeta(v: JsonObject): Item['meta'] | undefined {
  const meta: NonNullable<Item['meta']> = {};
  for (let k = 0; k < RECORD_FLAGS.length; k++) {
    const key = RECORD_FLAGS[k]!;
    if (get(v, key) === true) meta[key] = true;
  }
  // The tool call whose run wrote this record (a Skill's injected instructions), so the record is the harness's.
  const source = str(v, 'sourceToolUseID');
  if (source) meta['sourceToolUseID'] = source;
  // Who wrote a user record, as Claude Code names it (`origin.kind`; `human` for the person): see model/harness-messages.ts.
  const origin = originKind(get(v, 'origin'));
  if (origin !== undefined) meta['origin'] = origin;
  const message = get(v, 'message');
  if (isObject(message) && get(message, 'model') === '<synthetic>') meta['synthetic'] = true;
  return Object.keys(meta).length ? meta : undefined;
}

/** The problem's place inside the record: `message.content[i]` and, where given, the block's field. */
function blockPath(i: number, name?: string): (string | number)[] {
  return name === undefined ? ['message', 'content', i] : ['message', 'content', i, name];
}

/**
 * Items of one `user` or `assistant` record, or null when the record is unusable (the problem is
 * reported with its line and field). Ids: the record uuid for one block, `${uuid}.${i}` for several.
 * Runs once per record of a session (30k in a long one): no closures or path arrays per block, and each item is
 * written field by field in the order the spreads used to give (id, kind, role, text, source, the block's own
 * fields, timestamp, meta), so every item of a kind keeps one shape.
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
  const file = ctx.file;
  const finish = (item: Item): Item => {
    if (timestamp) item.timestamp = timestamp;
    if (meta) item.meta = { ...meta };
    return item;
  };
  // Prompts and hook context; a compact summary (or an older unflagged continuation summary) is a summary.
  const userText = (id: string, text: string): Item =>
    finish({ id, kind: type === 'user' && (compactSummary || classifyText(text) === 'summary') ? 'summary' : 'message', role, text, source: { file, line } });

  if (typeof content === 'string') return [userText(uuid, content)];
  if (!Array.isArray(content)) {
    ctx.error({ line, path: ['message', 'content'] }, `expected message.content to be a string or an array of content blocks, got ${describe(content)}`);
    return null;
  }
  const items: Item[] = [];
  const several = content.length > 1;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    const id = several ? `${uuid}.${i}` : uuid;
    const blockType = isObject(block) ? get(block, 'type') : undefined;
    if (!isObject(block) || typeof blockType !== 'string') {
      ctx.error({ line, path: isObject(block) ? blockPath(i, 'type') : blockPath(i) }, 'expected a content block with a string `type`');
      continue;
    }
    switch (blockType) {
      case 'text': {
        const text = get(block, 'text');
        if (typeof text !== 'string') missingField(ctx, line, i, blockType, 'text', text);
        else items.push(type === 'user' ? userText(id, text) : finish({ id, kind: 'message', role, text, source: { file, line } }));
        continue;
      }
      case 'thinking': {
        const text = get(block, 'thinking');
        if (typeof text !== 'string') missingField(ctx, line, i, blockType, 'thinking', text);
        else items.push(finish({ id, kind: 'thinking', role: 'assistant', text, source: { file, line } }));
        continue;
      }
      case 'redacted_thinking': {
        // The model saw encrypted reasoning; its text is not in the transcript.
        const item: Item = { id, kind: 'thinking', role: 'assistant', text: '[redacted_thinking]', source: { file, line }, meta: { redactedThinking: true } };
        if (timestamp) item.timestamp = timestamp;
        item.meta = { ...meta, redactedThinking: true };
        items.push(item);
        continue;
      }
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use': {
        const callId = str(block, 'id');
        const name = str(block, 'name');
        if (!callId) ctx.warn({ line, path: blockPath(i, 'id') }, 'tool_use block has no id; it cannot be paired with its result');
        const item: Item = { id, kind: 'tool_call', role: 'assistant', text: asText(get(block, 'input')), source: { file, line } };
        if (name) item.name = name;
        if (callId) item.callId = callId;
        items.push(finish(item));
        continue;
      }
      default:
        if (blockType === 'tool_result' || blockType.endsWith('_tool_result')) {
          const callId = str(block, 'tool_use_id');
          if (!callId) ctx.warn({ line, path: blockPath(i, 'tool_use_id') }, 'tool_result block has no tool_use_id; it cannot be paired with its call');
          const text = toolResultText(get(block, 'content'));
          const item: Item = { id, kind: 'tool_result', role: 'tool', text, source: { file, line } };
          if (callId) item.callId = callId;
          if (get(block, 'is_error') === true) item.isError = true;
          if (isClearedToolResult(text)) item.omission = { target: 'tool_result', refs: [], marker: text.trim() };
          items.push(finish(item));
          continue;
        }
        // image, document, and block types this parser does not know: kept as a placeholder.
        items.push(finish({ id, kind: 'message', role, text: `[${blockType}]`, source: { file, line } }));
    }
  }
  return items;
}

function missingField(ctx: ParseContext, line: number, i: number, blockType: string, name: string, value: unknown): void {
  ctx.error({ line, path: blockPath(i, name) }, `${blockType} block has no string \`${name}\` (got ${describe(value)})`);
}
