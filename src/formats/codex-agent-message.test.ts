// Codex CLI 0.147's multi-agent rollouts (teslamint/entirecontext · entire/checkpoints/v1 `…/0/full.jsonl`,
// `…/1/full.jsonl`): the root agent's rollout records each sub-agent's message to it as a response item
// `{type: "agent_message", author: "/root/architecture_review", recipient: "/root", content: [input_text…,
// encrypted_content?]}`, which the root model reads in its next call. The loader had left them out with a warning.
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';
import { isHarnessItem, userWordsOf } from '../model/harness-messages';

const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-08-16T16:57:14.000Z', type, payload });
const tokenCount = (input: number, output: number, total: number) =>
  line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 0, total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, total_tokens: input + output } } });
const REPORT = 'Message Type: FINAL_ANSWER\nTask name: /root\nSender: /root/architecture_review\nPayload:\n## Summary\n\nArchitectural Status: `BLOCK`';
const rollout = [
  line('session_meta', { id: 's1', cwd: '/w', originator: 'codex_exec', cli_version: '0.147.0' }),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'review the plan with two reviewers' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Spawned the reviewers.' }] }),
  tokenCount(9000, 40, 9040),
  line('response_item', { type: 'agent_message', id: 'amsg_1', author: '/root/architecture_review', recipient: '/root', content: [{ type: 'input_text', text: REPORT }] }),
  line('response_item', { type: 'agent_message', id: 'amsg_2', author: '/root/contract_review', recipient: '/root', content: [{ type: 'input_text', text: 'Message Type: MESSAGE\nSender: /root/contract_review\nPayload:\n' }, { type: 'encrypted_content', encrypted_content: 'REDACTED' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The architecture review blocks the merge.' }] }),
  tokenCount(9400, 30, 18470),
].join('\n');

describe('a Codex sub-agent message to the root agent', () => {
  const load = () => loadText('rollout-2026-08-16.jsonl', rollout);
  const session = () => load().sessions[0]!;

  it('is in the context of the root call after it, with no warning', () => {
    const s = session();
    const { calls } = sessionContexts(s);
    expect(calls).toHaveLength(2);
    const texts = calls[1]!.entries.map((e) => e.item.text);
    expect(texts).toContain(REPORT);
    expect(texts.some((t) => t.includes('[encrypted_content]'))).toBe(true);
    expect(calls[0]!.entries.some((e) => e.item.text === REPORT)).toBe(false);
    expect(load().issues.map((i) => i.message)).toEqual([]);
  });

  it("is another agent's report, not the person's words", () => {
    const report = session().items.find((it) => it.text === REPORT)!;
    expect(report.role).toBe('user');
    expect(userWordsOf(report)).toBeNull();
    expect(isHarnessItem(report)).toBe(true);
  });

  it('arriving while the root is answering, ends neither that response nor its usage', () => {
    // The sub-agent's message is written when it arrives: here between the root's tool call and that call's token_count.
    const mid = [
      line('session_meta', { id: 's2', cwd: '/w', originator: 'codex_exec', cli_version: '0.147.0' }),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'review it' }] }),
      line('response_item', { type: 'function_call', name: 'wait', arguments: '{}', call_id: 'c1' }),
      line('response_item', { type: 'agent_message', id: 'amsg_3', author: '/root/r1', recipient: '/root', content: [{ type: 'input_text', text: REPORT }] }),
      tokenCount(9000, 40, 9040),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'done' }),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Blocked.' }] }),
      tokenCount(9300, 10, 18350),
    ].join('\n');
    const s = loadText('rollout-mid.jsonl', mid).sessions[0]!;
    expect(s.responses.map((r) => r.usage?.input)).toEqual([9000, 9300]);
    const { calls } = sessionContexts(s);
    expect(calls[1]!.entries.map((e) => e.item.text)).toContain(REPORT);
  });
});
