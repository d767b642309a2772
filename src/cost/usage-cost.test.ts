import { describe, expect, it } from 'vitest';
import { cacheApartUsage, cacheInsideUsage } from '../model/usage';
import { priceOf } from './prices';
import { usageCost } from './usage-cost';

const opus = priceOf('claude-opus-4-6')!;

describe('usageCost', () => {
  it('prices the uncached input, reads, writes and output of Anthropic usage', () => {
    // 10 uncached × $5, 1,000 read × $0.50, 2,000 written × $6.25, 100 out × $25, per million.
    expect(usageCost(cacheApartUsage(10, 100, 1000, 2000), opus)).toBeCloseTo((10 * 5 + 1000 * 0.5 + 2000 * 6.25 + 100 * 25) / 1e6, 12);
  });

  it('prices the writes the provider reports at the 1-hour lifetime at that rate', () => {
    const u = { ...cacheApartUsage(0, 0, 0, 3000), cacheWrite5m: 1000, cacheWrite1h: 2000 };
    expect(usageCost(u, opus)).toBeCloseTo((1000 * 6.25 + 2000 * 10) / 1e6, 12);
  });

  it('reads OpenAI usage, whose input already counts the cached tokens', () => {
    const gpt = priceOf('gpt-5')!;
    expect(usageCost(cacheInsideUsage(1000, 50, 800, null), gpt)).toBeCloseTo((200 * 1.25 + 800 * 0.125 + 50 * 10) / 1e6, 12);
  });

  it('prices nothing without a reported prompt', () => {
    expect(usageCost(cacheApartUsage(null, 40, null, null), opus)).toBeNull();
  });
});
