import { describe, expect, it } from 'vitest';
import type { Item } from '../model/types';
import { agentTurns } from './agent-turns';

const item = (id: string, role: Item['role']): Item => ({ id, kind: 'message', role, text: id, source: { file: 't', line: null } });

describe('agentTurns', () => {
  it('groups the parts of one assistant message by id stem and numbers turns from 1', () => {
    const items = [item('m0', 'user'), item('m1.think', 'assistant'), item('m1.call', 'assistant'), item('m2', 'environment'), item('m3', 'assistant')];
    expect(agentTurns(items).map((t) => [t.index, t.start, t.items.map((i) => i.id)])).toEqual([
      [1, 1, ['m1.think', 'm1.call']],
      [2, 4, ['m3']],
    ]);
  });

  it('keeps two assistant messages in a row apart (a timing turn followed directly by its summary)', () => {
    const items = [item('m5.think', 'assistant'), item('m5.call', 'assistant'), item('m6.summary', 'assistant')];
    expect(agentTurns(items).map((t) => t.items.map((i) => i.id))).toEqual([['m5.think', 'm5.call'], ['m6.summary']]);
  });
});
