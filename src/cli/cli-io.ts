// What every command shares: the effects it needs (so tests pass fakes), reading the files it is given, and one
// memoized token counter per encoding.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InputFile } from '../load/loader';
import { defaultCacheDir } from './result-cache';
import { createTokenCounter, TokenMemo, type EncodingName, type TokenCounter } from '../tokens';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Uint8Array;
  listDir(path: string): string[];
  isDir(path: string): boolean;
  exists(path: string): boolean;
  /** Writes an output file the user named (`inspect --otlp out.json`). */
  writeFile?(path: string, text: string): void;
  /** Where analysed sessions are kept between runs (result-cache.ts); none when absent. */
  cacheDir?: string;
}

export const nodeIo: CliIo = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  readFile: (p) => readFileSync(p),
  listDir: (p) => readdirSync(p),
  isDir: (p) => statSync(p).isDirectory(),
  exists: (p) => existsSync(p),
  writeFile: (p, t) => writeFileSync(p, t),
  get cacheDir() {
    return defaultCacheDir();
  },
};

export const TRANSCRIPT_EXT = /\.(jsonl?|ndjson|traj|eval)$/i;

/**
 * A folder's transcript files, named by their path from the folder's own name (`conv/events/event-00001-….json`):
 * an OpenHands SDK conversation is a folder, and the folder names which conversation its events belong to.
 */
function expandFolder(dir: string, io: CliIo): { path: string; name: string }[] {
  const out: { path: string; name: string }[] = [];
  const walk = (path: string, name: string) => {
    for (const entry of io.listDir(path).sort()) {
      if (entry.startsWith('.')) continue;
      const child = join(path, entry);
      if (io.isDir(child)) walk(child, `${name}/${entry}`);
      else if (TRANSCRIPT_EXT.test(entry)) out.push({ path: child, name: `${name}/${entry}` });
    }
  };
  walk(dir, basename(resolve(dir)));
  return out;
}

/** What a folder holds compressed (Codex's archived `….jsonl.zst`), said beside "no files": the user can decompress them. */
function compressedIn(dir: string, io: CliIo): string {
  let n = 0;
  const walk = (path: string) => {
    for (const entry of io.listDir(path)) {
      if (entry.startsWith('.')) continue;
      const child = join(path, entry);
      if (io.isDir(child)) walk(child);
      else if (/\.(jsonl?|ndjson)\.(zst|gz)$/i.test(entry)) n++;
    }
  };
  walk(dir);
  return n === 0 ? '' : ` (${n} compressed file${n === 1 ? '' : 's'}, .jsonl.zst or .jsonl.gz: decompress them first, zstd -d or gunzip)`;
}

export interface ReadInputs {
  inputs: InputFile[];
  missing: string[];
  /** The path each input name was read from, as the user gave it (annotations point there). */
  pathOf: Map<string, string>;
}

export function readInputs(paths: string[], io: CliIo): ReadInputs {
  const inputs: InputFile[] = [];
  const missing: string[] = [];
  const pathOf = new Map<string, string>();
  for (const p of paths) {
    try {
      const files = io.exists(p) && io.isDir(p) ? expandFolder(p, io) : [{ path: p, name: basename(p) }];
      if (files.length === 0) missing.push(`${p}: no .json or .jsonl files in this folder${compressedIn(p, io)}`);
      for (const f of files) {
        inputs.push({ name: f.name, bytes: io.readFile(f.path) });
        if (!pathOf.has(f.name)) pathOf.set(f.name, f.path);
      }
    } catch (e) {
      missing.push(`${p}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { inputs, missing, pathOf };
}

/** One memoized counter per encoding: request logs repeat their prefix every call. */
export function counters() {
  const made = new Map<EncodingName, Promise<(text: string) => number>>();
  return (encoding: EncodingName) => {
    let c = made.get(encoding);
    if (!c) {
      c = createTokenCounter(encoding).then((counter: TokenCounter) => {
        const memo = new TokenMemo();
        return (text: string) => memo.count(text, (t) => counter.count(t)).tokens;
      });
      made.set(encoding, c);
    }
    return c;
  };
}

/**
 * The package's own folder (where package.json and the built app `dist/` are): found upward from this module,
 * which is `src/cli/` when run from source and `dist-cli/` when run built.
 */
export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'compaction-inspector.mjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(dirname(fileURLToPath(from)), '..', '..');
    dir = up;
  }
}
