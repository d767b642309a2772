import { describe, expect, it } from 'vitest';
import { missCost, parsePriceOverrides, priceOf } from './prices';

describe('priceOf', () => {
  it('finds dated model names by family and version, the specific row first', () => {
    expect(priceOf('claude-opus-4-6')).toMatchObject({ input: 5, cacheWrite5m: 6.25, cacheWrite1h: 10, cacheRead: 0.5 });
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({ input: 15 });
    expect(priceOf('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cacheRead: 0.3 });
    expect(priceOf('gpt-5.3-codex')).toMatchObject({ input: 1.75, cacheRead: 0.175 });
    expect(priceOf('gpt-5-mini')).toMatchObject({ input: 0.25 });
    expect(priceOf('my-local-llama')).toBeNull();
  });

  it('takes a user override over the table', () => {
    const { prices } = parsePriceOverrides({ 'claude-opus-4-6': { input: 4, cacheRead: 0.4 } });
    expect(priceOf('Claude-Opus-4-6', prices)).toMatchObject({ input: 4, cacheRead: 0.4, cacheWrite5m: 6.25, source: 'override' });
  });
});

describe('parsePriceOverrides', () => {
  it('names the model and field of every bad value and keeps the good ones', () => {
    const r = parsePriceOverrides({ a: { input: -1 }, b: 'cheap', c: { input: 2, output: 8 } });
    expect(r.errors).toEqual(['a.input: must be a number ≥ 0 (USD per million tokens)', 'b: must be an object with input, cacheWrite5m, cacheWrite1h, cacheRead, output']);
    expect(Object.keys(r.prices)).toEqual(['c']);
  });
});

describe('missCost', () => {
  it('prices a miss as the write (or uncached input) price less the read price', () => {
    expect(missCost(priceOf('claude-opus-4-6')!, 1_000_000, '1h')).toBeCloseTo(9.5, 9);
    expect(missCost(priceOf('gpt-5.3-codex')!, 1_000_000, '5m')).toBeCloseTo(1.575, 9);
  });
});
