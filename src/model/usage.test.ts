import { describe, expect, it } from 'vitest';
import { promptTokens } from './usage';

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
