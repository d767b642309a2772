import { describe, expect, it } from 'vitest';
import type { ModelResponse, Usage } from '../model/types';
import { contextWindowOf, knownContextWindow, sessionContextWindow } from './context-window';

const response = (usage: Usage | null, index = 0): ModelResponse => ({ id: `r${index}`, index, itemIds: [], usage, model: null, source: { file: 'f', line: null } });
const anthropic = (input: number, cacheRead: number, output: number): Usage => ({ input, output, cacheRead, cacheWrite: 0, inputIncludesCache: false });

describe('sessionContextWindow', () => {
  it('takes the window the file reports, the session’s or a call’s, before any table', () => {
    expect(sessionContextWindow({ contextWindow: 272_000, responses: [], model: 'gpt-5-codex' })).toBe(272_000);
    expect(sessionContextWindow({ contextWindow: null, responses: [response({ ...anthropic(10, 0, 5), contextWindow: 1_000_000 })], model: 'claude-sonnet-4-5' })).toBe(1_000_000);
  });
  it('takes the model’s known window while every reported prompt fits in it', () => {
    expect(sessionContextWindow({ contextWindow: null, responses: [response(anthropic(12, 148_000, 300))], model: 'claude-sonnet-4-5' })).toBe(200_000);
    expect(sessionContextWindow({ contextWindow: null, responses: [], model: 'deepseek-chat' })).toBe(knownContextWindow('deepseek-chat'));
  });
  it('knows no window when the provider served a larger prompt than the table allows', () => {
    // Modelled on LeoDChen/claude-config: deepseek-v4-flash behind Claude Code served prompts of 164,756 tokens, where
    // the table's DeepSeek window is 128,000; and Claude's 1M-token beta past the table's 200,000.
    expect(sessionContextWindow({ contextWindow: null, responses: [response(anthropic(164_756, 0, 104))], model: 'deepseek-v4-flash' })).toBeNull();
    expect(sessionContextWindow({ contextWindow: null, responses: [response(anthropic(3, 412_000, 900))], model: 'claude-sonnet-4-5' })).toBeNull();
    expect(contextWindowOf({ contextWindow: null, responses: [response(anthropic(164_756, 0, 104))], model: 'deepseek-v4-flash' }).overruled).toEqual({ listed: 128_000, served: 164_756 });
    expect(contextWindowOf({ contextWindow: null, responses: [response(anthropic(12, 148_000, 300))], model: 'claude-sonnet-4-5' }).overruled).toBeNull();
  });
});
