import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// The fixture imitates an Agent-Omit WebShop rollout as the paper's appendix prints them (a bare array,
// role `environment`): empty thoughts, an omitted placeholder, and an omit command naming a turn that never came.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const demo = (name: string) => readFileSync(new URL(`../../public/demos/${name}`, import.meta.url), 'utf8');

describe('agentOmit', () => {
  it('marks empty thoughts, omitted observations and omit commands', () => {
    const { sessions, issues } = loadText('shop.json', fixture('agent-omit-webshop.json'));
    const s = sessions[0]!;
    expect(s.format).toBe('agent-omit');
    expect(s.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['m0', 'system', 'message'],
      ['m1', 'user', 'message'],
      ['m2.think', 'assistant', 'thinking'],
      ['m2.call', 'assistant', 'tool_call'],
      ['m3', 'environment', 'tool_result'],
      ['m4.think', 'assistant', 'thinking'],
      ['m4.call', 'assistant', 'tool_call'],
      ['m5', 'environment', 'tool_result'],
      ['m6.think', 'assistant', 'thinking'],
      ['m6.omit', 'assistant', 'omission'],
      ['m6.call', 'assistant', 'tool_call'],
      ['m7', 'environment', 'tool_result'],
      ['m8.think', 'assistant', 'thinking'],
      ['m8.call', 'assistant', 'tool_call'],
      ['m9', 'environment', 'tool_result'],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('m4.think')).toMatchObject({ text: '', omission: { target: 'thought', refs: [] }, meta: { omittedThought: true } });
    expect(byId.get('m8.think')).toMatchObject({ text: '', omission: { target: 'thought', refs: [] } });
    expect(byId.get('m2.think')!.omission).toBeUndefined();
    expect(byId.get('m5')).toMatchObject({ omission: { target: 'observation', refs: ['2'], marker: '<omitted_tool_response_2>' }, meta: { turn: 2 }, pairId: 'm4.call' });
    expect(byId.get('m6.omit')).toMatchObject({ text: '<omit_tool_response_1_2_7></omit_tool_response_1_2_7>', omission: { target: 'observation', refs: ['1', '2', '7'], marker: '<omit_tool_response_1_2_7>' } });
    expect(byId.get('m9')!.meta).toEqual({ turn: 4 });
    expect(s.meta).toEqual({ omittedThoughts: 2, omittedObservations: 2 });
    expect(issues).toEqual([
      { file: 'shop.json', line: 8, field: '[6]', message: '<omit_tool_response_1_2_7> names tool response 7, which no earlier observation turn has', severity: 'warning' },
    ]);
  });

  it('makes each omit command an omission compaction over the tool results of the turns it names', () => {
    const s = loadText('shop.json', fixture('agent-omit-webshop.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'c0',
        index: 0,
        kind: 'omission',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['m3', 'm5'],
        keptIds: [],
        summaryId: null,
        atItemId: 'm6.omit',
        source: { file: 'shop.json', line: null },
      },
    ]);
  });

  it('claims role-environment trajectories with tool calls even before any omission', () => {
    const text = JSON.stringify([{ role: 'user', content: 'q' }, { role: 'assistant', content: '<think>x</think><tool_call>q</tool_call>' }, { role: 'environment', content: '<tool_response_1>r</tool_response_1>' }]);
    expect(loadText('t.json', text).sessions[0]!.format).toBe('agent-omit');
  });

  it('loads the DeepSearch demo: two empty thoughts, two omit commands, a placeholder and the answer', () => {
    const { sessions, issues } = loadText('deepsearch-agent-omit.json', demo('deepsearch-agent-omit.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('agent-omit');
    expect(s.meta).toEqual({ success: true, reward: 1, task: 'deepsearch', omittedThoughts: 2, omittedObservations: 3 });
    expect(s.items.filter((i) => i.kind === 'tool_result').map((i) => i.meta?.['turn'])).toEqual([1, 2, 3, 4, 5]);
    expect(s.items.filter((i) => i.kind === 'omission').map((i) => i.omission?.marker)).toEqual(['<omit_tool_response_1_2>', '<omit_tool_response_4>']);
    expect(s.items.filter((i) => i.omission?.target === 'observation' && i.kind === 'tool_result').map((i) => i.id)).toEqual(['m9']);
    expect(s.compactions).toHaveLength(2);
    expect(s.compactions.map((c) => c.replacedIds)).toEqual([['m3', 'm5'], ['m9']]);
    expect(s.items[s.items.length - 1]).toMatchObject({ kind: 'message', text: 'Yonsei University', meta: { answer: true } });
  });
});
