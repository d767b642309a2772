import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// codex-rollout-0.40.jsonl imitates a 2025 rollout of Codex CLI 0.40 (codex-rs wrote a turn's response items
// when the turn ended, so each `token_count` event precedes the items of the call it measures; tool outputs
// are recorded beside their calls). codex-rollout.jsonl is the current order: items, then their token_count.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2025-09-18T14:00:00.000Z', type, payload });
const tokenCount = (input: number, output: number, total: number) =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, output_tokens: 0, total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, total_tokens: input + output }, model_context_window: 272000 } });
const message = (role: string, text: string) => line('response_item', { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
const call = (id: string) => line('response_item', { type: 'function_call', name: 'shell', arguments: '{}', call_id: id });
const output = (id: string) => line('response_item', { type: 'function_call_output', call_id: id, output: 'ok' });

describe('codex token_count order', () => {
  it('gives every call of a 0.40 rollout the token_count written before its items', () => {
    const { sessions, issues } = loadText('rollout-0.40.jsonl', fixture('codex-rollout-0.40.jsonl'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.meta['cliVersion']).toBe('0.40.0');
    expect(s.items.map((i) => [i.id, i.kind, i.responseId ?? null])).toEqual([
      ['L2', 'message', null],
      ['L3', 'message', null],
      ['L8', 'thinking', 'r0'],
      ['L9', 'tool_call', 'r0'],
      ['L10', 'tool_result', null],
      ['L13', 'thinking', 'r1'],
      ['L14', 'tool_call', 'r1'],
      ['L15', 'tool_result', null],
      ['L16', 'tool_call', 'r1'],
      ['L17', 'tool_result', null],
      ['L20', 'message', 'r2'],
    ]);
    // One call's items stay one response although its tool outputs are written between them.
    expect(s.responses.map((r) => [r.id, r.itemIds])).toEqual([
      ['r0', ['L8', 'L9']],
      ['r1', ['L13', 'L14', 'L16']],
      ['r2', ['L20']],
    ]);
    expect(s.responses.map((r) => r.usage)).toEqual([
      { input: 5210, output: 96, cacheRead: 0, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 },
      { input: 5540, output: 71, cacheRead: 5120, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 },
      { input: 5890, output: 58, cacheRead: 5504, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 },
    ]);
    expect(s.compactions).toEqual([]);
  });

  it('still attaches a current rollout token_count to the response before it, once', () => {
    const { sessions } = loadText('rollout.jsonl', fixture('codex-rollout.jsonl'));
    const s = sessions[0]!;
    expect(s.responses.length).toBeGreaterThan(0);
    expect(s.responses.every((r) => r.usage !== null)).toBe(true);
    expect(s.responses[0]!.usage).toMatchObject({ input: 9000, output: 120 });
  });

  it('gives a 0.14x rollout its token_count after the tool outputs of the call it measures', () => {
    // Codex 0.142 records the outputs of a response's parallel tool calls before the response completes, so
    // its token_count follows them; a public rollout of it read as 0.40's order moved every usage one call late.
    const { sessions, issues } = loadText('rollout-0.142.jsonl', fixture('codex-rollout-0.142.jsonl'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.meta['cliVersion']).toBe('0.142.4');
    expect(s.responses.map((r) => [r.itemIds.length, r.usage?.input ?? null, r.usage?.cacheRead ?? null, r.usage?.output ?? null])).toEqual([
      [4, 9120, 4096, 212],
      [2, 9480, 9088, 160],
      [2, 9705, 9344, 95],
      [1, 9842, 9600, 48],
    ]);
    const after = [message('user', 'go'), call('c1'), output('c1'), tokenCount(100, 5, 100), message('assistant', 'done'), tokenCount(130, 7, 230)];
    expect(loadText('a.jsonl', after.join('\n')).sessions[0]!.responses.map((r) => r.usage?.input)).toEqual([100, 130]);
  });

  it('skips a repeated cumulative total in either order instead of moving usage to the next call', () => {
    const after = [message('user', 'go'), call('c1'), tokenCount(100, 5, 100), output('c1'), tokenCount(100, 5, 100), message('assistant', 'done'), tokenCount(130, 7, 230)];
    expect(loadText('a.jsonl', after.join('\n')).sessions[0]!.responses.map((r) => r.usage?.input)).toEqual([100, 130]);
    const before = [message('user', 'go'), tokenCount(100, 5, 100), call('c1'), output('c1'), tokenCount(100, 5, 100), tokenCount(130, 7, 230), message('assistant', 'done')];
    expect(loadText('b.jsonl', before.join('\n')).sessions[0]!.responses.map((r) => r.usage?.input)).toEqual([100, 130]);
  });

  it('starts a new call at a user message even without a token_count before it', () => {
    const before = [message('user', 'go'), tokenCount(100, 5, 100), message('assistant', 'one'), message('user', 'again'), message('assistant', 'two')];
    const s = loadText('b.jsonl', before.join('\n')).sessions[0]!;
    expect(s.responses.map((r) => [r.itemIds, r.usage?.input ?? null])).toEqual([
      [['L3'], 100],
      [['L5'], null],
    ]);
  });

  it('reads the flat token_count payload of the earliest rollouts as one call usage', () => {
    const flat = line('event_msg', { type: 'token_count', input_tokens: 900, cached_input_tokens: 512, output_tokens: 40, reasoning_output_tokens: 0, total_tokens: 940 });
    const s = loadText('old.jsonl', [message('user', 'go'), flat, message('assistant', 'done')].join('\n')).sessions[0]!;
    expect(s.responses.map((r) => r.usage)).toEqual([{ input: 900, output: 40, cacheRead: 512, cacheWrite: null, inputIncludesCache: true, contextWindow: null }]);
  });
});
