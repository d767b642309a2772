import { describe, expect, it } from 'vitest';
import { claudeCodeTriggerValues } from './claude-code-trigger';
import { resolvePolicy } from './presets';

const at = (version: string | null, model: string | null = 'claude-sonnet-4-5-20250929', window = 200_000) => {
  const v = claudeCodeTriggerValues(version, model, window);
  return resolvePolicy('claude-code', { outputReserve: v.outputReserve, buffer: v.buffer }, window).trigger;
};

describe('claudeCodeTriggerValues', () => {
  it('follows the threshold of the version that wrote the session', () => {
    // Read from each version's cli.js: 92 % of (window − 32,000) up to 1.0.70; window − 32,000 − 13,000 to
    // 2.1.20; window − min(max output, 20,000) − 13,000 from 2.1.21.
    expect(at('1.0.21')).toEqual({ kind: 'tokens', threshold: 154_560 });
    expect(at('1.0.71')).toEqual({ kind: 'tokens', threshold: 155_000 });
    expect(at('2.0.74')).toEqual({ kind: 'tokens', threshold: 155_000 });
    expect(at('2.1.20')).toEqual({ kind: 'tokens', threshold: 155_000 });
    expect(at('2.1.21')).toEqual({ kind: 'tokens', threshold: 167_000 });
    expect(at('2.1.92')).toEqual({ kind: 'tokens', threshold: 167_000 });
  });

  it('takes the newest rule when the file names no version, and says so', () => {
    expect(at(null)).toEqual({ kind: 'tokens', threshold: 167_000 });
    expect(claudeCodeTriggerValues(null, null, 200_000).rule).toContain('names no version');
  });

  it('reserves a lower model cap instead of the 32,000 default', () => {
    // Claude 3.5 models answer at most 8,192 tokens, so less is kept free for the summary.
    expect(at('1.0.80', 'claude-3-5-sonnet-20241022')).toEqual({ kind: 'tokens', threshold: 200_000 - 8_192 - 13_000 });
    expect(at('2.1.30', 'claude-3-5-haiku-20241022')).toEqual({ kind: 'tokens', threshold: 200_000 - 8_192 - 13_000 });
  });

  it('scales with the window, as the harness does', () => {
    expect(at('2.1.30', 'claude-sonnet-4-5', 1_000_000)).toEqual({ kind: 'tokens', threshold: 967_000 });
    expect(at('2.0.10', 'claude-sonnet-4-5', 1_000_000)).toEqual({ kind: 'tokens', threshold: 955_000 });
  });
});
