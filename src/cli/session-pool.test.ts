import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { CLAUDE_CODE_LONG, claudeCodeSession } from '../../bench/generators/claude-code-session';
import { createTokenCounter } from '../tokens/counter';
import { pickEncoding } from '../tokens/encoding';
import { counters } from './cli-io';
import { startCountThreads, type CountThreads } from './count-threads';
import { defaultThreads, metricsFor, metricsOfSessions, threadsFor } from './session-pool';

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
  });
});

describe('metricsFor with counting threads', () => {
  const generated = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });
  const inputs = [
    fixture('claude-code-cache-forensics.jsonl'),
    fixture('codex-rollout.jsonl'),
    fixture('openhands-condensation.json'),
    fixture('request-log-anthropic-compaction.jsonl'),
    generated('compactions.jsonl', claudeCodeSession({ seed: 7, records: 1500, bytes: 1_200_000, compactions: 3 })),
    generated('long.jsonl', claudeCodeSession({ ...CLAUDE_CODE_LONG, records: 1500, bytes: 1_250_000 })),
  ];

  it.each(inputs.map((f) => [f.name, f] as const))('gives on %s what counting on this thread gives, reading every count from the threads', async (_, file) => {
    const session = loadFiles([file]).sessions[0]!;
    const counter = await createTokenCounter(pickEncoding(session.model).encoding);
    let asked = 0;
    // Threads that count on this thread: the path is the threaded one, the counts the engine's.
    const threads: CountThreads = {
      size: 2,
      warm: () => undefined,
      count: async (texts) => {
        asked += texts.length;
        return Float64Array.from(texts, (t) => counter.count(t).tokens);
      },
      close: async () => undefined,
    };
    const serial = await metricsFor(session, counters(), { rule: 'auto' });
    const threaded = await metricsFor(session, counters(), { rule: 'auto' }, threads, 0);
    expect(asked).toBeGreaterThan(0);
    expect(threaded).toEqual(serial);
  });

  it('counts on real worker threads what the counter counts', async () => {
    const threads = startCountThreads(2);
    try {
      const texts = ['hello world', 'assistant:tool_call:Read#toolu_01ABCdef\n', 'tool:tool_result#toolu_01ABCdef\n', 'x'.repeat(5000), '', 'naïve café ☕'];
      const counter = await createTokenCounter('o200k_base');
      expect([...(await threads.count(texts, 'o200k_base'))]).toEqual(texts.map((t) => counter.count(t).tokens));
    } finally {
      await threads.close();
    }
  });
});

describe('threadsFor', () => {
  const big = claudeCodeSession({ ...CLAUDE_CODE_LONG, records: 3_000 });
  it('honours --threads, and by default shares only enough text, over the cores the load average leaves idle', () => {
    const small = loadFiles([fixture('claude-code-cache-forensics.jsonl'), fixture('codex-rollout.jsonl')]).sessions;
    const large = loadFiles([{ name: 'a.jsonl', bytes: new TextEncoder().encode(big) }, { name: 'b.jsonl', bytes: new TextEncoder().encode(big.replaceAll('"sessionId":"', '"sessionId":"b')) }]).sessions;
    expect(large).toHaveLength(2);
    const cores = defaultThreads();
    expect(threadsFor(small, 3, 0)).toBe(3);
    expect(threadsFor(small, undefined, 0)).toBe(1);
    expect(threadsFor(large.slice(0, 1), undefined, 0)).toBe(1);
    expect(threadsFor(large, undefined, 0)).toBe(cores);
    expect(threadsFor(large, undefined, cores + 5)).toBe(1);
    expect(threadsFor(large, 2, cores + 5)).toBe(2);
  });
});
