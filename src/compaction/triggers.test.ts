import { describe, expect, it } from 'vitest';
import { describeTrigger, parseTrigger, shouldFire } from './triggers';

const state = { tokens: 800, window: 1000, callsSinceCompaction: 3 };

describe('shouldFire', () => {
  it('fires a token threshold at or above the threshold', () => {
    expect(shouldFire({ kind: 'tokens', threshold: 800 }, state)).toEqual({ fire: true, reason: '800 ≥ 800 tokens' });
    expect(shouldFire({ kind: 'tokens', threshold: 801 }, state).fire).toBe(false);
  });

  it('fires a fraction of the window, the trigger\'s own window first', () => {
    expect(shouldFire({ kind: 'fraction', fraction: 0.8 }, state)).toEqual({ fire: true, reason: '800 ≥ 800 tokens (80% of 1000)' });
    expect(shouldFire({ kind: 'fraction', fraction: 0.8, window: 2000 }, state).fire).toBe(false);
    expect(shouldFire({ kind: 'fraction', fraction: 0.8 }, { ...state, window: null })).toEqual({ fire: false, reason: 'no context window known' });
  });

  it('fires every N calls since the last compaction', () => {
    expect(shouldFire({ kind: 'turns', every: 3 }, state).fire).toBe(true);
    expect(shouldFire({ kind: 'turns', every: 4 }, state)).toEqual({ fire: false, reason: '3 of every 4 calls' });
  });
});

describe('describeTrigger and parseTrigger', () => {
  it('labels triggers for tables', () => {
    expect(describeTrigger({ kind: 'tokens', threshold: 40000 })).toBe('≥ 40,000 tokens');
    expect(describeTrigger({ kind: 'fraction', fraction: 0.75 })).toBe('≥ 75% of window');
    expect(describeTrigger({ kind: 'turns', every: 5 })).toBe('every 5 calls');
  });

  it('reads triggers from untrusted values and rejects bad ones', () => {
    expect(parseTrigger({ kind: 'fraction', fraction: 0.5, window: 8000, extra: 1 })).toEqual({ kind: 'fraction', fraction: 0.5, window: 8000 });
    expect(parseTrigger({ kind: 'turns', every: 2.7 })).toEqual({ kind: 'turns', every: 2 });
    expect(parseTrigger({ kind: 'fraction', fraction: 1.5 })).toBeNull();
    expect(parseTrigger({ kind: 'tokens', threshold: '100' })).toBeNull();
    expect(parseTrigger(null)).toBeNull();
  });
});
