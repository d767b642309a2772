// The sessions `compaction-inspector serve` offers: where each harness keeps them on this machine, and a walk of
// those folders (or the ones given) that lists every session once. Nothing is parsed here; the browser measures.
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { TRANSCRIPT_EXT } from './cli-io';

export type Harness = 'claude-code' | 'codex' | 'openhands' | 'gemini-cli';

export interface ServeRoot {
  /** The folder as found or given, and its real path (symlinks resolved): every read must stay under `real`. */
  dir: string;
  real: string;
  /** The harness that writes this folder; null for a folder the user named (the browser tells the format). */
  harness: Harness | null;
}

export interface ListedSession {
  /** `<root>/<path>`: stable for the server's lifetime, and what the app asks for. */
  id: string;
  root: number;
  /** Path of the session inside its root, `/`-separated: a file, or a folder of event files. */
  path: string;
  /** The files to fetch, relative to the root; one unless the session is a folder (an OpenHands conversation). */
  files: string[];
  harness: Harness | null;
  /** The project the session belongs to, as far as its place on disk tells. */
  project: string | null;
  size: number;
  /** Last modification, ms since the epoch. */
  modified: number;
}

/** Where each harness writes its sessions (docs/cli.md, "serve"). */
export function defaultRoots(home = homedir()): { dir: string; harness: Harness }[] {
  return [
    { dir: join(home, '.claude', 'projects'), harness: 'claude-code' },
    { dir: join(home, '.codex', 'sessions'), harness: 'codex' },
    { dir: join(home, '.openhands', 'conversations'), harness: 'openhands' },
    { dir: join(home, '.gemini', 'tmp'), harness: 'gemini-cli' },
  ];
}

/** The roots that exist, with their real paths; a missing default is skipped, a missing named folder reported. */
export function openRoots(candidates: { dir: string; harness: Harness | null }[]): { roots: ServeRoot[]; missing: string[] } {
  const roots: ServeRoot[] = [];
  const missing: string[] = [];
  for (const c of candidates) {
    try {
      const real = realpathSync(c.dir);
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
      roots.push({ dir: c.dir, real, harness: c.harness });
    } catch (e) {
      missing.push(`${c.dir}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { roots, missing };
}

const MAX_DEPTH = 8;
const MAX_SESSIONS = 5000;

const posix = (p: string) => p.split(sep).join('/');

/** An OpenHands SDK conversation keeps one JSON file per event under `events/`: the folder is the session. */
function isConversationFolder(dir: string, names: string[]): boolean {
  if (!names.includes('events')) return false;
  try {
    return readdirSync(join(dir, 'events')).some((n) => /^event-.*\.json$/i.test(n));
  } catch {
    return false;
  }
}

function projectOf(harness: Harness | null, parts: string[]): string | null {
  if (parts.length < 2) return null;
  const top = parts[0]!;
  // Claude Code names a project's folder after its path with `/` turned into `-`.
  if (harness === 'claude-code') return top.startsWith('-') ? top.replace(/-/g, '/') : top;
  if (harness === 'codex') return null; // dated folders (2025/06/01) say nothing about the project
  return top;
}

/** Whether a file is a session of its harness (a Gemini project folder also holds logs; Claude subagents join their parent). */
function wanted(harness: Harness | null, parts: string[], name: string): boolean {
  if (!TRANSCRIPT_EXT.test(name)) return false;
  if (harness === 'gemini-cli') return parts.includes('chats');
  if (harness === 'claude-code') return !name.startsWith('agent-') && !parts.includes('subagents');
  return true;
}

/** Every session under the roots, newest first. Dot-folders, dangling links and anything outside a root are skipped. */
export function listSessions(roots: readonly ServeRoot[]): ListedSession[] {
  const out: ListedSession[] = [];
  roots.forEach((root, ri) => {
    const seen = new Set<string>();
    const add = (abs: string, files: string[], st: Stats, size: number) => {
      const rel = posix(relative(root.real, abs));
      const parts = rel.split('/');
      out.push({ id: `${ri}/${rel}`, root: ri, path: rel, files, harness: root.harness, project: projectOf(root.harness, parts), size, modified: st.mtimeMs });
    };
    const walk = (dir: string, depth: number) => {
      if (depth > MAX_DEPTH || out.length >= MAX_SESSIONS) return;
      let real: string;
      try {
        real = realpathSync(dir);
      } catch {
        return;
      }
      // A symlinked folder may loop, or lead out of the root: neither is followed.
      if (seen.has(real) || !inside(root.real, real)) return;
      seen.add(real);
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        return;
      }
      if (depth > 0 && isConversationFolder(dir, names)) {
        const files = conversationFiles(root.real, dir);
        if (files.length) {
          let size = 0;
          let newest: Stats | null = null;
          for (const f of files) {
            const st = statSync(join(root.real, f));
            size += st.size;
            if (!newest || st.mtimeMs > newest.mtimeMs) newest = st;
          }
          add(dir, files, newest!, size);
        }
        return;
      }
      for (const name of names) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        const p = join(dir, name);
        let st: Stats;
        try {
          st = statSync(p);
        } catch {
          continue;
        }
        if (st.isDirectory()) walk(p, depth + 1);
        else if (st.isFile()) {
          const rel = posix(relative(root.real, p));
          if (!wanted(root.harness, rel.split('/').slice(0, -1), name)) continue;
          try {
            if (!inside(root.real, realpathSync(p))) continue;
          } catch {
            continue;
          }
          add(p, [rel], st, st.size);
        }
      }
    };
    walk(root.real, 0);
  });
  return out.sort((a, b) => b.modified - a.modified).slice(0, MAX_SESSIONS);
}

function conversationFiles(rootReal: string, dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 3) return;
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, depth + 1);
      else if (st.isFile() && TRANSCRIPT_EXT.test(name)) files.push(posix(relative(rootReal, p)));
    }
  };
  walk(dir, 0);
  return files;
}

/** Whether `real` (already resolved) is `root` or below it. */
export function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}
