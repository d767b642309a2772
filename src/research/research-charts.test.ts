import { describe, expect, it } from 'vitest';
import type { OmitTurn } from './agent-omit-metrics';
import { omitCell, percentShares, stripCells, turnShareStack, turnShareTotal } from './research-charts';

const turn = (t: Partial<OmitTurn>): OmitTurn => ({
  turn: 1,
  itemIds: [],
  thoughtId: null,
  thoughtOmitted: false,
  thoughtTokens: 0,
  actionTokens: 0,
  observationId: null,
  observationNumber: null,
  observationTokens: 0,
  observationsInContext: 0,
  omits: [],
  ...t,
});

describe('stripCells', () => {
  it('sizes cells by value, with a floor so short segments stay clickable, filling 100%', () => {
    const cells = stripCells([900, 100, 0], 10);
    expect(cells.map((c) => +c.width.toFixed(2))).toEqual([73, 17, 10]);
    expect(cells.map((c) => +c.left.toFixed(2))).toEqual([0, 73, 90]);
  });

  it('gives equal widths when every value is 0, and caps the floors at half the strip for many cells', () => {
    expect(stripCells([0, 0]).map((c) => c.width)).toEqual([50, 50]);
    expect(stripCells(new Array(40).fill(1), 6).every((c) => c.width === 2.5)).toBe(true);
    // 40 cells: floors of 1.25% each, the other half in proportion, so a 3× longer cell is wider.
    const mixed = stripCells([3, ...new Array(39).fill(1)], 6);
    expect(+mixed[0]!.width.toFixed(4)).toBe(+(1.25 + (3 / 42) * 50).toFixed(4));
    expect(mixed[0]!.width).toBeGreaterThan(mixed[1]!.width * 1.8);
    expect(stripCells([])).toEqual([]);
  });
});

describe('turnShareStack', () => {
  it('stacks thought, action, observation; the context mode stacks the observations the turn saw', () => {
    const t = turn({ thoughtTokens: 30, actionTokens: 5, observationTokens: 100, observationsInContext: 400 });
    expect(turnShareStack(t, 'produced')).toEqual([
      { key: 'thought', value: 30, from: 0, to: 30 },
      { key: 'action', value: 5, from: 30, to: 35 },
      { key: 'observation', value: 100, from: 35, to: 135 },
    ]);
    expect(turnShareStack(t, 'context').at(-1)).toEqual({ key: 'observation', value: 400, from: 35, to: 435 });
    expect(turnShareTotal(t, 'produced')).toBe(135);
    expect(turnShareTotal(t, 'context')).toBe(435);
  });
});

describe('percentShares', () => {
  it("rounds to one decimal and adds up to 100, like the paper's 45.1 / 2.7 / 52.2", () => {
    expect(percentShares({ thought: 451, action: 27, observation: 522 })).toEqual({ thought: 45.1, action: 2.7, observation: 52.2 });
    const p = percentShares({ thought: 1, action: 1, observation: 1 });
    expect(Math.round((p.thought + p.action + p.observation) * 10)).toBe(1000);
    expect(percentShares({ thought: 0, action: 0, observation: 0 })).toEqual({ thought: 0, action: 0, observation: 0 });
  });
});

describe('omitCell', () => {
  it('marks an observation received at its turn, in the context after, omitted at the command turn and gone after', () => {
    const obs = { turn: 2, omittedAtTurn: 4, placeholder: false };
    expect([1, 2, 3, 4, 5].map((m) => omitCell(obs, m))).toEqual(['absent', 'received', 'present', 'omitted-here', 'gone']);
  });

  it('keeps an observation no command names in the context to the end', () => {
    expect([1, 2, 3].map((m) => omitCell({ turn: 1, omittedAtTurn: null, placeholder: true }, m))).toEqual(['received', 'present', 'present']);
  });
});
