import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles, loadText, type InputFile } from '../load/loader';

// The fixtures imitate the completion logs the OpenHands SDK writes with `log_completions` (one
// `<model>-<timestamp>.json` per call: messages, tools, kwargs, response with usage, cost, timestamp), modelled
// on OpenHands/software-agent-sdk .pr/artifacts/*/telemetry_phase_*/gpt-4o-mini-*.json. Three calls of one
// agent; before the third, the agent's history was condensed (head kept, a summary, the latest call kept).
const DIR = new URL('./__fixtures__/', import.meta.url);
const NAMES = readdirSync(DIR).filter((f) => f.startsWith('completion-log-')).sort();
const file = (name: string): InputFile => ({ name, bytes: readFileSync(new URL(name, DIR)) });
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const encode = (name: string, v: unknown): InputFile => ({ name, bytes: new TextEncoder().encode(JSON.stringify(v)) });

describe('completion logs (request-log)', () => {
  it('reads one completion log file as one recorded call with its tools, output and usage', () => {
    const { sessions, issues } = loadFiles([file(NAMES[0]!)]);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('request-log');
    expect(s.meta).toEqual({});
    expect(s.requests).toHaveLength(1);
    const r = s.requests[0]!;
    expect([r.id, r.api, r.model, r.timestamp]).toEqual(['r0', 'openai-chat', 'claude-sonnet-4-5-20250929', '2026-02-19T06:02:01.402Z']);
    expect(r.items.map((i) => [i.role, i.kind])).toEqual([
      ['system', 'message'],
      ['user', 'message'],
    ]);
    expect(r.output.map((i) => [i.kind, i.name ?? null, i.callId ?? null])).toEqual([
      ['message', null, null],
      ['tool_call', 'terminal', 'toolu_01Xq'],
    ]);
    expect(JSON.parse(r.tools!).map((t: { title: string }) => t.title)).toEqual(['terminal', 'file_editor']);
    // litellm's prompt_tokens include the cache; cache writes stay null so they are not counted twice.
    expect(r.usage).toEqual({ input: 1830, output: 61, cacheRead: 0, cacheWrite: 1790, inputIncludesCache: true });
    expect(s.responses.map((x) => [x.id, x.itemIds.length])).toEqual([['chatcmpl-5b1e0c7a', 2]]);
  });

  it('joins files that continue one another into one session in time order, the same message keeping one id', () => {
    const { sessions, issues } = loadFiles([...NAMES].reverse().map(file));
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.files).toEqual(NAMES);
    expect(s.requests.map((r) => [r.id, r.index, r.timestamp, r.source.file])).toEqual([
      ['r0', 0, '2026-02-19T06:02:01.402Z', NAMES[0]],
      ['r1', 1, '2026-02-19T06:02:05.874Z', NAMES[1]],
      ['r2', 2, '2026-02-19T06:02:13.118Z', NAMES[2]],
    ]);
    expect(s.requests.map((r) => r.items.map((i) => i.id))).toEqual([
      ['r0.m0', 'r0.m1'],
      ['r0.m0', 'r0.m1', 'r0.o0', 'r0.o0.call0', 'r1.m3'],
      ['r0.m0', 'r0.m1', 'r2.m2', 'r1.o0.call0', 'r2.m4'],
    ]);
    expect(s.requests[1]!.items[4]).toMatchObject({ kind: 'tool_result', callId: 'toolu_01Xq', pairId: 'r0.o0.call0' });
    expect(s.requests.map((r) => r.usage)).toEqual([
      { input: 1830, output: 61, cacheRead: 0, cacheWrite: 1790, inputIncludesCache: true },
      { input: 1985, output: 58, cacheRead: 1790, cacheWrite: 190, inputIncludesCache: true },
      { input: 1460, output: 132, cacheRead: 1310, cacheWrite: 150, inputIncludesCache: true },
    ]);
    expect(s.responses.map((r) => [r.id, r.index, r.itemIds])).toEqual([
      ['chatcmpl-5b1e0c7a', 0, ['r0.o0', 'r0.o0.call0']],
      ['chatcmpl-8e42d913', 1, ['r1.o0.call0']],
      ['chatcmpl-a07f55b2', 2, ['r2.o0', 'r2.o0.call0']],
    ]);
    expect(s.items).toHaveLength(10);
  });

  it('shows the condensation before the third call as a compaction between the logged calls', () => {
    const s = loadFiles(NAMES.map(file)).sessions[0]!;
    const { calls, compactions } = sessionContexts(s);
    expect(calls.map((c) => c.recorded)).toEqual([true, true, true]);
    expect(compactions).toEqual([
      expect.objectContaining({ kind: 'inferred', index: 0, replacedIds: ['r0.o0', 'r0.o0.call0', 'r1.m3'], keptIds: ['r0.m0', 'r0.m1'] }),
    ]);
    expect(calls[2]!.compactionId).toBe(compactions[0]!.id);
    expect(calls[2]!.entries.map((e) => e.item.text.slice(0, 13))).toContain('USER_CONTEXT:');
  });

  it('reads older OpenHands logs (tools in kwargs) and keeps a log of another conversation apart', () => {
    const base = JSON.parse(text(NAMES[0]!)) as Record<string, unknown>;
    const { tools, context_window: _w, usage_summary: _u, latency_sec: _l, ...rest } = base;
    const older = { ...rest, args: [], kwargs: { tools } };
    const other = { ...base, messages: [{ role: 'system', content: 'You are a travel agent.' }, { role: 'user', content: 'Book a flight.' }], timestamp: 1771480922.0 };
    const { sessions, issues } = loadFiles([encode('openai__gpt-4o-1771480000.1.json', older), encode('other-1771480922.0.json', other), file(NAMES[1]!)]);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => [s.files, s.requests.length])).toEqual([
      [['openai__gpt-4o-1771480000.1.json', NAMES[1]], 2],
      [['other-1771480922.0.json'], 1],
    ]);
    expect(JSON.parse(sessions[0]!.requests[0]!.tools!)).toHaveLength(2);
  });

  it('leaves a bare chat with a response but no choices to the chat reader', () => {
    const { sessions } = loadText('chat.json', JSON.stringify({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], response: { text: 'x' } }));
    expect(sessions[0]!.format).toBe('openai-chat');
  });
});
