import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { metricsOfSessions } from './session-pool';

const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url))) });

describe('metricsOfSessions', () => {
  it('gives, on worker threads, in input order, what one thread gives', async () => {
    const sessions = loadFiles([fixture('claude-code-cache-forensics.jsonl'), fixture('codex-rollout.jsonl'), fixture('openhands-condensation.json')]).sessions;
    expect(sessions).toHaveLength(3);
    const one = await metricsOfSessions(sessions, { rule: 'auto' }, 1);
    const two = await metricsOfSessions(sessions, { rule: 'auto' }, 2);
    expect(one.every((o) => o.ok)).toBe(true);
    // Same outcomes at the same positions: the sessions differ in calls, so a swap would show.
    expect(two).toEqual(one);
    expect(new Set(one.map((o) => (o.ok ? o.metrics.facts.calls : -1))).size).toBe(3);
  }, 60_000);
});
