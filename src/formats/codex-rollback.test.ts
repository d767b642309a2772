import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

// A Codex CLI 0.139 rollout whose user took turns back (Esc to interrupt, then edit the message), modelled on
// Hiroya20040928/unitree-A1@edcf58397f .codex/sessions/2026/06/11/rollout-2026-06-11T17-03-44-019eb5b5-….jsonl:
// each turn opens with a developer message and an <environment_context>, the user's message follows; an interrupted
// turn ends with <turn_aborted>, then `event_msg` `thread_rolled_back` {num_turns: 1}, and the next turn re-sends the
// context and the edited message. codex-rs drop_last_n_user_turns cuts the history at the last user message and takes
// the context updates just before it too (trim_pre_turn_context_updates), never what came before the first turn.
// Texts, ids and figures are invented (codex-rollout-rollback-0.139.jsonl).
const text = readFileSync(new URL('./__fixtures__/codex-rollout-rollback-0.139.jsonl', import.meta.url), 'utf8').trimEnd();

describe('codex: a thread rollback', () => {
  const s = loadText('rollout-2026-06-11T17-03-44-019eb5b5-66c6-7db2-85a9-9eb7652633cb.jsonl', text).sessions[0]!;
  const calls = sessionContexts(s).calls;
  const ids = (k: number) => calls[k]!.entries.map((e) => e.item.text.split('\n')[0]!.slice(0, 40));

  it('sends the next call the history without the turn taken back and the context re-sent before it', () => {
    expect(calls).toHaveLength(2);
    expect(ids(1)).toEqual([
      '<permissions instructions>',
      '<environment_context>',
      'list the launch files of the nx package',
      'The nx package has three launch files: b',
      '<permissions instructions>',
      '<environment_context>',
      'kono nx no nakami wo iroiro henkou shite',
    ]);
    expect(calls[1]!.entries.some((e) => e.item.text.includes('<turn_aborted>'))).toBe(false);
  });

  it('names the removal a rollback by the user, not a compaction', () => {
    expect(s.compactions).toEqual([]);
    const removals = sessionContexts(s).removals;
    const taken = [...removals.entries()].filter(([, r]) => r.label === 'rolled-back');
    expect(taken.map(([id]) => s.items.find((it) => it.id === id)!.text.split('\n')[0])).toEqual([
      '<permissions instructions>',
      '<environment_context>',
      'kono nx no nakami wo iroiro henkou shite shimatta',
      '<turn_aborted>',
    ]);
    expect(taken.every(([, r]) => r.compactionId === null && r.fromCall === 1)).toBe(true);
  });

  it("reads each call's usage as a plain reading of the token_counts does", () => {
    const plain = text
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; payload: { type?: string; info?: { last_token_usage: { input_tokens: number; output_tokens: number } } } })
      .filter((r) => r.type === 'event_msg' && r.payload.type === 'token_count')
      .map((r) => [r.payload.info!.last_token_usage.input_tokens, r.payload.info!.last_token_usage.output_tokens]);
    expect(calls.map((c) => [reportedPromptTokens(c), c.usage!.output])).toEqual(plain);
  });
});
