import { describe, expect, it } from 'vitest';
import { promptTokens, reportsACall } from './usage';

describe('promptTokens', () => {
  it('adds cache reads and writes to Anthropic-style input, which excludes them', () => {
    expect(promptTokens({ input: 3, output: 9, cacheRead: 11442, cacheWrite: 15005 })).toBe(26450);
  });
  it('keeps OpenAI-style input, which already includes cached tokens', () => {
    expect(promptTokens({ input: 34469, output: 431, cacheRead: 3456, cacheWrite: null })).toBe(34469);
  });
  it('is unknown when input was not reported', () => {
    expect(promptTokens({ input: null, output: 5, cacheRead: null, cacheWrite: null })).toBeNull();
  });
});

describe('reportsACall', () => {
  it('is false for a usage of zeros, which no call reading a prompt can have', () => {
    expect(reportsACall({ input: 0, output: 0, cacheRead: null, cacheWrite: null })).toBe(false);
    expect(reportsACall({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(false);
  });
  it('is true once any part is counted: a prompt served from the cache alone, or an output', () => {
    expect(reportsACall({ input: 0, output: 12, cacheRead: 40_000, cacheWrite: 0 })).toBe(true);
    expect(reportsACall({ input: 3, output: 0, cacheRead: null, cacheWrite: null })).toBe(true);
  });
});
