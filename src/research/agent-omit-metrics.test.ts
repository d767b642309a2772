import { describe, expect, it } from 'vitest';
import { agentOmitStats } from './agent-omit-metrics';
import { demoSession, fixtureSession, itemText, load, words } from './test-support';

// The DeepSearch demo imitates the paper's C.4 case study: empty thoughts, `<omit_tool_response_1_2>` at
// turn 4, observation 4 kept only as its `<omitted_tool_response_4>` placeholder and omitted at turn 5.
describe('agentOmitStats', () => {
  it('finds the turns that omitted their thought and when each observation was omitted', () => {
    const s = demoSession('deepsearch-agent-omit.json');
    const st = agentOmitStats(s, words);
    expect(st.turns.map((t) => [t.turn, t.thoughtId, t.thoughtOmitted, t.observationId, t.observationNumber, t.omits])).toEqual([
      [1, 'm2.think', false, 'm3', 1, []],
      [2, 'm4.think', false, 'm5', 2, []],
      [3, 'm6.think', true, 'm7', 3, []],
      [4, 'm8.think', false, 'm9', 4, [1, 2]],
      [5, 'm10.think', false, 'm11', 5, [4]],
      [6, 'm12.think', true, null, null, []],
    ]);
    expect(st.omittedThoughtTurns).toEqual([3, 6]);
    expect(st.omitted.map((o) => [o.number, o.itemId, o.turn, o.omittedAtTurn, o.omitItemId, o.placeholder])).toEqual([
      [1, 'm3', 1, 4, 'm8.omit', false],
      [2, 'm5', 2, 4, 'm8.omit', false],
      [4, 'm9', 4, 5, 'm10.omit', true],
    ]);
    expect(st.unknownRefs).toEqual([]);
    expect(st.omissionsByTurn).toEqual([0, 0, 1, 2, 1, 1]);
    expect(st.taskSucceeded).toBe(true);
  });

  it('computes R_omit from the originals it knows: omitted thoughts and the lost observation count 0', () => {
    const s = demoSession('deepsearch-agent-omit.json');
    const st = agentOmitStats(s, words);
    const total = s.items.reduce((n, i) => n + words(i.text), 0);
    const saved = words(itemText(s, 'm3')) + words(itemText(s, 'm5'));
    expect(st.totalTokens).toBe(total);
    expect(st.observationTokensSaved).toBe(saved);
    expect(st.thoughtTokensSaved).toBe(0);
    expect(st.thoughtsWithoutOriginal).toBe(2);
    expect(st.omitted.map((o) => o.savedTokens)).toEqual([words(itemText(s, 'm3')), words(itemText(s, 'm5')), 0]);
    expect(st.rOmit).toEqual({ thought: 0, observation: saved / total, total: saved / total });
  });

  it('splits tokens per turn into thought, action and observation, and stacks observations in the context until omitted', () => {
    const s = demoSession('deepsearch-agent-omit.json');
    const st = agentOmitStats(s, words);
    const w = (id: string) => words(itemText(s, id));
    expect(st.turns[3]).toMatchObject({ thoughtTokens: w('m8.think'), actionTokens: w('m8.omit') + w('m8.call'), observationTokens: w('m9') });
    // Turn 4 still sees observations 1–3 (its own command removes 1 and 2 from turn 5 on).
    expect(st.turns.map((t) => t.observationsInContext)).toEqual([
      0,
      w('m3'),
      w('m3') + w('m5'),
      w('m3') + w('m5') + w('m7'),
      w('m7') + w('m9'),
      w('m7') + w('m11'),
    ]);
    expect(st.share).toEqual({
      thought: st.turns.reduce((n, t) => n + t.thoughtTokens, 0),
      action: st.turns.reduce((n, t) => n + t.actionTokens, 0),
      observation: ['m3', 'm5', 'm7', 'm9', 'm11'].reduce((n, id) => n + w(id), 0),
    });
  });

  it('holds, at every turn, the tokens of exactly the observations returned before it and not yet omitted', () => {
    for (const s of [demoSession('deepsearch-agent-omit.json'), fixtureSession('agent-omit-webshop.json')]) {
      const st = agentOmitStats(s, words);
      const direct = (turn: number) =>
        st.observations.filter((r) => r.turn !== null && r.turn < turn && (r.omittedAtTurn === null || r.omittedAtTurn >= turn)).reduce((n, r) => n + r.tokens, 0);
      expect(st.turns.map((t) => t.observationsInContext)).toEqual(st.turns.map((t) => direct(t.turn)));
      expect(st.turns.some((t) => t.observationsInContext > 0)).toBe(true);
    }
  });

  it('reports a command naming an observation that never came, and a placeholder omitted by a multi-number command', () => {
    // The WebShop fixture: `<omit_tool_response_1_2_7>` at turn 3, observation 2 kept only as a placeholder.
    const s = fixtureSession('agent-omit-webshop.json');
    const st = agentOmitStats(s, words);
    expect(st.unknownRefs).toEqual([{ ref: '7', omitItemId: 'm6.omit', turn: 3 }]);
    expect(st.omitted.map((o) => [o.number, o.omittedAtTurn, o.placeholder, o.savedTokens])).toEqual([
      [1, 3, false, words(itemText(s, 'm3'))],
      [2, 3, true, 0],
    ]);
    expect(st.omittedThoughtTurns).toEqual([2, 4]);
    expect(st.omissionsByTurn).toEqual([0, 1, 2, 1]);
    // A bare array has no success field.
    expect(st.taskSucceeded).toBeNull();
  });

  it('counts an omitted thought whose item still holds its text, and an observation omitted twice once', () => {
    const s = load(
      'kept.json',
      JSON.stringify({
        success: false,
        messages: [
          { role: 'user', content: 'Question: q' },
          { role: 'assistant', content: '<think>plan the search</think><tool_call>a</tool_call>' },
          { role: 'environment', content: '<tool_response_1>one two three</tool_response_1>' },
          { role: 'assistant', content: '<think> </think><omit_tool_response_1></omit_tool_response_1><tool_call>b</tool_call>' },
          { role: 'environment', content: '<tool_response_2>four</tool_response_2>' },
          { role: 'assistant', content: '<think>done</think><omit_tool_response_1_2></omit_tool_response_1_2><answer>x</answer>' },
        ],
      }),
    );
    // An adapter that knew the original thought would keep it on the omitted item.
    const thought = s.items.find((i) => i.id === 'm3.think')!;
    thought.text = 'the original thought';
    const st = agentOmitStats(s, words);
    expect(st.thoughtTokensSaved).toBe(3);
    expect(st.thoughtsWithoutOriginal).toBe(0);
    expect(st.omitted.map((o) => [o.number, o.omittedAtTurn, o.savedTokens])).toEqual([
      [1, 2, 3],
      [2, 3, 1],
    ]);
    expect(st.turns.map((t) => t.omits)).toEqual([[], [1], [2]]);
    const total = s.items.reduce((n, i) => n + words(i.text), 0);
    expect(st.rOmit.thought).toBe(3 / total);
    expect(st.rOmit.observation).toBe(4 / total);
    expect(st.taskSucceeded).toBe(false);
  });

  it('gives zeros, not NaN, for a trajectory with no tokens', () => {
    const s = load('empty.json', JSON.stringify([{ role: 'user', content: '' }, { role: 'assistant', content: '<think></think><tool_call></tool_call>' }, { role: 'environment', content: '' }]));
    expect(agentOmitStats(s, words).rOmit).toEqual({ thought: 0, observation: 0, total: 0 });
  });
});
