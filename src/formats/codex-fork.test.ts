import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

// codex-rollout-fork-0.144.jsonl imitates a forked sub-agent rollout of Codex CLI 0.144.0-alpha.4, modelled on
// doudouqie66/CommonTools@8bda70b57017bc41750c11ad7b018bb86796457c
// .codex/sessions/2026/07/11/rollout-2026-07-11T10-24-10-019f4efd-37a3-7730-acde-568b9592cea0.jsonl: line 1 the
// child's session_meta (`forked_from_id`), line 2 the parent's, then the parent's history as codex-rs
// `record_initial_history` (InitialHistory::Forked) copied it — its messages and its two token_count events, none
// of its model items — then the child's own turn. Ids, texts and figures are invented.
const text = readFileSync(new URL('./__fixtures__/codex-rollout-fork-0.144.jsonl', import.meta.url), 'utf8');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a reader pokes into plain JSON

/**
 * The plain reading: the child's own calls are the token_counts after its first model item (0.144 copies none of
 * the parent's), a repeated running total skipped; the file's ledger, total_token_usage, runs on from the copy's.
 */
function plain(): { rows: [number, number, number][]; seeded: number; last: number } {
  const records = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
  const first = records.findIndex((r) => r.type === 'response_item' && ['reasoning', 'custom_tool_call', 'function_call'].includes(r.payload.type));
  const rows: [number, number, number][] = [];
  let seeded = 0;
  let last = 0;
  let lastTotal = '';
  records.forEach((r, i) => {
    const info = r.type === 'event_msg' && r.payload.type === 'token_count' ? r.payload.info : null;
    if (!info) return;
    last = info.total_token_usage.total_tokens;
    if (i < first) seeded = last;
    const total = JSON.stringify(info.total_token_usage);
    if (i < first || total === lastTotal) return;
    lastTotal = total;
    rows.push([info.last_token_usage.input_tokens, info.last_token_usage.cached_input_tokens, info.last_token_usage.output_tokens]);
  });
  return { rows, seeded, last };
}

const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-07-11T02:30:00.000Z', type, payload });
const message = (role: string, text: string) => line('response_item', { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
const tokenCount = (input: number, total: number) =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, output_tokens: 0, total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 10, total_tokens: input + 10 } } });
/** A fork whose copy holds a whole parent turn, model items included (a `/fork` of a finished turn). */
const withParentTurn = (parentTurn: Record<string, unknown>, childTurn: Record<string, unknown>) =>
  [
    line('session_meta', { id: '019f4f02-0000-7000-8000-000000000002', forked_from_id: '019f4efb-c210-7a01-b2c3-d4e5f6071829', timestamp: '2026-07-11T02:29:18.976Z' }),
    line('session_meta', { id: '019f4efb-c210-7a01-b2c3-d4e5f6071829', timestamp: '2026-07-11T02:22:29.904Z' }),
    line('event_msg', { type: 'task_started', ...parentTurn }),
    message('user', 'parent asks'),
    message('assistant', 'parent answers'),
    tokenCount(5000, 5010),
    line('event_msg', { type: 'task_started', ...childTurn }),
    message('user', 'child asks'),
    message('assistant', 'child answers'),
    tokenCount(5100, 10120),
  ].join('\n');

describe('codex forked rollout', () => {
  it('keeps a copied parent response as context of the child, not as a call of its own', () => {
    const s = loadText('f.jsonl', withParentTurn({ turn_id: '019f4efc-da53-7c12-d3e4-f5a6b7c8d9e0' }, { turn_id: '019f4f02-1000-7000-8000-000000000003' })).sessions[0]!;
    expect(s.responses.map((r) => [r.itemIds, r.usage?.input])).toEqual([[['L9'], 5100]]);
    const first = sessionContexts(s).calls[0]!;
    expect(first.entries.map((e) => [e.item.text, e.item.meta?.['forkedFrom'] ?? null])).toEqual([
      ['parent asks', null],
      ['parent answers', '019f4efb-c210-7a01-b2c3-d4e5f6071829'],
      ['child asks', null],
    ]);
  });

  it('dates a turn by started_at when its id is no UUIDv7, and ends the copy at a turn it cannot date', () => {
    const byStart = loadText('f.jsonl', withParentTurn({ turn_id: '1', started_at: 1783736621 }, { turn_id: '2', started_at: 1783736960 })).sessions[0]!;
    expect(byStart.responses.map((r) => r.usage?.input)).toEqual([5100]);
    // Undated, the parent's turn ends the copy at once: its token_count is read as a call, as before forks were known.
    const undated = loadText('f.jsonl', withParentTurn({ turn_id: '1' }, { turn_id: '2' })).sessions[0]!;
    expect(undated.responses.map((r) => r.usage?.input)).toEqual([5000, 5100]);
  });

  it('gives the child its own calls and usage, none of the parent token_counts its copy holds', () => {
    const { sessions, issues } = loadText('rollout-fork.jsonl', text);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.id).toBe('019f4efd-4b2f-7e23-f4a5-b6c7d8e9f0a1');
    expect(s.meta['forkedFromId']).toBe('019f4efb-c210-7a01-b2c3-d4e5f6071829');
    expect(s.responses.map((r) => [r.itemIds, r.usage?.input, r.usage?.cacheRead, r.usage?.output])).toEqual([
      [['L18', 'L19', 'L20'], 13869, 13056, 534],
      [['L23', 'L24'], 25812, 13056, 464],
      [['L27', 'L28'], 27120, 25344, 305],
    ]);
  });

  it('reads the calls as the plain reading does, and they add up to the ledger past the copy', () => {
    const s = loadText('rollout-fork.jsonl', text).sessions[0]!;
    const calls = sessionContexts(s).calls;
    const { rows, seeded, last } = plain();
    expect(calls.map((c) => [reportedPromptTokens(c), c.usage?.cacheRead, c.usage?.output])).toEqual(rows);
    const sum = calls.reduce((n, c) => n + reportedPromptTokens(c)! + c.usage!.output!, 0);
    expect(sum).toBe(last - seeded);
  });

  it('sends the copied history to the child first call: the parent request and the fork instructions', () => {
    const s = loadText('rollout-fork.jsonl', text).sessions[0]!;
    const first = sessionContexts(s).calls[0]!;
    expect(first.entries.map((e) => e.item.text.split('\n')[0]!.slice(0, 40))).toEqual([
      'You are Codex, a coding agent based on G',
      '<permissions instructions>',
      '<environment_context>',
      'Audit the arena scripts for leaks: timer',
      'You are an agent in a team of agents. Re',
      'Trace every RPC call of the arena script',
    ]);
  });
});
