import { describe, expect, it } from 'vitest';
import { missCost, priceOf } from '../cost/prices';
import { compactionCosts } from './compaction-cost';
import type { CallFigures } from './metrics';

const fig = (tokens: number, cached: number): CallFigures => ({ tokens, band: 0, source: 'reported', cached, written: 0, billSource: 'reported', prefixReusedNext: null, cachedNext: null, cost: null });

describe('compactionCosts', () => {
  // Calls 1–2 on Opus, 3–5 on Haiku (a /model switch): each compaction is priced at the model of its own call.
  const figs = [fig(40000, 0), fig(12000, 2000), fig(41000, 12000), fig(9000, 1000), fig(9500, 9000)];
  const at = [
    { callIndex: 1, tokensBefore: 40000, tokensAfter: 12000, summarizer: null },
    { callIndex: 3, tokensBefore: 41000, tokensAfter: 9000, summarizer: null },
  ];
  const models = ['claude-opus-4-6', 'claude-opus-4-6', 'claude-haiku-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5'];

  it('prices each compaction at the model of the call it lands at', () => {
    const { events, totals } = compactionCosts(at, figs, (k) => models[k] ?? null);
    const opus = priceOf('claude-opus-4-6')!;
    const haiku = priceOf('claude-haiku-4-5')!;
    expect(events.map((e) => e.missUsd)).toEqual([missCost(opus, 10000, '5m'), missCost(haiku, 8000, '5m')]);
    expect(totals.missUsd).toBeCloseTo(missCost(opus, 10000, '5m') + missCost(haiku, 8000, '5m'), 12);
    expect(totals.priceLabel).toBe(`${opus.label} / ${haiku.label}`);
  });

  it('still takes one model for the whole session', () => {
    const { events, totals } = compactionCosts(at, figs, 'claude-opus-4-6');
    const opus = priceOf('claude-opus-4-6')!;
    expect(events.map((e) => e.missUsd)).toEqual([missCost(opus, 10000, '5m'), missCost(opus, 8000, '5m')]);
    expect(totals.priceLabel).toBe(opus.label);
  });
});
