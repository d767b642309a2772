import { describe, expect, it } from 'vitest';
import { axisTicks, describeFilter, linear, matchesFilter, omissionByTurn, summariesHistogram, summaryTurnHistogram, tokensByOutcome, tokensScatter, type ChartRow } from './corpus-charts';

const row = (p: Partial<ChartRow>): ChartRow => ({
  turns: 3,
  total_tokens: 100,
  peak_context_tokens: 50,
  summaries: 0,
  summary_turns: [],
  thought_omission_turns: [],
  observation_omission_turns: [],
  success: null,
  reward: null,
  ...p,
});

describe('omissionByTurn', () => {
  it('counts omissions per turn over the trajectories that reached that turn', () => {
    const { turns, beyond } = omissionByTurn([
      row({ turns: 2, thought_omission_turns: [2] }),
      row({ turns: 4, thought_omission_turns: [2, 3], observation_omission_turns: [3] }),
    ]);
    expect(turns.map((t) => [t.turn, t.reached, t.thought, t.observation])).toEqual([
      [1, 2, 0, 0],
      [2, 2, 2, 0],
      [3, 1, 1, 1],
      [4, 1, 0, 0],
    ]);
    expect(turns[1]!.thoughtRate).toBe(1);
    expect(turns[2]!.observationRate).toBe(1);
    expect(beyond).toBe(0);
  });

  it('leaves turns past 60 out and counts what it left', () => {
    const { turns, beyond } = omissionByTurn([row({ turns: 80, thought_omission_turns: [10, 70] })]);
    expect(turns).toHaveLength(60);
    expect(beyond).toBe(1);
  });
});

describe('summary histograms', () => {
  const rows = [row({ summaries: 0 }), row({ summaries: 2, summary_turns: [3, 5] }), row({ summaries: 1, summary_turns: [3] })];

  it('counts trajectories by number of summaries, from 0', () => {
    expect(summariesHistogram(rows).buckets).toEqual([
      { value: 0, count: 1 },
      { value: 1, count: 1 },
      { value: 2, count: 1 },
    ]);
    expect(summariesHistogram([row({ summaries: 30 })], 20)).toMatchObject({ capped: true, buckets: expect.arrayContaining([{ value: 20, count: 1 }]) });
  });

  it('counts summaries by the turn after which they fire', () => {
    expect(summaryTurnHistogram(rows).buckets).toEqual([
      { value: 1, count: 0 },
      { value: 2, count: 0 },
      { value: 3, count: 2 },
      { value: 4, count: 0 },
      { value: 5, count: 1 },
    ]);
  });
});

describe('tokensByOutcome and tokensScatter', () => {
  it('averages tokens per outcome, success first', () => {
    const out = tokensByOutcome([row({ success: false, total_tokens: 300 }), row({ success: true, total_tokens: 100 }), row({ success: true, total_tokens: 200, peak_context_tokens: 150 })]);
    expect(out).toEqual([
      { outcome: 'success', trajectories: 2, meanTotalTokens: 150, meanPeakContextTokens: 100 },
      { outcome: 'failure', trajectories: 1, meanTotalTokens: 300, meanPeakContextTokens: 50 },
    ]);
  });

  it('plots reward when the corpus has one (rows with only success at 1/0, marked), else success, and counts rows it cannot place', () => {
    expect(tokensScatter([row({ reward: 0.5, success: true }), row({ success: false }), row({})])).toEqual({
      y: 'reward',
      points: [
        { row: 0, x: 100, y: 0.5, outcome: 'success', fromSuccess: false },
        { row: 1, x: 100, y: 0, outcome: 'failure', fromSuccess: true },
      ],
      unplotted: 1,
    });
    expect(tokensScatter([row({ success: true, total_tokens: 7 }), row({ success: false })]).points.map((p) => [p.x, p.y])).toEqual([
      [7, 1],
      [100, 0],
    ]);
  });
});

describe('filters', () => {
  it('select the rows a bar stands for, in words', () => {
    const r = row({ summaries: 2, summary_turns: [4], observation_omission_turns: [3], success: false });
    expect(matchesFilter(r, { kind: 'summary-turn', turn: 4 })).toBe(true);
    expect(matchesFilter(r, { kind: 'summaries', count: 2, orMore: false })).toBe(true);
    expect(matchesFilter(r, { kind: 'summaries', count: 3, orMore: true })).toBe(false);
    expect(matchesFilter(r, { kind: 'omission-turn', turn: 3, what: 'observation' })).toBe(true);
    expect(matchesFilter(r, { kind: 'omission-turn', turn: 3, what: 'thought' })).toBe(false);
    expect(matchesFilter(r, { kind: 'outcome', outcome: 'failure' })).toBe(true);
    expect(describeFilter({ kind: 'summaries', count: 1, orMore: false })).toBe('1 summary');
    expect(describeFilter({ kind: 'summary-turn', turn: 4 })).toBe('a summary after turn 4');
  });
});

describe('axisTicks', () => {
  it('gives round ticks for token counts and for fractional rewards', () => {
    expect(axisTicks(0, 1834)).toEqual({ min: 0, max: 2000, values: [0, 500, 1000, 1500, 2000] });
    expect(axisTicks(0, 1)).toEqual({ min: 0, max: 1, values: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(axisTicks(-1, 1).values).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(axisTicks(0, 0).values).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('maps linearly', () => {
    expect(linear(0, 10, 100, 0)(2.5)).toBe(75);
  });
});

describe('summaryTurnHistogram past 60 turns', () => {
  it('draws every summary: a compaction at turn 184 lands in a bar of its own run of turns', () => {
    const rows = [row({ summaries: 3, summary_turns: [12, 71, 184] })];
    const { buckets, beyond } = summaryTurnHistogram(rows);
    expect(beyond).toBe(0);
    expect(buckets).toHaveLength(37);
    expect(buckets[0]).toEqual({ value: 1, to: 5, count: 0 });
    expect(buckets.find((b) => b.value <= 184 && b.to! >= 184)).toEqual({ value: 181, to: 185, count: 1 });
    expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(3);
  });

  it('a bar over several turns filters to the rows with a summary in that run', () => {
    expect(matchesFilter(row({ summary_turns: [71] }), { kind: 'summary-turn', turn: 71, to: 75 })).toBe(true);
    expect(matchesFilter(row({ summary_turns: [76] }), { kind: 'summary-turn', turn: 71, to: 75 })).toBe(false);
    expect(describeFilter({ kind: 'summary-turn', turn: 71, to: 75 })).toBe('a summary after turns 71–75');
  });
});
