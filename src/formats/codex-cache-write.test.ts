import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { priceOf } from '../cost/prices';
import { usageCost } from '../cost/usage-cost';
import { loadText } from '../load/loader';
import { uncachedTokens } from '../model/usage';

// codex-rs TokenUsage gained `cache_write_input_tokens` (openai/codex#32479): codex-api sse/responses.rs takes it from
// the Responses API's `input_tokens_details.cache_write_tokens`, a part of `input_tokens` like `cached_tokens` (its
// test `parses_cache_write_token_usage`: input 100 = 40 read + 60 written, total 110 = input + output). Public
// rollouts of CLI 0.147 write it on every token_count, 0 so far (teslamint/entirecontext@a314130b30e95ba0050808b3cb77f11ba8fca8e1
// 0/full.jsonl); the line shapes below are theirs, the figures invented.
const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-08-16T16:10:12.245Z', type, payload });
const usage = (input: number, cached: number, write: number | undefined, output: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  ...(write === undefined ? {} : { cache_write_input_tokens: write }),
  output_tokens: output,
  reasoning_output_tokens: 0,
  total_tokens: input + output,
});
const tokenCount = (last: ReturnType<typeof usage>, total: ReturnType<typeof usage>) =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: 353400 }, rate_limits: null });
const rollout = [
  line('session_meta', { id: '019f8b2e-1d40-7c31-9a52-6e0f4b7d2c18', timestamp: '2026-08-16T16:10:00.000Z', cwd: '/repo', originator: 'codex_cli_rs', cli_version: '0.147.0', model_provider: 'openai' }),
  line('turn_context', { turn_id: '019f8b2e-2a10-7d42-8b63-7f1a5c8e3d29', cwd: '/repo', model: 'gpt-5.6-sol' }),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summarize the changes.' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading the diff.' }] }),
  tokenCount(usage(3438, 0, 3435, 40), usage(3438, 0, 3435, 40)),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And the tests?' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'They pass.' }] }),
  tokenCount(usage(3490, 3423, 12, 6), usage(6928, 3423, 3447, 46)),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'You are welcome.' }] }),
  // Before 0.145 the field is absent: no write reported, which is not a write of 0.
  tokenCount(usage(3510, 3456, undefined, 5), usage(10438, 6879, 3447, 51)),
].join('\n');

describe('codex cache writes', () => {
  it('reads cache_write_input_tokens as the call cache write, inside the prompt as Codex reports it', () => {
    const s = loadText('rollout-0.147.jsonl', rollout).sessions[0]!;
    const calls = sessionContexts(s).calls;
    // The plain reading: each token_count's last_token_usage as written; the prompt is total − output.
    const plain = rollout
      .split('\n')
      .map((l) => JSON.parse(l) as { payload: { type?: string; info?: { last_token_usage: Record<string, number> } } })
      .filter((r) => r.payload.type === 'token_count')
      .map((r) => r.payload.info!.last_token_usage)
      .map((u) => [u['total_tokens']! - u['output_tokens']!, u['cached_input_tokens'], u['cache_write_input_tokens'] ?? null, u['output_tokens']]);
    expect(calls.map((c) => [reportedPromptTokens(c), c.usage!.cacheRead, c.usage!.cacheWrite, c.usage!.output])).toEqual(plain);
    expect(plain.map((p) => p[2])).toEqual([3435, 12, null]);
    // Written tokens are no longer counted as the uncached rest: 3,438 − 0 read − 3,435 written.
    expect(calls.map((c) => uncachedTokens(c.usage!))).toEqual([3, 55, 54]);
  });

  it('leaves the cost as the price table has it: OpenAI rows price a write as uncached input', () => {
    const s = loadText('rollout-0.147.jsonl', rollout).sessions[0]!;
    const gpt = priceOf('gpt-5.6-sol')!;
    const u = s.responses[0]!.usage!;
    expect(usageCost(u, gpt)).toBeCloseTo(usageCost({ ...u, cacheWrite: null }, gpt)!, 12);
  });

  it('reads a codex exec stream turn usage the same way', () => {
    const stream = [
      JSON.stringify({ type: 'thread.started', thread_id: '019f8b2e-1d40-7c31-9a52-6e0f4b7d2c18' }),
      JSON.stringify({ type: 'turn.started' }),
      JSON.stringify({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'Done.' } }),
      JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 3438, cached_input_tokens: 0, cache_write_input_tokens: 3435, output_tokens: 40 } }),
    ].join('\n');
    const s = loadText('exec.jsonl', stream).sessions[0]!;
    expect(s.responses.map((r) => [r.usage?.input, r.usage?.cacheRead, r.usage?.cacheWrite])).toEqual([[3438, 0, 3435]]);
  });
});
