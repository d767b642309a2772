import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { sessionContexts } from '../analysis/session-analysis';
import { createTokenCounter } from '../tokens';
import { loadText } from '../load/loader';

// The fixture imitates a SWE-agent 1.1 function-calling run (`DefaultAgent.save_trajectory`, see
// SWE-agent/SWE-agent sweagent/agent/agents.py and sweagent/types.py) with LastNObservations(n=1): each step's
// `query` is what that call was sent, older observations elided to "Old environment output: (N lines omitted)",
// and a last autosubmission step whose query is the default `[{}]`.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('sweAgent', () => {
  const load = () => loadText('swe-agent-division.traj', fixture('swe-agent-division.traj'));

  it('is read as SWE-agent, not OpenHands, with no warning', () => {
    const { sessions, issues } = load();
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('swe-agent');
    expect(s.id).toBe('swe-agent-division');
    expect(s.model).toBe('claude-sonnet-4-20250514');
    expect(s.meta).toEqual({ tokens_sent: 9876, tokens_received: 412, api_calls: 4, instance_cost: 0.0421, exit_status: 'submitted', swe_agent_version: '1.1.0', submitted: true });
    expect(s.skipped).toEqual({ 'step without a model call': 1 });
  });

  it('makes every step with a query one recorded call, sent exactly its query', () => {
    const s = load().sessions[0]!;
    expect(s.requests.map((r) => [r.id, r.api, r.items.map((i) => i.id), r.output.map((i) => i.id)])).toEqual([
      ['step1', 'openai-chat', ['r0.m0', 'r0.m1'], ['r0.o0']],
      ['step2', 'openai-chat', ['r0.m0', 'r0.m1', 'r0.o0', 'r1.m2.call0', 'r1.m3'], ['r1.o0']],
      ['step3', 'openai-chat', ['r0.m0', 'r0.m1', 'r0.o0', 'r1.m2.call0', 'r2.m3', 'r1.o0', 'r2.m4.call0', 'r2.m5'], ['r2.o0']],
      ['step4', 'openai-chat', ['r0.m0', 'r0.m1', 'r0.o0', 'r1.m2.call0', 'r2.m3', 'r1.o0', 'r2.m4.call0', 'r3.m5', 'r2.o0', 'r3.m6.call0', 'r3.m7'], ['r3.o0']],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('r0.m1')!.text).toContain('<pr_description>');
    expect(byId.get('r1.m2.call0')).toMatchObject({ kind: 'tool_call', name: 'str_replace_editor', callId: 'toolu_01', text: '{"command": "view", "path": "/testbed/src/division.py"}' });
    expect(byId.get('r1.m3')).toMatchObject({ kind: 'tool_result', callId: 'toolu_01', pairId: 'r1.m2.call0' });
    expect(byId.get('r1.m3')!.text).toContain('def division(a: float, b: float) -> float');
  });

  it('reads no usage per call (SWE-agent records only run totals) and one response per call', () => {
    const s = load().sessions[0]!;
    expect(s.requests.map((r) => r.usage)).toEqual([null, null, null, null]);
    expect(s.responses.map((r) => [r.id, r.itemIds])).toEqual([
      ['step1.response', ['r0.o0']],
      ['step2.response', ['r1.o0']],
      ['step3.response', ['r2.o0']],
      ['step4.response', ['r3.o0']],
    ]);
  });

  it('turns elided observations into placeholders, and shows what they replaced as masked', () => {
    const s = load().sessions[0]!;
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('r2.m3')).toMatchObject({ kind: 'tool_result', callId: 'toolu_01', text: 'Old environment output: (8 lines omitted)', omission: { target: 'observation', refs: ['r1.m3'], marker: 'Old environment output: (8 lines omitted)' } });
    expect(byId.get('r3.m5')!.omission).toMatchObject({ refs: ['r2.m5'] });
    const { calls, compactions, removals } = sessionContexts(s);
    expect(calls.map((c) => [c.recorded, c.compactionId])).toEqual([
      [true, null],
      [true, null],
      [true, 'inferred-2'],
      [true, 'inferred-3'],
    ]);
    expect(compactions.map((c) => [c.id, c.replacedIds])).toEqual([
      ['inferred-2', ['r1.m3']],
      ['inferred-3', ['r2.m5']],
    ]);
    expect([...removals]).toEqual([
      ['r1.m3', { label: 'masked', compactionId: 'inferred-2', fromCall: 2 }],
      ['r2.m5', { label: 'masked', compactionId: 'inferred-3', fromCall: 3 }],
    ]);
  });

  it('names the step and field of a bad query and keeps the other steps', () => {
    const bad = JSON.parse(fixture('swe-agent-division.traj'));
    bad.trajectory[1].query = 'not a list';
    const { sessions, issues } = loadText('bad.traj', JSON.stringify(bad, null, 2));
    expect(issues).toEqual([{ file: 'bad.traj', line: expect.any(Number), field: 'trajectory[1].query', message: expect.stringContaining('list of messages'), severity: 'error' }]);
    expect(sessions[0]!.requests.map((r) => r.id)).toEqual(['step1', 'step3', 'step4']);
  });

  it('rebuilds a SWE-agent 0.x file (no query per step) from its history, and says so', () => {
    const old = {
      trajectory: [{ action: 'ls', observation: 'a.py', response: 'DISCUSSION\nlist files\n```\nls\n```', thought: 'list files', state: '{}' }],
      history: [
        { role: 'system', content: 'SETTING: you are an autonomous programmer', agent: 'primary' },
        { role: 'user', content: 'fix the bug', agent: 'primary' },
        { role: 'assistant', content: 'DISCUSSION\nlist files\n```\nls\n```', thought: 'list files', action: 'ls\n', agent: 'primary' },
        { role: 'user', content: 'a.py\n(Open file: n/a)', agent: 'primary' },
      ],
      info: { model_stats: { total_cost: 0.01, instance_cost: 0.01, tokens_sent: 500, tokens_received: 20, api_calls: 1 }, exit_status: 'submitted' },
    };
    const { sessions, issues } = loadText('old.traj', JSON.stringify(old, null, 2));
    expect(issues.map((i) => [i.severity, i.field])).toEqual([['warning', 'trajectory']]);
    const s = sessions[0]!;
    expect(s.format).toBe('swe-agent');
    expect(s.requests).toEqual([]);
    expect(s.items.map((i) => [i.id, i.role])).toEqual([
      ['h0', 'system'],
      ['h1', 'user'],
      ['h2', 'assistant'],
      ['h3', 'user'],
    ]);
    expect(sessionContexts(s).calls.map((c) => c.entries.map((e) => e.item.id))).toEqual([['h0', 'h1']]);
  });

  it('adds the steps the history has not saved yet as the calls they were (the last submit)', () => {
    // Modelled on SWE-agent/SWE-agent's tests/test_data/trajectories (gpt4 …/6e44b9__sweagenttestrepo-1c2844.traj):
    // five steps, the history's four assistant turns, `api_calls` 5; the submit step is only in `trajectory`.
    const steps = [
      { action: 'ls', observation: 'a.py', response: 'list files', thought: 'list files', state: '{}' },
      { action: 'python a.py', observation: '8.2', response: 'run it', thought: 'run it', state: '{}' },
      { action: 'submit', observation: 'diff --git a/a.py', response: 'submit the fix', thought: 'submit', state: '{}' },
    ];
    const history = [
      { role: 'system', content: 'SETTING: you are an autonomous programmer', agent: 'main', message_type: 'system_prompt' },
      { role: 'user', content: 'fix the bug', agent: 'main', message_type: 'observation' },
      { role: 'assistant', content: 'list files', agent: 'main', message_type: 'action' },
      { role: 'user', content: 'a.py', agent: 'main', message_type: 'observation' },
      { role: 'assistant', content: 'run it', agent: 'main', message_type: 'action' },
      { role: 'user', content: '8.2', agent: 'main', message_type: 'observation' },
    ];
    const stats = { instance_cost: 0.01, tokens_sent: 900, tokens_received: 30, api_calls: 3 };
    const s = loadText('t.traj', JSON.stringify({ trajectory: steps, history, info: { model_stats: stats } })).sessions[0]!;
    const calls = sessionContexts(s).calls;
    expect(calls).toHaveLength(3);
    expect(calls[2]!.entries.map((e) => e.item.text)).toEqual(['SETTING: you are an autonomous programmer', 'fix the bug', 'list files', 'a.py', 'run it', '8.2']);
    expect(calls[2]!.output.map((it) => it.text)).toEqual(['submit the fix']);
    // The submit's own observation was sent to no call: it is not made a turn.
    expect(s.items.some((it) => it.text === 'diff --git a/a.py')).toBe(false);
    // A history that holds every step gets nothing added.
    const whole = [...history, { role: 'assistant', content: 'submit the fix', agent: 'main', message_type: 'action' }];
    expect(sessionContexts(loadText('w.traj', JSON.stringify({ trajectory: steps, history: whole, info: { model_stats: stats } })).sessions[0]!).calls).toHaveLength(3);
  });

  it('reads a demonstration file (history alone, as run_traj_to_demo writes it) as a transcript, and says so', () => {
    const { sessions, issues } = loadText('swe-agent-demonstration.traj', fixture('swe-agent-demonstration.traj'));
    expect(issues).toEqual([{ file: 'swe-agent-demonstration.traj', line: 2, field: 'history', severity: 'warning', message: expect.stringContaining('SWE-agent demonstration') }]);
    const s = sessions[0]!;
    expect(s.format).toBe('swe-agent');
    // Each run of assistant output is a call whose context is the history before it; no usage is recorded.
    const calls = sessionContexts(s).calls;
    expect(calls.length).toBe(2);
    expect(calls[1]!.entries.map((e) => e.item.id)).toContain('h3');
    expect(s.requests.every((r) => r.usage === null)).toBe(true);
    expect(s.items.filter((i) => i.kind === 'tool_result').map((i) => i.callId)).toEqual(['call_demo_1', 'call_demo_2']);
  });

  it('leaves a bare history of plain chat messages to other formats: the SWE-agent fields decide', () => {
    const plain = { history: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] };
    const { sessions } = loadText('plain.json', JSON.stringify(plain));
    expect(sessions[0]?.format).not.toBe('swe-agent');
  });

  describe('SWE-agent 0.x demonstrations (swe-agent-0.7-demo.traj, modelled on v0.7.0 tests/test_data/trajectories)', () => {
    const demoFile = () => fixture('swe-agent-0.7-demo.traj');
    const analyzed = async (text: string) => {
      const counter = await createTokenCounter('o200k_base');
      const s = loadText('swe-agent-0.7-demo.traj', text).sessions[0]!;
      return { s, a: analyzeSession(s, { count: (t) => counter.count(t).tokens }) };
    };

    it('sends the demonstration (`is_demo`) on every call, as SWE-agent 0.x did, and marks it', async () => {
      const { s, a } = await analyzed(demoFile());
      expect(s.items.find((i) => i.id === 'h1')!.meta).toEqual({ demonstration: true });
      // Every step made a call: none is counted as a step without one.
      expect(s.skipped).toEqual({});
      expect(a.contexts.calls.map((c) => c.entries.map((e) => e.item.id).slice(0, 3))).toEqual(Array(4).fill(['h0', 'h1', 'h2']));
      // tokens_sent sums what the four calls were sent: the calls here agree with it.
      expect(a.facts.totals).toMatchObject({ source: "SWE-agent's info.model_stats", reportedPrompt: 12387, reportedCalls: 4, calls: 4, warning: null });
      expect(a.facts.totals!.ratio).toBeGreaterThan(0.9);
      expect(a.facts.totals!.ratio).toBeLessThan(1.1);
    });

    it('checks nothing against the model_stats of a demonstration or replay, which counted no tokens (all 0)', async () => {
      // SWE-agent's own demonstrations (trajectories/demonstrations/*.traj) carry model_stats of zeros: read as totals
      // they gave "reports 0 prompt tokens sent; … Infinity% of that".
      const { s, a } = await analyzed(fixture('swe-agent-replay-demo.traj'));
      expect(s.meta['tokens_sent']).toBe(0);
      expect(JSON.parse(fixture('swe-agent-replay-demo.traj')).info.model_stats.tokens_sent).toBe(0);
      expect(a.facts.totals).toBeNull();
      expect(a.contexts.calls.length).toBe(4);
    });

    it('warns when the calls add up to much less than tokens_sent: something sent on every call is missing', async () => {
      const doc = JSON.parse(demoFile()) as { history: { is_demo?: boolean }[] };
      doc.history = doc.history.filter((m) => !m.is_demo);
      const { a } = await analyzed(JSON.stringify(doc));
      expect(a.facts.totals!.ratio).toBeGreaterThan(2);
      expect(a.facts.totals!.warning).toMatch(/^SWE-agent's info\.model_stats reports 12,387 prompt tokens sent; the 4 calls here add up to [\d,]+, \d+% of that: the calls here lack part of what was sent$/);
    });
  });
});
