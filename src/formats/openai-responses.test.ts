import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../load/document';
import { loadText } from '../load/loader';
import { openaiResponses } from './openai-responses';

// Fixtures imitate Responses request/response bodies as SDK loggers write them, with the item shapes
// Codex rollouts record (developer input_text, reasoning with encrypted_content, custom_tool_call).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

const sniff = (text: string) => {
  const parsed = parseDocument('x.json', text);
  if (!parsed.ok) throw new Error('fixture text must parse');
  return openaiResponses.sniff(parsed.doc);
};

describe('openaiResponses', () => {
  it('turns instructions and input items into items with their own ids, in order', () => {
    const { sessions, issues } = loadText('req.json', fixture('openai-responses-request.json'));
    expect(issues).toEqual([]);
    const [s] = sessions;
    expect(s!.format).toBe('openai-responses');
    expect(s!.id).toBe('resp-demo-7');
    expect(s!.model).toBe('gpt-5-codex');
    expect(s!.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['instructions', 'system', 'message'],
      ['m0', 'developer', 'message'],
      ['m1', 'user', 'message'],
      ['rs_01', 'assistant', 'thinking'],
      ['fc_01', 'assistant', 'tool_call'],
      ['m4', 'tool', 'tool_result'],
      ['cmp_01', 'assistant', 'summary'],
      ['rs_02', 'assistant', 'thinking'],
      ['ctc_01', 'assistant', 'tool_call'],
      ['m8', 'tool', 'tool_result'],
      ['ws_01', 'assistant', 'tool_call'],
      ['msg_01', 'assistant', 'message'],
      ['m12', 'user', 'message'],
    ]);
    expect(s!.skipped).toEqual({ item_reference: 1 });
  });

  it('keeps reasoning summaries as thinking text and encrypted reasoning as a placeholder', () => {
    const { sessions } = loadText('req.json', fixture('openai-responses-request.json'));
    const byId = new Map(sessions[0]!.items.map((i) => [i.id, i]));
    expect(byId.get('rs_01')).toMatchObject({ text: 'Read the config first.', meta: { encrypted: true } });
    expect(byId.get('rs_02')).toMatchObject({ text: '[encrypted reasoning, 15 chars]', meta: { encrypted: true } });
  });

  it('pairs function and custom tool calls with their outputs by call_id, and names hosted calls by type', () => {
    const { sessions } = loadText('req.json', fixture('openai-responses-request.json'));
    const byId = new Map(sessions[0]!.items.map((i) => [i.id, i]));
    expect(byId.get('fc_01')).toMatchObject({ name: 'exec_command', callId: 'call_A', pairId: 'm4', text: '{"cmd":"cat config/db.yaml"}' });
    expect(byId.get('m4')).toMatchObject({ name: 'exec_command', pairId: 'fc_01', text: 'host: db-prod-1\nport: 5432' });
    expect(byId.get('ctc_01')).toMatchObject({ name: 'apply_patch', callId: 'call_B', pairId: 'm8' });
    expect(byId.get('ws_01')).toMatchObject({ name: 'web_search', text: '{"type":"search","query":"psycopg2 pool exhausted"}' });
    expect(byId.get('msg_01')!.text).toBe("Patched the connection leak.\nI won't push to main.");
    expect(byId.get('m12')!.text).toBe('Which host again?\n[image]');
  });

  it('makes a compaction item a summary that replaces the conversation before it', () => {
    const { sessions } = loadText('req.json', fixture('openai-responses-request.json'));
    const s = sessions[0]!;
    expect(s.items.find((i) => i.id === 'cmp_01')).toMatchObject({ text: '[encrypted compaction, 24 chars]', meta: { itemType: 'compaction', encrypted: true } });
    expect(s.compactions).toEqual([
      {
        id: 'cmp_01',
        index: 0,
        kind: 'summary',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['m1', 'rs_01', 'fc_01', 'm4'],
        keptIds: ['instructions', 'm0'],
        summaryId: 'cmp_01',
        atItemId: 'cmp_01',
        // Encrypted: the audit must say it cannot read it, not that it lost everything.
        opaque: true,
        source: { file: 'req.json', line: null },
      },
    ]);
  });

  it('records a response body as one model response with its usage and cached tokens', () => {
    const { sessions, issues } = loadText('resp.json', fixture('openai-responses-response.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.responseId ?? null])).toEqual([
      ['instructions', 'message', null],
      ['rs_9', 'thinking', 'resp_abc'],
      ['msg_9', 'message', 'resp_abc'],
      ['fc_9', 'tool_call', 'resp_abc'],
    ]);
    expect(s.responses).toEqual([
      {
        id: 'resp_abc',
        index: 0,
        itemIds: ['rs_9', 'msg_9', 'fc_9'],
        usage: { input: 2210, output: 57, cacheRead: 2048, cacheWrite: null, inputIncludesCache: true },
        model: 'gpt-4.1-mini',
        timestamp: '2025-03-13T02:00:00.000Z',
        source: { file: 'resp.json', line: null },
      },
    ]);
  });

  it('names the line and field of an item with an unknown role or type, and keeps the rest', () => {
    const text =
      '{\n  "input": [\n    {"role": "user", "content": "hi"},\n    {"type": "message", "role": "wizard", "content": "x"},\n    {"type": "hologram"},\n' +
      '    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},\n    {"type": "function_call_output", "call_id": "c1", "output": "ok"}\n  ]\n}';
    const { sessions, issues } = loadText('bad.json', text);
    expect(issues).toEqual([
      { file: 'bad.json', line: 4, field: 'input[1].role', message: expect.stringContaining('unknown role "wizard"'), severity: 'error' },
      { file: 'bad.json', line: 5, field: 'input[2].type', message: 'unknown Responses item type "hologram" skipped', severity: 'warning' },
    ]);
    expect(sessions[0]!.items.map((i) => i.id)).toEqual(['m0', 'm3', 'm4']);
    expect(sessions[0]!.skipped).toEqual({ hologram: 1 });
  });

  it('leaves LiveKit ChatContext and Chat Completions documents to their adapters', () => {
    expect(sniff('{"items":[{"type":"message","role":"user","content":["hi"],"created_at":1}]}')).toBe(0);
    expect(sniff('[{"id":"a","type":"message","role":"user","content":["hi"],"created_at":1},{"id":"b","type":"agent_handoff","new_agent_id":"x"}]')).toBe(0);
    expect(sniff('{"messages":[{"role":"user","content":"hi"}],"input":[]}')).toBe(0);
    expect(loadText('chat.json', fixture('openai-chat-course.json')).sessions[0]!.format).toBe('openai-chat');
    expect(loadText('items.json', '[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"ok"}]').sessions[0]!.format).toBe('openai-responses');
  });
});
