import { describe, expect, it } from 'vitest';
import { missCost, priceOf } from '../cost/prices';
import { compactionCosts } from './compaction-cost';
import type { CallFigures } from './metrics';

const fig = (tokens: number, cached: number): CallFigures => ({ tokens, band: 0, source: 'reported', cached, written: 0, billSource: 'reported', prefixReusedNext: null, cachedNext: null, cost: null });

describe('compactionCosts', () => {
  it('charges a compaction the tokens its next call processed again, never more than that prompt less its read', () => {
    // Modelled on a public Claude Code auto-compaction: 166,758 tokens cached before, a 33,960-token prompt after
    // that read 21,460. What the compaction dropped (132,798) is not processed again.
    const figs = [fig(160_000, 150_000), fig(166_758, 160_000), fig(33_960, 21_460), fig(35_000, 33_900)];
    const { events, totals } = compactionCosts([{ callIndex: 2, tokensBefore: 170_251, tokensAfter: 33_960, summarizer: null }], figs, 'claude-opus-4-6');
    expect(events[0]!.missTokens).toBe(33_960 - 21_460);
    expect(totals.missTokens).toBe(12_500);
    // Opus 4.6: re-written at $6.25 instead of read at $0.50 per million.
    expect(events[0]!.missUsd).toBeCloseTo((12_500 * (6.25 - 0.5)) / 1e6, 9);
  });

  it('counts only what the call before had cached: new tokens a call sends are no miss', () => {
    // 40,000 cached before; the next prompt is 50,000 and reads 10,000: 30,000 were cached and processed again, the
    // other 10,000 are new and would have been written anyway.
    const { events } = compactionCosts([{ callIndex: 1, tokensBefore: 40_000, tokensAfter: 50_000, summarizer: null }], [fig(40_000, 0), fig(50_000, 10_000)], null);
    expect(events[0]!.missTokens).toBe(30_000);
  });

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
