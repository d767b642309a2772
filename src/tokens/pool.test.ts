import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTokenCounter, type TokenCount } from './counter';
import { createTokenPool, type CountProgress, type CountRequest, type SpawnWorker } from './pool';
import { createCountHandler, spawnInline } from './worker-handler';

/** One token per word: easy to check by eye. */
const words = (t: string): TokenCount => ({ tokens: t.split(/\s+/).filter(Boolean).length, approximate: false });

interface FakeOptions {
  /** Milliseconds before a job is answered. */
  delay?: (request: CountRequest, worker: number) => number;
  /** A worker that receives a text containing this dies. */
  dieOn?: string;
  errorOn?: string;
}

/** Inline fake workers that record every job they were sent. */
function fakeWorkers(options: FakeOptions = {}) {
  const posted: { worker: number; request: CountRequest }[] = [];
  let spawned = 0;
  const spawn: SpawnWorker = (index, hooks) => {
    spawned++;
    return {
      post(request) {
        posted.push({ worker: index, request });
        setTimeout(() => {
          if (options.dieOn && request.texts.some((t) => t.includes(options.dieOn!))) hooks.died(new Error('out of memory'));
          else if (options.errorOn && request.texts.some((t) => t.includes(options.errorOn!))) hooks.reply({ id: request.id, error: 'bad input' });
          else hooks.reply({ id: request.id, counts: request.texts.map(words) });
        }, options.delay?.(request, index) ?? 0);
      },
      terminate() {},
    };
  };
  return { spawn, posted, sent: () => posted.flatMap((p) => p.request.texts), spawned: () => spawned };
}

const texts = Array.from({ length: 40 }, (_, i) => `text ${i} ${'word '.repeat(i % 7)}`.trim());

describe('createTokenPool', () => {
  it('starts its workers ahead of any count without sending them work, and counts with those same workers', async () => {
    const fake = fakeWorkers();
    const pool = createTokenPool({ size: 2, spawn: fake.spawn, jobTexts: 4 });
    pool.start();
    pool.start();
    expect(fake.spawned()).toBe(2);
    expect(fake.posted).toHaveLength(0);
    await pool.count(texts, { encoding: 'o200k_base' });
    expect(fake.spawned()).toBe(2);
    expect(fake.posted.length).toBeGreaterThan(0);
  });

  it('returns counts in the order of the texts when workers answer out of order', async () => {
    // Later jobs answer first.
    const fake = fakeWorkers({ delay: (r) => Math.max(0, 30 - r.id * 3) });
    const pool = createTokenPool({ size: 3, spawn: fake.spawn, jobTexts: 4 });
    const counts = await pool.count(texts, { encoding: 'o200k_base' });
    expect(counts).toEqual(texts.map(words));
    expect(new Set(fake.posted.map((p) => p.worker))).toEqual(new Set([0, 1, 2]));
    expect(fake.posted.length).toBe(10);
  });

  it('streams counts and reports progress up to the total', async () => {
    const fake = fakeWorkers({ delay: (_r, w) => w * 2 });
    const pool = createTokenPool({ size: 2, spawn: fake.spawn, jobTexts: 5 });
    const progress: CountProgress[] = [];
    const streamed = new Map<number, TokenCount>();
    await pool.count(texts, {
      encoding: 'o200k_base',
      onProgress: (p) => progress.push(p),
      onCounts: (indices, counts) => indices.forEach((i, k) => (expect(streamed.has(i)).toBe(false), streamed.set(i, counts[k]!))),
    });
    expect(progress.length).toBe(8);
    expect(progress.map((p) => p.done)).toEqual([5, 10, 15, 20, 25, 30, 35, 40]);
    expect(progress.every((p) => p.total === 40)).toBe(true);
    expect([...streamed.keys()].sort((a, b) => a - b)).toEqual(texts.map((_, i) => i));
  });

  it('sends a prefix repeated by later batches to the workers once', async () => {
    const fake = fakeWorkers();
    const pool = createTokenPool({ size: 2, spawn: fake.spawn });
    const call1 = ['You are a helpful agent.', 'Where is the database?'];
    const call2 = [...call1, 'It is db-prod-1 on port 5432.', 'Thanks, connect to it.'];
    await pool.count(call1, { encoding: 'o200k_base' });
    const progress: CountProgress[] = [];
    const counts = await pool.count(call2.map((t) => JSON.parse(JSON.stringify(t)) as string), { encoding: 'o200k_base', onProgress: (p) => progress.push(p) });
    expect(counts).toEqual(call2.map(words));
    expect(fake.sent()).toEqual(call2);
    expect(pool.memo('o200k_base').stats).toMatchObject({ hits: 2, misses: 4, entries: 4 });
    expect(progress.at(-1)).toEqual({ done: 4, total: 4, reused: 2 });
    // Another encoding has its own memo.
    await pool.count(call1, { encoding: 'cl100k_base' });
    expect(fake.sent().length).toBe(6);
  });

  it('counts a text repeated inside one batch once', async () => {
    const fake = fakeWorkers();
    const pool = createTokenPool({ size: 2, spawn: fake.spawn });
    const counts = await pool.count(['a b', 'c', 'a b', 'a b'], { encoding: 'o200k_base' });
    expect(counts.map((c) => c.tokens)).toEqual([2, 1, 2, 2]);
    expect(fake.sent()).toEqual(['a b', 'c']);
  });

  it('matches repeats by key without reading the text again, trusting that equal keys mean equal texts', async () => {
    const fake = fakeWorkers();
    const pool = createTokenPool({ size: 1, spawn: fake.spawn });
    const counts = await pool.count(['one two', 'three', 'one two three four'], { encoding: 'o200k_base', keys: ['m0', 'm1', 'm0'] });
    expect(counts.map((c) => c.tokens)).toEqual([2, 1, 2]);
    expect(fake.sent()).toEqual(['one two', 'three']);
  });

  it('yields to the host while scanning a long batch, and starts workers before the scan ends', async () => {
    const fake = fakeWorkers();
    let yields = 0;
    const yieldToHost = () => {
      yields++;
      return new Promise<void>((r) => setTimeout(r, 2)); // long enough for fake workers to answer meanwhile
    };
    const pool = createTokenPool({ size: 2, spawn: fake.spawn, sliceMs: 0, yieldToHost });
    const batch = ['the first text', ...Array.from({ length: 300 }, (_, i) => `filler ${i}`), 'the first text'];
    const counts = await pool.count(batch, { encoding: 'o200k_base' });
    expect(counts).toEqual(batch.map(words));
    expect(yields).toBeGreaterThan(3);
    // The repeat at the end was answered from the finished job, not counted again.
    expect(fake.sent().filter((t) => t === 'the first text')).toHaveLength(1);
    expect(fake.posted.length).toBeGreaterThan(1);
  });

  it('rejects every batch in flight when a worker dies, and counts again on a fresh worker afterwards', async () => {
    const fake = fakeWorkers({ dieOn: 'CRASH', delay: (r) => (r.texts.some((t) => t.includes('CRASH')) ? 0 : 20) });
    const pool = createTokenPool({ size: 2, spawn: fake.spawn });
    const slow = pool.count(['a slow batch on the healthy worker'], { encoding: 'o200k_base' });
    const deadly = pool.count(['CRASH here'], { encoding: 'o200k_base' });
    await expect(deadly).rejects.toThrow('token worker 2 stopped: out of memory');
    await expect(slow).rejects.toThrow('token worker 2 stopped: out of memory');
    expect(fake.posted.map((p) => p.worker)).toEqual([0, 1]);
    const again = await pool.count(['fine now', 'and this'], { encoding: 'o200k_base' });
    expect(again.map((c) => c.tokens)).toEqual([2, 2]);
    // Worker 1 is still busy with the abandoned job; the dead worker 2 was replaced by a fresh one.
    expect(fake.spawned()).toBe(3);
    expect(fake.posted.at(-1)!.worker).toBe(1);
  });

  it('rejects the batch whose worker answers with an error, and only that one', async () => {
    const fake = fakeWorkers({ errorOn: 'BAD' });
    const pool = createTokenPool({ size: 2, spawn: fake.spawn });
    const bad = pool.count(['BAD text'], { encoding: 'o200k_base' });
    const good = pool.count(['good text'], { encoding: 'o200k_base' });
    await expect(bad).rejects.toThrow('token worker 1 failed: bad input');
    await expect(good).resolves.toEqual([{ tokens: 2, approximate: false }]);
  });

  it('splits a huge text at line seams across jobs and adds the parts up', async () => {
    const fake = fakeWorkers();
    const pool = createTokenPool({ size: 3, spawn: fake.spawn, jobChars: 200 });
    const huge = Array.from({ length: 100 }, (_, i) => `line ${i} of the tool output`).join('\n');
    const [count] = await pool.count([huge], { encoding: 'o200k_base' });
    expect(count).toEqual(words(huge));
    expect(fake.posted.length).toBeGreaterThan(10);
    expect(fake.sent().join('')).toBe(huge);
    expect(pool.memo('o200k_base').lookup(huge)).toEqual(words(huge));
  });

  it('hands a worker its next job before the current one is answered, and no more than that', async () => {
    const fake = fakeWorkers({ delay: () => 10 });
    const pool = createTokenPool({ size: 1, spawn: fake.spawn, jobTexts: 1 });
    const done = pool.count(['one two', 'three', 'four five six', 'seven'], { encoding: 'o200k_base' });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.posted.length).toBe(2);
    await expect(done).resolves.toEqual([2, 1, 3, 1].map((tokens) => ({ tokens, approximate: false })));
    expect(fake.posted.length).toBe(4);
  });

  it('stops a cancelled batch with an AbortError and keeps serving others', async () => {
    const fake = fakeWorkers({ delay: () => 10 });
    const pool = createTokenPool({ size: 1, spawn: fake.spawn, jobTexts: 1 });
    const controller = new AbortController();
    const cancelled = pool.count(texts, { encoding: 'o200k_base', signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    // The job the worker counts and the next one it holds; the rest of the batch is never sent.
    expect(fake.posted.length).toBe(2);
    await expect(pool.count(['still here'], { encoding: 'o200k_base' })).resolves.toEqual([{ tokens: 2, approximate: false }]);
  });

  it('rejects unfinished batches when terminated', async () => {
    const fake = fakeWorkers({ delay: () => 50 });
    const pool = createTokenPool({ size: 1, spawn: fake.spawn });
    const pending = pool.count(['never answered'], { encoding: 'o200k_base' });
    pool.terminate();
    await expect(pending).rejects.toThrow('terminated');
    await expect(pool.count(['x'], { encoding: 'o200k_base' })).rejects.toThrow('terminated');
  });

  it('counts with the real tokenizer through inline workers, as the CLI does', async () => {
    const dir = new URL('./__fixtures__/', import.meta.url);
    const samples = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
    const pool = createTokenPool({ size: 2, spawn: spawnInline(), jobChars: 500 });
    const counter = await createTokenCounter('o200k_base');
    expect(await pool.count(samples, { encoding: 'o200k_base' })).toEqual(samples.map((t) => counter.count(t)));
    pool.terminate();
  });
});

describe('createCountHandler', () => {
  it('answers a request it cannot serve with an error reply instead of throwing', async () => {
    const handle = createCountHandler();
    expect(await handle({ id: 7, encoding: 'o200k_base', encoder: 'tiktoken-wasm' as never, texts: ['x'] })).toEqual({ id: 7, error: 'unknown encoder "tiktoken-wasm"' });
    expect(await handle({ id: 8, encoding: 'p50k_base' as never, encoder: 'js-tiktoken', texts: ['x'] })).toEqual({ id: 8, error: 'unknown encoding "p50k_base"' });
    expect(await handle({ id: 9, encoding: 'o200k_base', encoder: 'gpt-tokenizer', texts: ['hello world', ''] })).toEqual({
      id: 9,
      counts: [
        { tokens: 2, approximate: false },
        { tokens: 0, approximate: false },
      ],
    });
  });
});
