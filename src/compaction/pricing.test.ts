import { describe, expect, it } from 'vitest';
import { callCost, inputCost, priceFor } from './pricing';

describe('priceFor', () => {
  it('finds the family of dated and prefixed model names', () => {
    expect(priceFor('claude-sonnet-4-5-20250929')).toMatchObject({ label: 'Claude Sonnet 3.7/4/4.5', input: 3, cachedInput: 0.3 });
    expect(priceFor('claude-opus-4-5-20251101')?.input).toBe(5);
    expect(priceFor('claude-opus-4-1-20250805')?.input).toBe(15);
    expect(priceFor('claude-3-5-haiku-20241022')?.input).toBe(0.8);
    expect(priceFor('gpt-4.1-mini-2025-04-14')).toMatchObject({ input: 0.4, cachedInput: 0.1 });
    expect(priceFor('openai/gpt-4o-mini')?.input).toBe(0.15);
    expect(priceFor('gpt-5-codex')?.input).toBe(1.25);
    expect(priceFor('deepseek-chat')?.cachedInput).toBe(0.028);
    expect(priceFor('llama-3-70b')).toBeNull();
    expect(priceFor(null)).toBeNull();
  });

  it('takes a caller\'s table', () => {
    expect(priceFor('my-model', [{ match: '^my-', label: 'Mine', input: 1, cachedInput: 0, output: 2 }])).toEqual({ label: 'Mine', input: 1, cachedInput: 0, output: 2 });
  });
});

describe('inputCost and callCost', () => {
  it('prices cached tokens at the cached rate and the rest at the input rate', () => {
    const price = { label: 'x', input: 2, cachedInput: 0.5, output: 8 };
    expect(inputCost(1_000_000, 400_000, price)).toBeCloseTo(0.6 * 2 + 0.4 * 0.5);
    expect(inputCost(100, 500, price)).toBeCloseTo((100 * 0.5) / 1e6);
    expect(callCost(1_000_000, 1_000_000, price)).toBeCloseTo(10);
  });
});
