import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../load/document';
import { asText, get, isObject, str, type JsonObject } from '../model/narrow';
import { classifyText } from '../model/markers';
import type { Item, Role } from '../model/types';
import { createContext, type ParseContext } from './adapter';
import { isClearedToolResult } from './claude-code-compaction';
import { recordItems, toolResultText } from './claude-code-items';

const FIXTURES = new URL('./__fixtures__/', import.meta.url);
const CACHE_FIXTURES = new URL('../cache/__fixtures__/', import.meta.url);

/**
 * recordItems as it was written before it was made cheaper per block (one spread per item, closures per block):
 * the rewrite must give the same items, key order included, and the same problems.
 */
function referenceItems(v: JsonObject, line: number, ctx: ParseContext): Item[] | null {
  const describe = (x: unknown) => (x === undefined ? 'nothing' : x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x);
  const recordMeta = (): Item['meta'] | undefined => {
    const meta: NonNullable<Item['meta']> = {};
    for (const key of ['isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'isApiErrorMessage'] as const) if (get(v, key) === true) meta[key] = true;
    const source = str(v, 'sourceToolUseID');
    if (source) meta['sourceToolUseID'] = source;
    const origin = get(v, 'origin');
    if (isObject(origin) && typeof get(origin, 'kind') === 'string' && get(origin, 'kind') !== '') meta['origin'] = get(origin, 'kind') as string;
    const message = get(v, 'message');
    if (isObject(message) && get(message, 'model') === '<synthetic>') meta['synthetic'] = true;
    return Object.keys(meta).length ? meta : undefined;
  };
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
  const meta = recordMeta();
  const compactSummary = get(v, 'isCompactSummary') === true;
  const make = (id: string, kind: Item['kind'], itemRole: Role, text: string, extra: Partial<Item> = {}): Item => {
    const item: Item = { id, kind, role: itemRole, text, source: { file: ctx.file, line }, ...extra };
    if (timestamp) item.timestamp = timestamp;
    if (meta || extra.meta) item.meta = { ...meta, ...extra.meta };
    return item;
  };
  const userText = (id: string, text: string): Item => make(id, type === 'user' && (compactSummary || classifyText(text) === 'summary') ? 'summary' : 'message', role, text);
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
        items.push(make(id, 'message', role, `[${blockType}]`));
    }
  });
  return items;
}

/** Every user/assistant record of a JSONL text through one of the two, with the problems each filed. */
function itemsOf(name: string, text: string, build: typeof recordItems) {
  const parsed = parseDocument(name, text);
  if (!parsed.ok || parsed.doc.kind !== 'jsonl') throw new Error(`${name} is not JSONL`);
  const ctx = createContext(parsed.doc);
  const out: unknown[] = [];
  for (const { line, value } of parsed.doc.records) {
    if (!isObject(value) || (value['type'] !== 'user' && value['type'] !== 'assistant')) continue;
    // Key order is part of the result: JSON text keeps it.
    out.push(JSON.stringify(build(value, line, ctx)));
  }
  return { out, issues: ctx.issues };
}

const claudeCodeFixtures = [
  ...readdirSync(FIXTURES).filter((f) => f.startsWith('claude-code') && f.endsWith('.jsonl')).map((f) => new URL(f, FIXTURES)),
  ...readdirSync(CACHE_FIXTURES).filter((f) => f.startsWith('claude-code') && f.endsWith('.jsonl')).map((f) => new URL(f, CACHE_FIXTURES)),
];

describe('recordItems', () => {
  it.each(claudeCodeFixtures.map((u) => [u.pathname.split('/').pop()!, u] as const))('gives the items and problems the spread-based version gave on %s', (name, url) => {
    const text = readFileSync(url, 'utf8');
    const now = itemsOf(name, text, recordItems);
    const before = itemsOf(name, text, referenceItems);
    expect(now.out.length).toBeGreaterThan(0);
    expect(now.out).toEqual(before.out);
    expect(now.issues).toEqual(before.issues);
  });

  it('gives the same on every kind of block and every damaged block', () => {
    const base = { parentUuid: null, sessionId: 's', uuid: 'u-1', timestamp: '2026-03-02T02:00:00.000Z', isMeta: true, sourceToolUseID: 'toolu_9' };
    const records = [
      { ...base, type: 'user', message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary: …' } },
      { ...base, type: 'user', isCompactSummary: true, message: { role: 'user', content: [{ type: 'text', text: 'the summary' }] } },
      {
        ...base,
        type: 'assistant',
        message: {
          id: 'msg_1',
          model: '<synthetic>',
          content: [
            { type: 'thinking', thinking: 'hm' },
            { type: 'redacted_thinking', data: 'xx' },
            { type: 'text', text: 'hi' },
            { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
            { type: 'server_tool_use', input: 'q' },
            { type: 'image', source: {} },
            { type: 'text' },
            { type: 'thinking', thinking: 3 },
            { text: 'no type' },
            'a string block',
          ],
        },
      },
      {
        ...base,
        isMeta: false,
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a' }, { type: 'image' }], is_error: true },
            { type: 'tool_result', content: '[Old tool result content cleared]' },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { results: [] } },
          ],
        },
      },
      { ...base, type: 'assistant', message: { content: 7 } },
      { ...base, type: 'assistant', message: 'no object' },
    ];
    const text = records.map((r) => JSON.stringify(r)).join('\n');
    const now = itemsOf('blocks.jsonl', text, recordItems);
    expect(now.out).toEqual(itemsOf('blocks.jsonl', text, referenceItems).out);
    expect(now.issues).toEqual(itemsOf('blocks.jsonl', text, referenceItems).issues);
    expect(now.issues.map((i) => i.field)).toEqual([
      'message.content[4].id',
      'message.content[6].text',
      'message.content[7].thinking',
      'message.content[8].type',
      'message.content[9]',
      'message.content[1].tool_use_id',
      'message.content',
      'message',
    ]);
  });
});
