import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// The fixture imitates Self-Sum SFT data in ShareGPT form (ScienceWorld): a timing turn followed directly
// by the summary, a summary without a timing turn, and the query + summary restated at each new segment.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const demo = (name: string) => readFileSync(new URL(`../../public/demos/${name}`, import.meta.url), 'utf8');

describe('selfSum', () => {
  it('splits agent turns into thinking and actions, pairs observations and numbers segments', () => {
    const { sessions, issues } = loadText('sci.json', fixture('self-sum-sciworld.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('self-sum');
    expect(s.id).toBe('sciworld_boil_0031');
    expect(s.meta).toEqual({ success: false, reward: 0.4, segments: 3 });
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.meta?.['segment']])).toEqual([
      ['system', 'system', 'message', 1],
      ['m0', 'user', 'message', 1],
      ['m1.think', 'assistant', 'thinking', 1],
      ['m1.call', 'assistant', 'tool_call', 1],
      ['m2', 'user', 'tool_result', 1],
      ['m3.think', 'assistant', 'thinking', 1],
      ['m3.call', 'assistant', 'tool_call', 1],
      ['m4', 'user', 'tool_result', 1],
      ['m5.think', 'assistant', 'thinking', 1],
      ['m5.call', 'assistant', 'tool_call', 1],
      ['m6.summary', 'assistant', 'summary', 1],
      ['m7', 'user', 'message', 2],
      ['m8.think', 'assistant', 'thinking', 2],
      ['m8.call', 'assistant', 'tool_call', 2],
      ['m9', 'user', 'tool_result', 2],
      ['m10.summary', 'assistant', 'summary', 2],
      ['m11', 'user', 'message', 3],
      ['m12.think', 'assistant', 'thinking', 3],
      ['m12.call', 'assistant', 'tool_call', 3],
      ['m13', 'user', 'tool_result', 3],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('m1.call')).toMatchObject({ name: 'action', text: 'go to kitchen', pairId: 'm2' });
    expect(byId.get('m5.call')!.meta).toEqual({ segment: 1, summaryTiming: true });
    expect(byId.get('m5.call')!.pairId).toBeUndefined();
    expect(byId.get('m7')!.meta).toEqual({ carriesSummary: true, segment: 2 });
    expect(byId.get('m11')!.meta).toEqual({ carriesSummary: true, segment: 3 });
    expect(byId.get('m6.summary')!.text).toBe('I went to the kitchen (sink, stove, cupboard, thermometer) and hold the metal pot. Next: fill it with water at the sink.');
  });

  it('makes each summary replace the segment it closes and keep the query, restated in the next segment\'s first turn', () => {
    const s = loadText('sci.json', fixture('self-sum-sciworld.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'c0',
        index: 0,
        kind: 'summary',
        trigger: 'agent',
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['m1.think', 'm1.call', 'm2', 'm3.think', 'm3.call', 'm4', 'm5.think', 'm5.call'],
        keptIds: ['m0'],
        summaryId: 'm6.summary',
        atItemId: 'm6.summary',
        source: { file: 'sci.json', line: null },
        restatedIn: 'm7',
      },
      {
        id: 'c1',
        index: 1,
        kind: 'summary',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['m6.summary', 'm7', 'm8.think', 'm8.call', 'm9'],
        keptIds: ['m0'],
        summaryId: 'm10.summary',
        atItemId: 'm10.summary',
        source: { file: 'sci.json', line: null },
        restatedIn: 'm11',
      },
    ]);
  });

  it('wins detection over ShareGPT and OpenAI Chat for the same containers', () => {
    expect(loadText('a.json', JSON.stringify({ messages: [{ role: 'system', content: 's' }, { role: 'assistant', content: '<think>x</think><action>look</action>' }] })).sessions[0]!.format).toBe('self-sum');
    expect(loadText('b.json', JSON.stringify({ conversations: [{ from: 'gpt', value: '<summary>so far</summary>' }] })).sessions[0]!.format).toBe('self-sum');
  });

  it('loads the ALFWorld demo: two summaries with timing turns, three segments, success', () => {
    const { sessions, issues } = loadText('alfworld-self-sum.json', demo('alfworld-self-sum.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('self-sum');
    expect(s.meta).toEqual({ success: true, reward: 10, task: 'put a clean mug in coffeemachine', segments: 3 });
    const kinds = new Set(s.items.map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['message', 'summary', 'thinking', 'tool_call', 'tool_result']);
    expect(s.items.filter((i) => i.kind === 'tool_call')).toHaveLength(17);
    expect(s.items.filter((i) => i.meta?.['summaryTiming'])).toHaveLength(2);
    expect(s.items.filter((i) => i.meta?.['carriesSummary']).map((i) => i.id)).toEqual(['m25', 'm35']);
    expect(s.compactions).toHaveLength(2);
    expect(s.compactions.map((c) => [c.trigger, c.keptIds, c.summaryId])).toEqual([
      ['agent', ['m1'], 'm24.summary'],
      ['agent', ['m1'], 'm34.summary'],
    ]);
    expect(s.items.filter((i) => i.kind === 'tool_call').every((i) => i.pairId)).toBe(true);
  });
});
