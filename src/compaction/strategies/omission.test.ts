import { describe, expect, it } from 'vitest';
import { asst, countWords, item, user } from '../../cache/test-builders';
import type { Item } from '../../model/types';
import { fixedSummarizer } from '../test-support';
import { EMPTY_THOUGHT, omission, OMISSION_DEFAULTS } from './omission';

const deps = { summarizer: fixedSummarizer('unused'), count: countWords };
const think = (id: string, text: string) => item(id, 'assistant', 'thinking', text);
const env = (id: string, text: string, turn?: number) => item(id, 'environment', 'message', text, turn === undefined ? {} : { meta: { turn } });

// A DeepSearch-style trajectory (Agent-Omit): thought + search per turn, the environment answers.
function trajectory(): Item[] {
  return [
    user('q', 'How many episodes are in season 4 of The Affair?'),
    think('t1', 'I need to search for the episode count.'),
    asst('a1', '<tool_call>The Affair season 4 episode count</tool_call>'),
    env('o1', '<tool_response_1>doc about the show</tool_response_1>', 1),
    think('t2', 'The documents are not specific; try again.'),
    asst('a2', '<tool_call>The Affair season 4 total episodes</tool_call>'),
    env('o2', '<tool_response_2>more docs</tool_response_2>', 2),
    think('t3', 'Let me try the episode list.'),
    asst('a3', '<tool_call>The Affair season 4 episode list</tool_call>'),
    env('o3', '<tool_response_3>10 episodes</tool_response_3>', 3),
    think('t4', 'Season 4 has 10 episodes.'),
    asst('a4', '<answer>10</answer>'),
  ];
}

describe('omission', () => {
  it('empties thoughts after the first step and replaces observations of steps older than the last N with the paper placeholders', async () => {
    const out = await omission(trajectory(), { ...OMISSION_DEFAULTS, keepLast: 2, keepFirst: 1 }, deps);
    expect(out.replacedIds).toEqual(['o1', 't2', 'o2']);
    const byId = new Map(out.context.map((it) => [it.id, it]));
    expect(byId.get('t1')!.text).toBe('I need to search for the episode count.');
    expect(byId.get('t2')).toMatchObject({ kind: 'thinking', text: '', omission: { target: 'thought', marker: EMPTY_THOUGHT } });
    expect(byId.get('o1')).toMatchObject({ text: '<omitted_tool_response_1></omitted_tool_response_1>', omission: { target: 'observation', refs: ['1'], marker: '<omitted_tool_response_1>' } });
    expect(byId.get('o2')!.text).toBe('<omitted_tool_response_2></omitted_tool_response_2>');
    expect(byId.get('o3')!.text).toBe('<tool_response_3>10 episodes</tool_response_3>');
    expect(byId.get('t3')!.text).toBe('Let me try the episode list.');
    expect(out.label).toBe('omitted');
    expect(out.note).toBe('omitted 1 thought and 2 observations');
  });

  it('omits only what it is asked to', async () => {
    const thoughtsOnly = await omission(trajectory(), { keepLast: 1, keepFirst: 0, thoughts: true, observations: false }, deps);
    expect(thoughtsOnly.replacedIds).toEqual(['t1', 't2', 't3']);
    const none = await omission(trajectory(), { keepLast: 1, keepFirst: 0, thoughts: false, observations: false }, deps);
    expect(none.changed).toBe(false);
  });

  it('numbers observations by model step when the source gives no turn', async () => {
    const items = trajectory().map((it) => (it.meta ? { ...it, meta: {} } : it));
    const out = await omission(items, { ...OMISSION_DEFAULTS, keepLast: 1, thoughts: false }, deps);
    expect(out.context.filter((it) => it.omission).map((it) => it.text)).toEqual([
      '<omitted_tool_response_1></omitted_tool_response_1>',
      '<omitted_tool_response_2></omitted_tool_response_2>',
      '<omitted_tool_response_3></omitted_tool_response_3>',
    ]);
  });
});
