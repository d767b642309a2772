// `serve`'s `/api/instructions`: the instruction files a listed session was sent where it ran (CLAUDE.md, AGENTS.md,
// GEMINI.md, .claude/rules/*.md and their imports), found as `--instructions auto` finds them (recordedInstructions),
// so a session opened from the list is audited with them.
//
// The request names only a listed session file; everything read follows from that file's recorded working directory,
// which is untrusted text (anyone who can write a session file under a listed folder chooses it). So the lookup runs
// on a file system narrowed to what it may read: folders (to walk), and regular Markdown files of at most
// MAX_SERVED_BYTES whose real path (symlinks resolved) ends in `.md` and either is named as an instruction file
// (the fixed names, or under a `.claude/rules/` folder) or lies inside the working directory or the harness's own
// folder in the user's home (`~/.claude` …). Anything else does not exist for it: it is neither read
// nor followed, whatever a file imports. A cwd of `/etc` yields at most `/CLAUDE.md`, `/etc/CLAUDE.md` and the like.
import { closeSync, constants as fsConstants, fstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, normalize, sep } from 'node:path';
import { loadText } from '../load/loader';
import type { InstructionFile, Session } from '../model/types';
import type { CliIo } from './cli-io';
import { FOLDER_FILES, instructionFilesFor, isRule, recordedInstructions } from './instruction-files';
import { cwdOf } from '../audit/audit-session';

/** How much of a session file is read for its working directory: its first records carry it (Claude Code's every record, Codex's session_meta line). */
export const HEAD_BYTES = 1 << 20;
/** A bigger file is not an instruction file (the app refuses the same: app/data/instruction-files.ts). */
export const MAX_SERVED_BYTES = 1 << 20;

/** The harnesses' own folders in the user's home, where their user-level file and its imports live. */
const HARNESS_HOMES = ['.claude', '.codex', '.gemini'];

const NAMES: ReadonlySet<string> = new Set(FOLDER_FILES.map((f) => basename(f)));

/** Named as a harness names an instruction file: CLAUDE.md, CLAUDE.local.md, AGENTS.md, GEMINI.md, a rule. */
export const instructionNamed = (path: string): boolean => NAMES.has(basename(path)) || (isRule(path) && /\.md$/i.test(path));

const under = (dir: string, path: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** The complete lines at the start of an opened file, up to HEAD_BYTES; the whole file when it is smaller. */
export function readHead(fd: number, size: number): string {
  const buf = Buffer.alloc(Math.min(size, HEAD_BYTES));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    got += n;
  }
  const text = buf.subarray(0, got).toString('utf8');
  return size > HEAD_BYTES ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
}

/** The session the head of a file starts, as the loader reads it (its format, its recorded `cwd`); null if none. */
export function sessionOfHead(name: string, head: string): Pick<Session, 'format' | 'meta'> | null {
  if (head.trim() === '') return null;
  return loadText(name, head).sessions[0] ?? null;
}

/**
 * The file system the lookup sees: folders, and the files it may read (module comment); every other path does not
 * exist. Files are opened without blocking and checked on the handle, so a FIFO or device named CLAUDE.md cannot
 * hold the server.
 */
export function narrowedIo(cwd: string, home: string | null): CliIo {
  const real = (p: string): string | null => {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  };
  const bases = [real(cwd), ...(home ? HARNESS_HOMES.map((h) => real(join(home, h))) : [])].filter((b): b is string => b !== null);
  const allowed = (path: string): boolean => {
    const r = real(path);
    // Judged by where the file really is: a CLAUDE.md or rule that is a symlink to another Markdown file elsewhere is
    // that file.
    if (!r || !/\.md$/i.test(r) || !/\.md$/i.test(path)) return false;
    return instructionNamed(r) || bases.some((b) => under(b, r));
  };
  const isDir = (p: string): boolean => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  return {
    out: () => {},
    err: () => {},
    isDir,
    exists: (p) => {
      try {
        const st = statSync(p);
        return st.isDirectory() || (st.isFile() && st.size <= MAX_SERVED_BYTES && allowed(p));
      } catch {
        return false;
      }
    },
    listDir: (p) => readdirSync(p),
    readFile: (p) => {
      if (!allowed(p)) throw new Error('not an instruction file');
      const fd = openSync(p, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
      try {
        const st = fstatSync(fd);
        if (!st.isFile() || st.size > MAX_SERVED_BYTES) throw new Error('not an instruction file');
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * The instruction files a session's harness loaded where it ran, as `--instructions auto` reads them, through the
 * narrowed file system; none when the session recorded no absolute working directory or it is not on this machine.
 */
export function servedInstructions(session: Pick<Session, 'format' | 'meta'>, home: string | null): InstructionFile[] {
  const cwd = cwdOf(session);
  if (!cwd || cwd.includes('\0') || !isAbsolute(cwd)) return [];
  try {
    const found = recordedInstructions(session, narrowedIo(normalize(cwd), home), home);
    return instructionFilesFor(found, session.format);
  } catch {
    // A folder that cannot be walked (a symlink loop under .claude/rules, a name too long): nothing found.
    return [];
  }
}
