import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { run, type CliIo } from './main';
import { engineId, openResultCache, sessionKey } from './result-cache';
import type { SessionMetrics } from './session-metrics';

const FIXTURE = 'src/formats/__fixtures__/claude-code-session.jsonl';
const claude = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url));
const cacheForensics = readFileSync(new URL('../formats/__fixtures__/claude-code-cache-forensics.jsonl', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'result-cache-'));
  dirs.push(d);
  return d;
}

/** An io over these files with its own cache folder; `out()` is everything printed by the last run. */
function cliIo(files: Record<string, Uint8Array>, cacheDir: string) {
  let out: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: () => {},
    readFile: (p) => {
      const b = files[p];
      if (!b) throw new Error(`ENOENT: ${p}`);
      return b;
    },
    listDir: () => [],
    isDir: () => false,
    exists: (p) => p in files,
    cacheDir,
  };
  return { io, out: () => { const text = out.join('\n'); out = []; return text; } };
}

function entries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.v8')).map((f) => join(dir, f));
}

describe('the result cache', () => {
  it('gives the same report read back as analysed, for JSON and text', async () => {
    const cache = tempDir();
    const { io, out } = cliIo({ 'a.jsonl': claude, 'b.jsonl': cacheForensics }, cache);
    for (const flags of [['--json'], []]) {
      const code = await run(['inspect', 'a.jsonl', 'b.jsonl', '--no-cache', ...flags], io);
      const fresh = out();
      expect(entries(cache)).toHaveLength(flags.length === 0 ? 2 : 0);
      expect(await run(['inspect', 'a.jsonl', 'b.jsonl', ...flags], io)).toBe(code);
      expect(out()).toBe(fresh);
      expect(await run(['inspect', 'a.jsonl', 'b.jsonl', ...flags], io)).toBe(code);
      expect(out()).toBe(fresh);
    }
    // One entry per session and request: the JSON report and the text report analyse with different requests.
    expect(entries(cache)).toHaveLength(4);
    // Six runs, each starting worker threads that compile TypeScript through tsx: a guard, not a budget.
  }, 120_000);

  it('reads a session back instead of analysing it, and analyses it again when its file changes', async () => {
    const cache = tempDir();
    const files = { 'a.jsonl': claude };
    const { io, out } = cliIo(files, cache);
    await run(['inspect', 'a.jsonl', '--json'], io);
    const first = JSON.parse(out());
    const [entry] = entries(cache);
    // An entry altered on disk comes back as it is: the second run read it instead of analysing.
    const store = openResultCache(cache);
    const key = entry!.split('/').pop()!.replace(/\.v8$/, '');
    const altered: SessionMetrics = { ...store.get(key)!, lints: [] };
    store.put(key, altered);
    await run(['inspect', 'a.jsonl', '--json'], io);
    expect(first.sessions[0].lints.length).toBeGreaterThan(0);
    expect(JSON.parse(out()).sessions[0].lints).toEqual([]);
    // One more line in the file is another session: a miss, analysed afresh.
    const extra = JSON.stringify({ type: 'user', uuid: 'u-extra', parentUuid: null, sessionId: first.sessions[0].id, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'one more line' } });
    files['a.jsonl'] = Buffer.concat([claude, Buffer.from(`${extra}\n`)]);
    await run(['inspect', 'a.jsonl', '--json'], io);
    expect(JSON.parse(out()).sessions[0].lints.length).toBeGreaterThan(0);
    expect(entries(cache)).toHaveLength(2);
  });

  it('treats an unreadable entry as a miss', async () => {
    const cache = tempDir();
    const { io, out } = cliIo({ 'a.jsonl': claude }, cache);
    await run(['check', 'a.jsonl', '--max-lost-needed', '0'], io);
    const fresh = out();
    expect(fresh).toContain('lost-and-needed');
    for (const e of entries(cache)) writeFileSync(e, 'not an entry');
    expect(await run(['check', 'a.jsonl', '--max-lost-needed', '0'], io)).toBe(1);
    expect(out()).toBe(fresh);
  });

  it('keys on the session, the request and the engine', () => {
    const [session] = loadFiles([{ name: FIXTURE, bytes: claude }]).sessions;
    const base = sessionKey(session!, { rule: 'auto' }, 'engine-a');
    expect(sessionKey(session!, { rule: 'auto' }, 'engine-a')).toBe(base);
    expect(sessionKey(session!, { rule: 'anthropic' }, 'engine-a')).not.toBe(base);
    expect(sessionKey(session!, { rule: 'auto' }, 'engine-b')).not.toBe(base);
    expect(sessionKey({ ...session!, items: session!.items.slice(1) }, { rule: 'auto' }, 'engine-a')).not.toBe(base);
    // The engine is this checkout's sources and the tokenizers' versions: stable within a run.
    expect(engineId()).toMatch(/^[0-9a-f]{64}$/);
    expect(engineId()).toBe(engineId());
  });

  it('keeps at most its limit of entries, dropping the oldest', () => {
    const cache = tempDir();
    const store = openResultCache(cache, 3);
    const metrics = { lints: [] } as unknown as SessionMetrics;
    for (let i = 0; i < 5; i++) store.put(`${i}`.padStart(64, 'a'), metrics);
    expect(entries(cache)).toHaveLength(5);
    // Written within a millisecond or two: make the first two plainly older than the rest.
    utimesSync(join(cache, 'aa', `${'0'.padStart(64, 'a')}.v8`), 1, 1);
    utimesSync(join(cache, 'aa', `${'1'.padStart(64, 'a')}.v8`), 2, 2);
    store.prune();
    expect(entries(cache).map((p) => p.split('/').pop()).sort()).toEqual(['2', '3', '4'].map((i) => `${i.padStart(64, 'a')}.v8`));
  });
});
