import { describe, expect, it } from 'vitest';
import { call, calls, usage, user } from '../cache/test-builders';
import { calibrate } from './calibration';

/** Calls whose reported prompt is exactly prefix + scale × counted + perItem × items. */
function synthetic(prefix: number, scale: number, perItem: number, extra = {}) {
  const counted = [400, 1_900, 5_200, 9_800, 16_000, 24_500, 31_000, 44_000];
  const items = [1, 3, 7, 12, 18, 25, 31, 40];
  const cs = calls(...counted.map((c, i) => call([user(`u${i}`, 'x')], { model: 'claude-opus-4-6', prefixUnrecorded: true, usage: usage({ input: Math.round(prefix + scale * c + perItem * items[i]!), cacheRead: 0, cacheWrite: 0 }), ...extra })));
  return { cs, counted: { tokens: counted, items } };
}

describe('calibrate', () => {
  it('recovers the unrecorded prefix, the tokenizer scale and the framing per item, one prefix for the segment', () => {
    const { cs, counted } = synthetic(26_000, 1.18, 90);
    const cal = calibrate(cs, counted, true);
    expect(cal.prefixTokens).toBeGreaterThan(25_500);
    expect(cal.prefixTokens).toBeLessThan(26_500);
    expect(cal.scale).toBeCloseTo(1.18, 1);
    expect(cal.perItem).toBeGreaterThan(60);
    expect(new Set(cal.calls.map((c) => c.prefixTokens)).size).toBe(1);
    for (const c of cal.calls) expect(Math.abs(c.contextTokens - c.reportedPrompt!) / c.reportedPrompt!).toBeLessThan(0.01);
    expect(cal.estimated).toBe(true);
  });

  it('is not pulled off by one call whose reported prompt holds something the file never shows', () => {
    const { cs, counted } = synthetic(26_000, 1.18, 0);
    // A reminder of 15,000 tokens sent once and never recorded.
    cs[4]!.usage!.input! += 15_000;
    const cal = calibrate(cs, counted, true);
    expect(cal.scale).toBeCloseTo(1.18, 1);
    expect(Math.abs(cal.prefixTokens - 26_000)).toBeLessThan(1_000);
  });

  it('leaves a call whose whole prompt is smaller than the prefix its items, at the smallest tokenizer ratio of their count', () => {
    const { cs, counted } = synthetic(26_000, 1, 0);
    // The first call went out with fewer tools: its whole prompt is below the segment's prefix.
    cs[0]!.usage!.input! = 20_000;
    const cal = calibrate(cs, counted, true);
    const first = cal.calls[0]!;
    expect(first.contextTokens).toBe(20_000);
    // The items (400 counted) keep 0.7 × 400 = 280 tokens; the prefix takes the rest, never the whole prompt.
    expect(first.prefixTokens).toBe(20_000 - 280);
    // The other calls share one prefix, as before.
    expect(new Set(cal.calls.slice(1).map((c) => c.prefixTokens)).size).toBe(1);
    expect(cal.calls[1]!.prefixTokens).toBeGreaterThan(25_500);
  });

  it('leaves counts as they are without reported usage, marking them estimated only for a stand-in tokenizer', () => {
    const cs = calls(call([user('u0', 'x')]), call([user('u0', 'x'), user('u1', 'y')]));
    const exact = calibrate(cs, { tokens: [10, 20], items: [1, 2] });
    expect(exact.calls.map((c) => [c.contextTokens, c.estimated, c.uncertainty])).toEqual([
      [10, false, 0],
      [20, false, 0],
    ]);
    const approx = calibrate(cs, { tokens: [10, 20], items: [1, 2] }, true);
    expect(approx.calls.map((c) => [c.contextTokens, c.estimated])).toEqual([
      [10, true],
      [20, true],
    ]);
    expect(approx.calls[0]!.uncertainty).toBeGreaterThan(0);
  });

  it('fits no prefix where the format records the whole prompt, only the scale', () => {
    const cs = calls(...[100, 300, 900, 2_000].map((c, i) => call([user(`u${i}`, 'x')], { api: 'openai-chat', model: 'gpt-4o', usage: usage({ input: Math.round(c * 1.1), cacheRead: 0 }) })));
    const cal = calibrate(cs, { tokens: [100, 300, 900, 2_000], items: [1, 2, 3, 4] });
    expect(cal.prefixTokens).toBe(0);
    expect(cal.calls.map((c) => c.contextTokens)).toEqual([110, 330, 990, 2_200]);
  });

  it('refits where the model changes', () => {
    const a = synthetic(26_000, 1.18, 0).cs;
    const b = synthetic(4_000, 1.3, 0, { model: 'gpt-5.3-codex', api: 'openai-responses' }).cs;
    const cs = calls(...a, ...b);
    const counted = synthetic(0, 1, 0).counted;
    const cal = calibrate(cs, { tokens: [...counted.tokens, ...counted.tokens], items: [...counted.items, ...counted.items] }, true);
    expect(new Set(cal.calls.map((c) => c.segment))).toEqual(new Set([0, 1]));
    expect(Math.abs(cal.calls[0]!.prefixTokens - 26_000)).toBeLessThan(500);
    expect(Math.abs(cal.calls[8]!.prefixTokens - 4_000)).toBeLessThan(500);
  });
});
