import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';

// The fixture imitates a mini-swe-agent 2.x run with a LiteLLM tool-calling model (SWE-agent/mini-swe-agent
// agents/default.py `serialize`, models/litellm_model.py `extra.response`, agents/compaction.py records): usage in
// each assistant message's `extra.response.usage`, one compaction record, a format error and a final `exit` message.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('miniSweAgent', () => {
  const load = () => loadText('mini-swe-agent-division.traj.json', fixture('mini-swe-agent-division.traj.json'));

  it('reads the trajectory, its exit message included, without problems', () => {
    const { sessions, issues } = load();
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('mini-swe-agent');
    expect(s.id).toBe('mini-swe-agent-division');
    expect(s.model).toBe('anthropic/claude-sonnet-4-5-20250929');
    expect(s.meta).toEqual({ instance_cost: 0.0172, api_calls: 7, exit_status: 'Submitted', mini_version: '2.1.0', trajectory_format: 'mini-swe-agent-1.1', submitted: true });
    expect(s.items.some((i) => i.text.startsWith('diff --git'))).toBe(false);
  });

  it('makes each assistant message a call sent the messages before it, and a format error a call too', () => {
    const s = load().sessions[0]!;
    expect(s.requests.map((r) => [r.id, r.model, r.timestamp, r.items.length, r.output.map((i) => [i.kind, i.callId ?? null])])).toEqual([
      ['call1', 'claude-sonnet-4-5-20250929', '2025-11-13T12:00:03.000Z', 2, [['message', null], ['tool_call', 'toolu_01']]],
      ['call2', 'claude-sonnet-4-5-20250929', '2025-11-13T12:00:07.000Z', 5, [['message', null], ['tool_call', 'toolu_02']]],
      ['call3', 'claude-sonnet-4-5-20250929', '2025-11-13T12:00:20.000Z', 5, [['message', null], ['tool_call', 'toolu_03']]],
      ['call4', 'anthropic/claude-sonnet-4-5-20250929', '2025-11-13T12:00:25.000Z', 8, [['message', null]]],
      ['call5', 'claude-sonnet-4-5-20250929', '2025-11-13T12:00:29.000Z', 9, [['message', null], ['tool_call', 'toolu_05']]],
      ['call6', 'claude-sonnet-4-5-20250929', '2025-11-13T12:00:33.000Z', 12, [['message', null], ['tool_call', 'toolu_06']]],
    ]);
    expect(s.requests[3]!.output[0]!.text).toBe('The fix is in place.');
    // The format error the harness sent back is in the next call's context; the rejected reply is not.
    const call5 = s.requests[4]!.items;
    expect(call5[call5.length - 1]!.text).toContain('EXACTLY ONE action');
    expect(call5.map((i) => i.id)).not.toContain(s.requests[3]!.output[0]!.id);
    expect(s.items.find((i) => i.callId === 'toolu_02' && i.kind === 'tool_result')).toMatchObject({ pairId: 'r1.o0.call0', role: 'tool' });
  });

  it('reads usage from extra.response.usage, with cache reads and writes inside the prompt tokens', () => {
    const s = load().sessions[0]!;
    expect(s.requests.map((r) => r.usage)).toEqual([
      { input: 1850, output: 42, cacheRead: 0, cacheWrite: 1846, inputIncludesCache: true },
      { input: 1921, output: 38, cacheRead: 1846, cacheWrite: 71, inputIncludesCache: true },
      { input: 610, output: 55, cacheRead: 0, cacheWrite: 606, inputIncludesCache: true },
      null,
      { input: 731, output: 36, cacheRead: 606, cacheWrite: 125, inputIncludesCache: true },
      { input: 790, output: 40, cacheRead: 731, cacheWrite: 59, inputIncludesCache: true },
    ]);
    expect(s.responses.map((r) => r.usage?.input ?? null)).toEqual([1850, 1921, 610, null, 731, 790]);
  });

  it('applies the compaction record before the first call after it: first message, summary, then the kept tail', () => {
    const s = load().sessions[0]!;
    const call3 = s.requests[2]!.items;
    expect(call3.map((i) => [i.role, i.kind])).toEqual([
      ['system', 'message'],
      ['user', 'summary'],
      ['assistant', 'message'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
    ]);
    expect(call3[1]!.text).toBe('<conversation_summary>\nTask: fix the SyntaxError in src/division.py, verify, then submit with git diff. Listed src/: only division.py.\n</conversation_summary>\nContinue from this checkpoint.');
    const { calls, compactions, removals } = sessionContexts(s);
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, 'compaction-1', null, null, null]);
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ kind: 'summary', trigger: 'auto', tokensBefore: 2011, tokensAfter: 596, summaryId: call3[1]!.id, replacedIds: ['r0.m1', 'r0.o0', 'r0.o0.call0', 'r1.m3'], timestamp: '2025-11-13T12:00:12.000Z' });
    expect(compactions[0]!.keptIds).toEqual(['r0.m0']);
    expect([...removals.values()].map((r) => [r.label, r.fromCall])).toEqual([
      ['summarized', 2],
      ['summarized', 2],
      ['summarized', 2],
      ['summarized', 2],
    ]);
  });

  it('names the message that is not an object and keeps the rest', () => {
    const bad = JSON.parse(fixture('mini-swe-agent-division.traj.json'));
    bad.messages[3] = 'oops';
    const { sessions, issues } = loadText('bad.traj.json', JSON.stringify(bad, null, 2));
    expect(issues.map((i) => [i.field, i.severity, i.message])).toEqual([['messages[3]', 'error', 'expected a message object, got string']]);
    expect(sessions[0]!.requests).toHaveLength(6);
  });
});
