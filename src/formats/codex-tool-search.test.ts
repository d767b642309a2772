import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

// Modelled on public Codex Desktop rollouts that search for tools (CLI 0.137 to 0.142.5, e.g.
// blackgirlbytes/planetfall-seed-signalkit · entire/checkpoints/v1 `05/4d6f471594/0/full.jsonl`, JustinBeaudry/agent-sync
// · `7a/6f3a0c5ce7/0/full.jsonl`): a `tool_search_call` with its query in `arguments`, then a `tool_search_output`
// whose `tools` are the schemas loaded into the conversation (codex-rs ResponseItem::ToolSearchOutput), then the
// token_count of the call. The loader had left the output out (a warning) and the call's query empty.
const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-06-16T09:17:24.000Z', type, payload });
const tokenCount = (input: number, cached: number, output: number, total: number) =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output }, model_context_window: 258400 } });
const schema = { type: 'namespace', name: 'mcp__node_repl', description: 'Use `js` to run JavaScript in a persistent kernel.', tools: [{ type: 'function', name: 'js', strict: false, defer_loading: true, parameters: { type: 'object', properties: { code: { type: 'string' } } } }] };
const rollout = [
  line('session_meta', { id: 's1', cwd: '/w', originator: 'Codex Desktop', cli_version: '0.140.0-alpha.2' }),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'check the page in the browser' }] }),
  line('response_item', { type: 'reasoning', summary: [] }),
  line('response_item', { type: 'tool_search_call', call_id: 'call_ts1', status: 'completed', execution: 'client', arguments: { query: 'node_repl js', limit: 10 } }),
  line('response_item', { type: 'tool_search_output', call_id: 'call_ts1', status: 'completed', execution: 'client', tools: [schema] }),
  tokenCount(21000, 4096, 80, 21080),
  line('response_item', { type: 'function_call', name: 'js', namespace: 'mcp__node_repl', arguments: '{"code":"1+1"}', call_id: 'call_js1' }),
  line('response_item', { type: 'function_call_output', call_id: 'call_js1', output: '2' }),
  tokenCount(21400, 20992, 40, 42520),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It works.' }] }),
  tokenCount(21500, 21376, 12, 64032),
].join('\n');

/** The plain reading: each token_count that measured a call (input or output above 0, a new running total). */
function plainUsage(text: string): [number, number, number][] {
  const rows: [number, number, number][] = [];
  let last = '';
  for (const l of text.split('\n')) {
    const info = (JSON.parse(l) as { payload?: { type?: string; info?: { total_token_usage: unknown; last_token_usage: Record<string, number> } } }).payload;
    const u = info?.type === 'token_count' ? info.info?.last_token_usage : undefined;
    if (!u || (!u['input_tokens'] && !u['output_tokens']) || JSON.stringify(info!.info!.total_token_usage) === last) continue;
    last = JSON.stringify(info!.info!.total_token_usage);
    rows.push([u['input_tokens']!, u['cached_input_tokens']!, u['output_tokens']!]);
  }
  return rows;
}

describe('codex tool search', () => {
  it('keeps the schemas a tool search loads as the call output, and the query as the call', () => {
    const { sessions, issues } = loadText('rollout.jsonl', rollout);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    const search = s.items.filter((i) => i.name === 'tool_search');
    expect(search.map((i) => [i.kind, i.callId, i.responseId ?? null])).toEqual([
      ['tool_call', 'call_ts1', 'r0'],
      ['tool_result', 'call_ts1', null],
    ]);
    expect(JSON.parse(search[0]!.text)).toEqual({ query: 'node_repl js', limit: 10 });
    expect(JSON.parse(search[1]!.text)).toEqual([schema]);
    // The next call's context holds the loaded schemas.
    const calls = sessionContexts(s).calls;
    expect(calls[1]!.entries.some((e) => e.item.id === search[1]!.id)).toBe(true);
  });

  it('measures each call as the token_counts say, the tool search output between', () => {
    const s = loadText('rollout.jsonl', rollout).sessions[0]!;
    expect(s.responses.map((r) => r.itemIds.length)).toEqual([2, 1, 1]);
    const engine = sessionContexts(s).calls.map((c): [number, number, number] => [reportedPromptTokens(c)!, c.usage!.cacheRead!, c.usage!.output!]);
    expect(engine).toEqual(plainUsage(rollout));
    expect(engine).toEqual([
      [21000, 4096, 80],
      [21400, 20992, 40],
      [21500, 21376, 12],
    ]);
  });
});
