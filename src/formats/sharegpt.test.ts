import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// The fixture imitates an AgentGym AgentTraj record (WebShop): human/gpt turns with `loss`, ReAct-style text.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('sharegpt', () => {
  it('turns human and gpt turns into plain user and assistant messages', () => {
    const { sessions, issues } = loadText('gym.json', fixture('sharegpt-agentgym.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('sharegpt');
    expect(s.id).toBe('webshop_1423');
    expect(s.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['m0', 'user', 'message'],
      ['m1', 'assistant', 'message'],
      ['m2', 'user', 'message'],
      ['m3', 'assistant', 'message'],
      ['m4', 'user', 'message'],
      ['m5', 'assistant', 'message'],
    ]);
    expect(s.items[3]!.text).toBe('Thought:\nI should search for gluten free chocolate snack bars.\n\nAction:\nsearch[gluten free chocolate snack bar]');
  });

  it('pairs LLaMA-Factory function_call turns with the observation that follows', () => {
    const text = JSON.stringify({
      system: 'You can call tools.',
      conversations: [
        { from: 'human', value: 'Weather in Oslo?' },
        { from: 'function_call', value: '{"name": "get_weather", "arguments": {"city": "Oslo"}}' },
        { from: 'observation', value: '{"temp_c": 4}' },
        { from: 'gpt', value: 'It is 4 °C in Oslo.' },
      ],
    });
    const s = loadText('lf.json', text).sessions[0]!;
    expect(s.format).toBe('sharegpt');
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.pairId ?? null])).toEqual([
      ['system', 'system', 'message', null],
      ['m0', 'user', 'message', null],
      ['m1.call', 'assistant', 'tool_call', 'm2'],
      ['m2', 'environment', 'tool_result', 'm1.call'],
      ['m3', 'assistant', 'message', null],
    ]);
    expect(s.items[2]).toMatchObject({ name: 'get_weather', text: '{"city":"Oslo"}' });
  });

  it('leaves tagged Agent-Omit conversations to the Agent-Omit adapter', () => {
    const text = JSON.stringify({ conversations: [{ from: 'human', value: 'q' }, { from: 'gpt', value: '<think></think><omit_tool_response_1></omit_tool_response_1><tool_call>x</tool_call>' }] });
    expect(loadText('t.json', text).sessions[0]!.format).toBe('agent-omit');
  });

  it('names the line and field of a turn with an unknown speaker', () => {
    const text = [
      '{',
      '  "conversations": [',
      '    {"from": "human", "value": "q"},',
      '    {"from": "gpt", "value": "a"},',
      '    {"from": "human", "value": "q2"},',
      '    {"from": "gpt", "value": "a2"},',
      '    {"from": "narrator", "value": "x"}',
      '  ]',
      '}',
    ].join('\n');
    const { sessions, issues } = loadText('bad.json', text);
    expect(sessions[0]!.items.map((i) => i.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(issues).toEqual([{ file: 'bad.json', line: 7, field: 'conversations[4].from', message: expect.stringContaining('unknown from "narrator"'), severity: 'error' }]);
  });
});
