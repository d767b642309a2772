import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';

// The fixture imitates Harbor's terminus-2 golden trajectory with context summarization
// (harbor tests/golden/terminus_2/hello-world-context-summarization.trajectory.json, RFC 0001 ATIF-v1.5): agent
// steps with tool calls, observations with and without source_call_id, per-step metrics, the system handoff step
// referencing the summarizer subagents, and the handoff prompt the next agent reads.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('atif', () => {
  const load = () => loadText('atif-terminus-summarization.json', fixture('atif-terminus-summarization.json'));

  it('reads the trajectory with its agent, model and totals', () => {
    const { sessions, issues } = load();
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('atif');
    expect(s.id).toBe('hello-world-summarized');
    expect(s.model).toBe('openai/gpt-4o');
    expect(s.meta).toEqual({ schema_version: 'ATIF-v1.5', agent: 'terminus-2', agent_version: '2.0.0', total_cost_usd: 0.006472 });
  });

  it('turns steps into items: messages, reasoning, tool calls and their results', () => {
    const s = load().sessions[0]!;
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.callId ?? null, i.pairId ?? null])).toEqual([
      ['s1', 'user', 'message', null, null],
      ['s2', 'assistant', 'message', null, null],
      ['s2.call0', 'assistant', 'tool_call', 'call_0_1', 's2.result0'],
      ['s2.result0', 'tool', 'tool_result', 'call_0_1', 's2.call0'],
      ['s3', 'assistant', 'message', null, null],
      ['s3.call0', 'assistant', 'tool_call', 'call_1_1', null],
      ['s3.call1', 'assistant', 'tool_call', 'call_1_2', null],
      // One terminal output for a batch of two commands pairs with neither.
      ['s3.result0', 'environment', 'message', null, null],
      ['s4', 'system', 'compaction', null, null],
      ['s5', 'user', 'summary', null, null],
      ['s6.think', 'assistant', 'thinking', null, null],
      ['s6', 'assistant', 'message', null, null],
      ['s6.call0', 'assistant', 'tool_call', 'call_3_1', 's6.result0'],
      ['s6.result0', 'tool', 'tool_result', 'call_3_1', 's6.call0'],
      ['s7', 'assistant', 'message', null, null],
      ['s7.call0', 'assistant', 'tool_call', 'call_4_task_complete', 's7.result0'],
      ['s7.result0', 'tool', 'tool_result', 'call_4_task_complete', 's7.call0'],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('s2.call0')).toMatchObject({ name: 'bash_command', text: '{"keystrokes":"mkdir test_dir\\n","duration":0.1}', timestamp: '2025-11-02T10:00:04Z' });
    expect(byId.get('s4')!.meta).toEqual({ subagents: 3 });
  });

  it('makes each agent step one call with its metrics as usage (prompt tokens include cached ones)', () => {
    const s = load().sessions[0]!;
    expect(s.responses.map((r) => [r.id, r.itemIds, r.usage, r.model])).toEqual([
      ['s2.response', ['s2', 's2.call0'], { input: 682, output: 60, cacheRead: null, cacheWrite: null, inputIncludesCache: true }, 'openai/gpt-4o'],
      ['s3.response', ['s3', 's3.call0', 's3.call1'], { input: 750, output: 72, cacheRead: 640, cacheWrite: null, inputIncludesCache: true }, 'openai/gpt-4o'],
      ['s6.response', ['s6.think', 's6', 's6.call0'], { input: 420, output: 48, cacheRead: 0, cacheWrite: null, inputIncludesCache: true }, 'openai/gpt-4o'],
      ['s7.response', ['s7', 's7.call0'], { input: 505, output: 30, cacheRead: 384, cacheWrite: null, inputIncludesCache: true }, 'openai/gpt-4o'],
    ]);
  });

  it('makes the handoff a compaction: the task prompt stays, the history is summarized by the handoff prompt', () => {
    const s = load().sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'compaction-1',
        index: 0,
        kind: 'summary',
        trigger: 'compaction',
        tokensBefore: 750,
        tokensAfter: 420,
        replacedIds: ['s2', 's2.call0', 's2.result0', 's3', 's3.call0', 's3.call1', 's3.result0'],
        keptIds: ['s1'],
        summaryId: 's5',
        atItemId: 's4',
        timestamp: '2025-11-02T10:00:15Z',
        source: { file: 'atif-terminus-summarization.json', line: null },
      },
    ]);
    const { calls, removals } = sessionContexts(s);
    expect(calls.map((c) => [c.compactionId, c.entries.map((e) => e.item.id)])).toEqual([
      [null, ['s1']],
      [null, ['s1', 's2', 's2.call0', 's2.result0']],
      ['compaction-1', ['s1', 's5']],
      [null, ['s1', 's5', 's6.think', 's6', 's6.call0', 's6.result0']],
    ]);
    expect(removals.get('s3.result0')).toEqual({ label: 'summarized', compactionId: 'compaction-1', fromCall: 2 });
  });

  it('names the step of an unknown source and keeps the others', () => {
    const bad = JSON.parse(fixture('atif-terminus-summarization.json'));
    bad.steps[1].source = 'robot';
    const { sessions, issues } = loadText('bad.json', JSON.stringify(bad, null, 2));
    expect(issues).toEqual([{ file: 'bad.json', line: expect.any(Number), field: 'steps[1].source', message: expect.stringContaining('unknown source "robot"'), severity: 'error' }]);
    expect(sessions[0]!.responses).toHaveLength(3);
  });
});
