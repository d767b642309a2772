import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../load/document';
import { loadText } from '../load/loader';
import { createContext } from './adapter';
import { anthropic } from './anthropic';

// Fixtures imitate Messages API bodies: blocks as Claude Code sessions record them (thinking with a
// signature, tool_use/tool_result), plus system blocks with cache_control and a compaction block.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('anthropic', () => {
  it('turns the system blocks and every content block into items, in order', () => {
    const { sessions, issues } = loadText('req.json', fixture('anthropic-request.json'));
    expect(issues).toEqual([]);
    const [s] = sessions;
    expect(s!.format).toBe('anthropic');
    expect(s!.id).toBe('anth-demo-3');
    expect(s!.model).toBe('claude-sonnet-4-5');
    expect(s!.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['system.0', 'system', 'message'],
      ['system.1', 'system', 'message'],
      ['m0', 'user', 'message'],
      ['m1.0', 'assistant', 'thinking'],
      ['m1.1', 'assistant', 'message'],
      ['m1.2', 'assistant', 'tool_call'],
      ['m2.0', 'tool', 'tool_result'],
      ['m3.0', 'assistant', 'summary'],
      ['m3.1', 'assistant', 'thinking'],
      ['m3.2', 'assistant', 'tool_call'],
      ['m4.0', 'tool', 'tool_result'],
      ['m4.1', 'user', 'message'],
      ['m4.2', 'user', 'omission'],
    ]);
  });

  it('keeps cache_control breakpoints with their ttl on the block they mark', () => {
    const { sessions } = loadText('req.json', fixture('anthropic-request.json'));
    const byId = new Map(sessions[0]!.items.map((i) => [i.id, i]));
    expect(byId.get('system.0')!.meta).toBeUndefined();
    expect(byId.get('system.1')!.meta).toEqual({ cacheControl: 'ephemeral', cacheTtl: '1h' });
    expect(byId.get('m2.0')!.meta).toEqual({ cacheControl: 'ephemeral' });
  });

  it('pairs tool_use with tool_result, reads block content and the error flag', () => {
    const { sessions } = loadText('req.json', fixture('anthropic-request.json'));
    const byId = new Map(sessions[0]!.items.map((i) => [i.id, i]));
    expect(byId.get('m1.2')).toMatchObject({ name: 'read_file', callId: 'toolu_01', pairId: 'm2.0', text: '{"path":"config/db.yaml"}' });
    expect(byId.get('m2.0')).toMatchObject({ name: 'read_file', pairId: 'm1.2', text: 'host: db-prod-1\nport: 5432' });
    expect(byId.get('m4.0')).toMatchObject({ pairId: 'm3.2', isError: true, text: 'ENOENT: jobs/missing.py' });
    expect(byId.get('m1.0')!.text).toBe('Start with the config.');
    expect(byId.get('m3.1')).toMatchObject({ text: '[redacted thinking]', meta: { encrypted: true } });
    expect(byId.get('m4.1')!.text).toBe('[image]');
  });

  it('makes a compaction block a summary that replaces the turns before it', () => {
    const { sessions } = loadText('req.json', fixture('anthropic-request.json'));
    const s = sessions[0]!;
    expect(s.items.find((i) => i.id === 'm3.0')!.text).toBe('Checked config/db.yaml: db-prod-1:5432. Ticket FRE-512.');
    expect(s.compactions).toEqual([
      {
        id: 'm3.0',
        index: 0,
        kind: 'summary',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['m0', 'm1.0', 'm1.1', 'm1.2', 'm2.0'],
        keptIds: ['system.0', 'system.1'],
        summaryId: 'm3.0',
        atItemId: 'm3.0',
        source: { file: 'req.json', line: null },
      },
    ]);
  });

  it('records a response with cache writes and reads apart from input tokens', () => {
    const { sessions, issues } = loadText('resp.json', fixture('anthropic-response.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.responseId])).toEqual([
      ['m0.0', 'message', 'msg_01XyZ'],
      ['m0.1', 'tool_call', 'msg_01XyZ'],
    ]);
    expect(s.responses).toEqual([
      {
        id: 'msg_01XyZ',
        index: 0,
        itemIds: ['m0.0', 'm0.1'],
        usage: { input: 12, output: 41, cacheRead: 2048, cacheWrite: 310, inputIncludesCache: false },
        model: 'claude-sonnet-4-5',
        source: { file: 'resp.json', line: null },
      },
    ]);
  });

  it('takes bodies with a top-level system or Anthropic blocks, and leaves plain messages to OpenAI Chat', () => {
    const format = (text: string) => loadText('x.json', text).sessions[0]?.format;
    expect(format('{"system":"Be brief.","messages":[{"role":"user","content":"hi"}]}')).toBe('anthropic');
    expect(format('[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]')).toBe('anthropic');
    expect(format('{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}')).toBe('openai-chat');
    expect(format('{"system":"x","messages":[{"role":"system","content":"hi"}]}')).toBe('openai-chat');
  });

  it('names the line and field of a message with a role Anthropic does not have, and keeps the rest', () => {
    const text = '{\n  "system": "x",\n  "messages": [\n    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},\n    {"role": "tool", "content": "x"}\n  ]\n}';
    const parsed = parseDocument('bad.json', text);
    if (!parsed.ok) throw new Error('test text must parse');
    const ctx = createContext(parsed.doc);
    const [s] = anthropic.parse(parsed.doc, ctx);
    expect(ctx.issues).toEqual([
      { file: 'bad.json', line: 5, field: 'messages[1].role', message: expect.stringContaining('unknown role "tool"'), severity: 'error' },
    ]);
    expect(s!.items.map((i) => i.id)).toEqual(['system', 'm0.0']);
  });
});
