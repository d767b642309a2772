// Analysed sessions kept on disk, so `inspect` and `check` on a folder of sessions, most of them unchanged since
// the last run, cost a load and a hash per session instead of an analysis. The key is the loaded session itself
// (its structured-clone bytes), the request, and the engine that analysed it: a session read again from the same
// files by the same engine gets the same figures, and any change to the files, the options, the engine, its
// tokenizers or Node's serializer is a miss. Entries hold the metrics as the analysis returned them.
import type { Hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { Session } from '../model/types';
import type { SessionMetrics } from './session-metrics';

/**
 * node:crypto, loaded when the cache is first used: loading it compiles some fifteen of Node's own modules (~4 ms of
 * CPU), which a `--no-cache` run does not need.
 */
const createHash = (algorithm: string): Hash => (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash(algorithm);

/** Entries kept; the least recently written go first. */
export const MAX_ENTRIES = 2000;
const ENTRY_EXT = '.v8';

/** The cache folder: $COMPACTION_INSPECTOR_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache, under compaction-inspector. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env['COMPACTION_INSPECTOR_CACHE_DIR'];
  if (own) return own;
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'compaction-inspector', 'metrics');
}

function filesUnder(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, keep, out);
    else if (keep(entry.name)) out.push(path);
  }
  return out;
}

function packageVersion(name: string): string {
  try {
    const req = createRequire(import.meta.url);
    return String((JSON.parse(readFileSync(req.resolve(`${name}/package.json`), 'utf8')) as { version?: unknown }).version);
  } catch {
    return 'none';
  }
}

let engine: string | null = null;

/**
 * What the analysis is made of: the running engine's code (the built CLI's bundles, or the TypeScript sources
 * when run from a checkout), the tokenizers' versions and Node's (whose serializer writes the keys and entries).
 */
export function engineId(): string {
  if (engine) return engine;
  const here = dirname(fileURLToPath(import.meta.url));
  const built = extname(fileURLToPath(import.meta.url)) === '.mjs';
  const root = built ? here : dirname(here);
  const code = filesUnder(root, (n) => (built ? n.endsWith('.mjs') : n.endsWith('.ts') && !n.endsWith('.test.ts')));
  const h = createHash('sha256');
  h.update(`node ${process.version}\0gpt-tokenizer ${packageVersion('gpt-tokenizer')}\0js-tiktoken ${packageVersion('js-tiktoken')}\0`);
  for (const f of code) h.update(f.slice(root.length)).update('\0').update(readFileSync(f));
  return (engine = h.digest('hex'));
}

/** The entry's name for one session analysed with one request. */
export function sessionKey(session: Session, request: unknown, engineKey: string = engineId()): string {
  return createHash('sha256').update(engineKey).update('\0').update(JSON.stringify(request)).update('\0').update(serialize(session)).digest('hex');
}

export interface ResultCache {
  get(key: string): SessionMetrics | null;
  put(key: string, metrics: SessionMetrics): void;
  /** Drops the oldest entries beyond MAX_ENTRIES; call once a run, after its puts. */
  prune(): void;
}

/** The cache a command uses: none when the io has no folder for it or the user said `--no-cache`. */
export function cacheFor(io: { cacheDir?: string }, noCache: boolean): ResultCache | null {
  return !noCache && io.cacheDir ? openResultCache(io.cacheDir) : null;
}

/**
 * A cache in `dir`, made when first written. It never fails a run: an entry that cannot be read is a miss, and
 * one that cannot be written is skipped.
 */
export function openResultCache(dir: string, maxEntries: number = MAX_ENTRIES): ResultCache {
  let wrote = false;
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}${ENTRY_EXT}`);
  return {
    get(key) {
      try {
        return deserialize(readFileSync(pathOf(key))) as SessionMetrics;
      } catch {
        // No entry yet, or one that cannot be read.
        return null;
      }
    },
    put(key, metrics) {
      const path = pathOf(key);
      try {
        mkdirSync(dirname(path), { recursive: true });
        // Written aside and renamed, so a reader never sees half an entry.
        const tmp = `${path}.${process.pid}.tmp`;
        writeFileSync(tmp, serialize(metrics));
        renameSync(tmp, path);
        wrote = true;
      } catch {
        // A read-only or full disk costs the next run an analysis, nothing more.
      }
    },
    prune() {
      if (!wrote || !existsSync(dir)) return;
      try {
        const entries = filesUnder(dir, (n) => n.endsWith(ENTRY_EXT));
        if (entries.length <= maxEntries) return;
        const aged = entries.map((path) => ({ path, at: statSync(path).mtimeMs })).sort((a, b) => a.at - b.at);
        for (const { path } of aged.slice(0, aged.length - maxEntries)) unlinkSync(path);
      } catch {
        // Another run pruning at the same time: whatever it left is fine.
      }
    },
  };
}
