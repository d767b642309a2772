import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeSession } from '../../bench/generators/claude-code-session';
import { sessionContexts } from '../analysis/session-analysis';
import { calibrate } from '../analysis/calibration';
import { countedPerCall } from '../analysis/counted-tokens';
import { loadFiles } from '../load/loader';
import { analyzeCachePrefix } from './prefix';
import { countWords } from './test-builders';

const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url))) });

// Reading prompts from spans is a shortcut: it must give, call by call, what reading every call's entries gives.
describe('the cache pass over spans', () => {
  const cases = [
    ['a generated Claude Code session with two compactions', { name: 'gen.jsonl', bytes: new TextEncoder().encode(claudeCodeSession({ seed: 7, records: 400, bytes: 400_000, compactions: 2 })) }],
    ['the cache-forensics fixture', fixture('claude-code-cache-forensics.jsonl')],
    ['a Codex rollout', fixture('codex-rollout.jsonl')],
    ['an OpenHands condensation', fixture('openhands-condensation.json')],
  ] as const;
  it.each(cases)('agrees with the per-entry pass on %s', (_, file) => {
    const session = loadFiles([file]).sessions[0]!;
    const contexts = sessionContexts(session);
    expect(contexts.timeline).not.toBeNull();
    const calibration = calibrate(contexts.calls, countedPerCall(contexts, countWords), false);
    const fromSpans = analyzeCachePrefix(contexts.calls, { count: countWords, calibration, timeline: contexts.timeline });
    const fromEntries = analyzeCachePrefix(contexts.calls, { count: countWords, calibration });
    expect(fromSpans).toEqual(fromEntries);
    expect(fromSpans.length).toBeGreaterThan(3);
  });

  it('finds the compactions of the generated session as breaks, at the calls the per-entry pass finds them', () => {
    const [, file] = cases[0];
    const contexts = sessionContexts(loadFiles([file]).sessions[0]!);
    const breaks = analyzeCachePrefix(contexts.calls, { count: countWords, timeline: contexts.timeline }).filter((r) => r.cause === 'compaction');
    expect(breaks).toHaveLength(2);
    expect(breaks.every((b) => b.lostTokens > 0 && b.divergence !== null)).toBe(true);
  });
});
