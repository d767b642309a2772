import { describe, expect, it } from 'vitest';
import { anthropicMinTokens, claudeVersion, providerOf, roundPrefix, ruleForApi, ruleForCall } from './provider-rules';

describe('roundPrefix', () => {
  it('gives OpenAI nothing below 1024 tokens, then 128-token steps', () => {
    expect(roundPrefix('openai', 1023)).toBe(0);
    expect(roundPrefix('openai', 1024)).toBe(1024);
    expect(roundPrefix('openai', 1151)).toBe(1024);
    expect(roundPrefix('openai', 1152)).toBe(1152);
    expect(roundPrefix('openai', 60_001)).toBe(59_904);
  });

  it('rounds vLLM down to 16-token blocks, DeepSeek to 64-token units, and leaves exact alone', () => {
    expect(roundPrefix('vllm', 15)).toBe(0);
    expect(roundPrefix('vllm', 37)).toBe(32);
    expect(roundPrefix('deepseek', 63)).toBe(0);
    expect(roundPrefix('deepseek', 130)).toBe(128);
    expect(roundPrefix('exact', 37)).toBe(37);
    expect(roundPrefix('exact', -3)).toBe(0);
  });

  it('without block information, gives Anthropic the whole prefix once it reaches the model minimum', () => {
    expect(roundPrefix('anthropic', 1023, { model: 'claude-sonnet-4-5' })).toBe(0);
    expect(roundPrefix('anthropic', 1500, { model: 'claude-sonnet-4-5' })).toBe(1500);
    expect(roundPrefix('anthropic', 1500, { model: 'claude-haiku-4-5' })).toBe(0);
  });

  it('serves Anthropic only up to the last shared block end that a breakpoint reaches and the previous call wrote', () => {
    // Blocks end at 1000, 2000, …, 30000 tokens; the first 25 blocks are shared, the 26th differs.
    const blockEnds = Array.from({ length: 30 }, (_, j) => (j + 1) * 1000);
    const base = { model: 'claude-sonnet-4-5', blockEnds, sharedBlocks: 25 };
    // A breakpoint on the last block (29) looks back to block 9: block 24 is the latest shared reachable end.
    expect(roundPrefix('anthropic', 25_400, { ...base, breakpoints: [29] })).toBe(25_000);
    // Written only at blocks 2 and 29 by the previous call: block 24 was never cached, block 2 is out of reach of 29.
    expect(roundPrefix('anthropic', 25_400, { ...base, breakpoints: [29], written: [2, 29] })).toBe(0);
    // A breakpoint at block 2 as well reaches its own cache entry.
    expect(roundPrefix('anthropic', 25_400, { ...base, breakpoints: [2, 29], written: [2, 29] })).toBe(3000);
    // Below the model minimum nothing is served, even at a breakpoint.
    expect(roundPrefix('anthropic', 25_400, { ...base, model: 'claude-opus-4-5', breakpoints: [2], written: [2] })).toBe(0);
  });
});

describe('anthropicMinTokens', () => {
  it('reads the minimum cacheable prefix from the model name', () => {
    expect(anthropicMinTokens('claude-opus-4-5-20251101')).toBe(4096);
    expect(anthropicMinTokens('claude-opus-4-6')).toBe(4096);
    expect(anthropicMinTokens('anthropic/claude-opus-4.5')).toBe(4096);
    expect(anthropicMinTokens('claude-haiku-4-5-20251001')).toBe(4096);
    expect(anthropicMinTokens('claude-3-5-haiku-20241022')).toBe(2048);
    expect(anthropicMinTokens('claude-3-haiku-20240307')).toBe(2048);
    expect(anthropicMinTokens('claude-sonnet-4-6')).toBe(2048);
    expect(anthropicMinTokens('claude-sonnet-4-5-20250929')).toBe(1024);
    expect(anthropicMinTokens('claude-opus-4-1-20250805')).toBe(1024);
    expect(anthropicMinTokens('claude-opus-4-20250514')).toBe(1024);
    expect(anthropicMinTokens('claude-3-7-sonnet-20250219')).toBe(1024);
    expect(anthropicMinTokens(null)).toBe(1024);
  });

  it('never takes the date of a model id for its minor version', () => {
    expect(claudeVersion('claude-opus-4-20250514')).toEqual({ family: 'opus', major: 4, minor: 0 });
    expect(claudeVersion('claude-3-5-sonnet-20241022')).toEqual({ family: 'sonnet', major: 3, minor: 5 });
    expect(claudeVersion('gpt-4o')).toBeNull();
  });
});

describe('ruleForApi', () => {
  it('maps wire APIs to rules and unknown APIs to exact', () => {
    expect(ruleForApi('anthropic')).toBe('anthropic');
    expect(ruleForApi('openai-chat')).toBe('openai');
    expect(ruleForApi('openai-responses')).toBe('openai');
    expect(ruleForApi(null)).toBe('exact');
  });
});

describe('providerOf', () => {
  const u = (input: number, cacheRead: number) => ({ input, output: null, cacheRead, cacheWrite: null });

  it('takes the recorded API first, then the model name, then the usage convention', () => {
    expect(providerOf({ api: 'anthropic', model: null, usage: null })).toBe('anthropic');
    expect(providerOf({ api: null, model: 'claude-opus-4-1-20250805', usage: null })).toBe('anthropic');
    expect(providerOf({ api: null, model: 'gpt-5.3-codex', usage: null })).toBe('openai');
    expect(providerOf({ api: null, model: 'o4-mini', usage: null })).toBe('openai');
    expect(providerOf({ api: 'openai-chat', model: 'deepseek-chat', usage: null })).toBe('deepseek');
    // Input smaller than the cache read: input excludes cached tokens, as Anthropic counts.
    expect(providerOf({ api: null, model: 'my-model', usage: u(12, 30_000) })).toBe('anthropic');
    expect(providerOf({ api: null, model: 'my-model', usage: u(30_000, 12) })).toBeNull();
  });

  it('gives auto the provider rule, or exact when the provider is unknown', () => {
    expect(ruleForCall({ api: null, model: 'claude-sonnet-4-5', usage: null })).toBe('anthropic');
    expect(ruleForCall({ api: null, model: 'deepseek-reasoner', usage: null })).toBe('deepseek');
    expect(ruleForCall({ api: null, model: null, usage: null })).toBe('exact');
  });
});
