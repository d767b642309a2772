import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles, loadText } from '../load/loader';
import { MAX_LOG_REQUESTS } from './request-log';

// Fixtures imitate what logging proxies and SDK hooks write: one `{timestamp, request, response}` per call
// (request-log-chat: a Chat Completions agent whose third call carries a recap), and one line per wire
// API plus an HTTP-envelope record, a bare body and a record with no conversation (request-log-mixed).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const demo = (name: string) => ({ name, bytes: readFileSync(new URL(`../../public/demos/${name}`, import.meta.url)) });

describe('requestLog', () => {
  it('records each call with its items, tools, output and reported usage', () => {
    const { sessions, issues } = loadText('calls.jsonl', fixture('request-log-chat.jsonl'));
    expect(issues).toEqual([]);
    const [s] = sessions;
    expect(s!.format).toBe('request-log');
    expect(s!.model).toBe('gpt-4.1-mini');
    expect(s!.meta['joinSessionId']).toBe('s-chat');
    expect(s!.requests.map((r) => [r.id, r.index, r.api, r.model, r.timestamp, r.source.line])).toEqual([
      ['req_1', 0, 'openai-chat', 'gpt-4.1-mini', '2025-03-13T09:02:11Z', 1],
      ['req_2', 1, 'openai-chat', 'gpt-4.1-mini', '2025-03-13T09:02:20Z', 2],
      ['req_3', 2, 'openai-chat', 'gpt-4.1-mini', '2025-03-13T09:03:00Z', 3],
    ]);
    expect(s!.requests[0]!.tools).toBe('[{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]');
    expect(s!.requests[2]!.tools).toBeNull();
    expect(s!.requests.map((r) => r.usage)).toEqual([
      { input: 1210, output: 18, cacheRead: 0, cacheWrite: null, inputIncludesCache: true },
      { input: 1290, output: 2, cacheRead: 1152, cacheWrite: null, inputIncludesCache: true },
      { input: 1240, output: 2, cacheRead: 1152, cacheWrite: null, inputIncludesCache: true },
    ]);
  });

  it('gives a repeated message the id it got in the first call that sent or produced it', () => {
    const { sessions } = loadText('calls.jsonl', fixture('request-log-chat.jsonl'));
    const [r1, r2, r3] = sessions[0]!.requests;
    expect(r1!.items.map((i) => i.id)).toEqual(['r0.m0', 'r0.m1']);
    expect(r1!.output.map((i) => [i.id, i.kind, i.callId])).toEqual([['r0.o0.call0', 'tool_call', 'call_1']]);
    expect(r2!.items.map((i) => i.id)).toEqual(['r0.m0', 'r0.m1', 'r0.o0.call0', 'r1.m3']);
    expect(r2!.items[3]).toMatchObject({ kind: 'tool_result', callId: 'call_1', pairId: 'r0.o0.call0', name: 'read_file' });
    // The recap is new; the earlier "ok" keeps its id, and the new reply "ok" is a second, new item.
    expect(r3!.items.map((i) => [i.id, i.kind])).toEqual([
      ['r0.m0', 'message'],
      ['r0.m1', 'message'],
      ['r2.m2', 'summary'],
      ['r1.o0', 'message'],
      ['r2.m4', 'message'],
    ]);
    expect(r3!.output.map((i) => [i.id, i.text])).toEqual([['r2.o0', 'ok']]);
  });

  it('lists every item once in first-seen order and one model response per logged response', () => {
    const { sessions } = loadText('calls.jsonl', fixture('request-log-chat.jsonl'));
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.source.line])).toEqual([
      ['r0.m0', 'system', 'message', 1],
      ['r0.m1', 'user', 'message', 1],
      ['r0.o0.call0', 'assistant', 'tool_call', 1],
      ['r1.m3', 'tool', 'tool_result', 2],
      ['r1.o0', 'assistant', 'message', 2],
      ['r2.m2', 'assistant', 'summary', 3],
      ['r2.m4', 'user', 'message', 3],
      ['r2.o0', 'assistant', 'message', 3],
    ]);
    expect(s.items[2]).toMatchObject({ responseId: 'chatcmpl-1', timestamp: '2025-03-13T09:02:11Z', pairId: 'r1.m3' });
    expect(s.responses.map((r) => [r.id, r.index, r.itemIds, r.usage?.cacheRead, r.source.line])).toEqual([
      ['chatcmpl-1', 0, ['r0.o0.call0'], 0, 1],
      ['chatcmpl-2', 1, ['r1.o0'], 1152, 2],
      ['chatcmpl-3', 2, ['r2.o0'], 1152, 3],
    ]);
    // Compactions between calls are inferred by the analysis, not by the adapter.
    expect(s.compactions).toEqual([]);
  });

  it('detects the wire API of each line and reads usage in its shape', () => {
    const { sessions, issues } = loadText('mixed.jsonl', fixture('request-log-mixed.jsonl'));
    const s = sessions[0]!;
    expect(s.requests.map((r) => [r.id, r.api, r.model, r.items.map((i) => i.id), r.output.map((i) => i.id), r.usage])).toEqual([
      ['r0', 'openai-responses', 'gpt-5-mini', ['r0.instructions', 'r0.m0'], ['msg_1'], { input: 1300, output: 4, cacheRead: 1280, cacheWrite: null, inputIncludesCache: true }],
      ['r1', 'anthropic', 'claude-sonnet-4-5', ['r1.system.0', 'r1.m0'], ['r1.o0.0'], { input: 9, output: 3, cacheRead: 1400, cacheWrite: 0, inputIncludesCache: false }],
      ['r2', 'openai-chat', 'gpt-4.1-mini', ['r2.m0'], ['r2.o0'], { input: 12, output: 5, cacheRead: null, cacheWrite: null, inputIncludesCache: true }],
      ['r3', 'openai-chat', 'gpt-4.1-mini', ['r3.m0'], [], null],
    ]);
    expect(s.requests[0]!.timestamp).toBe('2025-03-13T09:02:11.000Z');
    expect(s.requests[1]!.items[0]!.meta).toEqual({ cacheControl: 'ephemeral' });
    expect(s.responses.map((r) => r.id)).toEqual(['resp_1', 'msg_2', 'chatcmpl-9']);
    expect(issues).toEqual([
      { file: 'mixed.jsonl', line: 5, field: 'request', message: 'no request body: expected `request` with `messages` or `input`, or a bare request body', severity: 'error' },
    ]);
  });

  it('reads a one-call log, which parses as a single JSON document, and leaves a lone bare body to OpenAI Chat', () => {
    const one = '{"request":{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}]},"response":{"choices":[{"message":{"role":"assistant","content":"hello"}}]}}\n';
    expect(loadText('one.jsonl', one).sessions[0]!.requests.map((r) => [r.id, r.output.map((i) => i.text)])).toEqual([['r0', ['hello']]]);
    expect(loadText('body.json', '{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}]}').sessions[0]!.format).toBe('openai-chat');
  });
});

describe('coding-agent demo', () => {
  const files = ['coding-agent.transcript.json', 'coding-agent.compaction-log.jsonl', 'coding-agent.requests.jsonl'];

  it('joins the transcript, its compaction log and its request log into one session', () => {
    const { sessions, issues } = loadFiles(files.map(demo));
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.id).toBe('demo-coding-1');
    expect(s.format).toBe('openai-chat');
    expect(s.files).toEqual(files);
    // 31 messages; two assistant messages carry text and a tool call, which are two items each.
    expect(s.items).toHaveLength(33);
    expect(s.items.filter((i) => i.kind === 'summary' || i.kind === 'omission').map((i) => [i.id, i.kind])).toEqual([
      ['m14', 'summary'],
      ['m27', 'omission'],
    ]);
    expect(s.requests.map((r) => r.id)).toEqual(['req_01', 'req_02', 'req_03', 'req_04', 'req_05', 'req_06', 'req_07', 'req_08', 'req_09', 'req_10', 'req_11', 'req_12', 'req_13', 'req_14']);
    expect(s.compactions.map((c) => [c.kind, c.trigger, c.log?.fallback, c.log?.requestId, c.log?.turn])).toEqual([
      ['log', 'summarize', false, 'req_07', 7],
      ['log', 'summarize', true, 'req_13', 13],
    ]);
    expect(s.compactions[0]!.log!.keptIdentifiers).toEqual(expect.arrayContaining(['db-prod-1', '5432', 'FRE-512']));
    expect(s.compactions[0]!.log!.lostIdentifiers).toContain('v2.14.3');
  });

  it('logs requests that share their prefix, and keep only the head after each compaction', () => {
    const { sessions } = loadText('coding-agent.requests.jsonl', demo('coding-agent.requests.jsonl').bytes.toString('utf8'));
    const reqs = sessions[0]!.requests;
    // Each call repeats the previous call's items until a compaction rewrites the middle.
    for (const k of [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 13]) {
      const prev = reqs[k - 1]!;
      expect(reqs[k]!.items.slice(0, prev.items.length).map((i) => i.id)).toEqual(prev.items.map((i) => i.id));
    }
    const head = ['r0.m0', 'r0.m1'];
    expect(reqs[6]!.items.slice(0, 3).map((i) => [i.id, i.kind])).toEqual([...head.map((id) => [id, 'message']), ['r6.m2', 'summary']]);
    expect(reqs[12]!.items.slice(0, 3).map((i) => [i.id, i.kind])).toEqual([...head.map((id) => [id, 'message']), ['r12.m2', 'omission']]);
    // OpenAI caching: 1024 tokens at least, 128-token steps, back to the head's size after each compaction.
    const cached = reqs.map((r) => r.usage!.cacheRead!);
    expect(cached[0]).toBe(0);
    for (const c of cached.slice(1)) expect(c >= 1024 && c % 128 === 0).toBe(true);
    expect([cached[6], cached[12]]).toEqual([cached[1], cached[1]]);
    expect(cached[6]!).toBeLessThan(cached[5]!);
  });
});

describe('request log limit', () => {
  it(`reads the first ${MAX_LOG_REQUESTS.toLocaleString('en-US')} records of a longer log and names the limit in one error`, () => {
    const n = MAX_LOG_REQUESTS + 5;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`{"request":{"messages":[{"role":"user","content":"hi ${i}"}]}}`);
    const { sessions, issues } = loadText('huge.jsonl', lines.join('\n'));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.requests).toHaveLength(MAX_LOG_REQUESTS);
    const errors = issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'huge.jsonl', line: MAX_LOG_REQUESTS + 1 });
    expect(errors[0]!.message).toContain(`has ${n.toLocaleString('en-US')} records; the inspector reads the first 50,000 of a file (the documented limit, docs/cli.md, "Limits")`);
  });
});
