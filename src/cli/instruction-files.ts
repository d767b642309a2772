// `--instructions PATH`: the instruction files a harness loads into every request without recording them in the
// session file (CLAUDE.md, AGENTS.md, GEMINI.md), read from what the user names, for the summary audit
// (audit/instruction-files.ts). A file is read as it is; a folder is read as the three harnesses read a project
// folder. A CLAUDE.md's `@path` imports are followed as Claude Code documents them: relative to the importing file,
// `~/` from the home folder, not inside code, at most five hops deep; a GEMINI.md's too (Gemini CLI imports `@file.md`
// alike). Codex reads AGENTS.md as it is.
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { cwdOf } from '../audit/audit-session';
import type { FormatId, InstructionFile, Session } from '../model/types';
import { asLoaded, FOLDER_INSTRUCTION_FILES, instructionHarnessOf } from '../load/instruction-files';
import type { CliIo } from './cli-io';

/** The files of a project folder the harnesses load, in this order: Claude Code's, then Codex's and Gemini CLI's. */
export const FOLDER_FILES: readonly string[] = FOLDER_INSTRUCTION_FILES.map((f) => f.path);
/** Claude Code's rule files: every `.md` under it, subfolders too. */
const RULES_DIR = '.claude/rules';
/** Claude Code follows imports at most this many hops from the file the harness loaded. */
export const MAX_IMPORT_DEPTH = 5;

/** The harnesses whose project files a folder is read for; a session of another format is given every file. */
type Harness = Extract<FormatId, 'claude-code' | 'codex' | 'gemini-cli'>;
const HARNESSES: ReadonlySet<string> = new Set<Harness>(['claude-code', 'codex', 'gemini-cli']);

/** What the audit read: the files, with each one's path and size for the report. */
export interface InstructionFilesRead {
  files: InstructionFile[];
  /**
   * Each file's path and size in bytes, in the order read (what the JSON output lists), and the harness that loads
   * it when a folder's lookup found it (or an import of such a file); a file the user named is every session's.
   */
  read: { path: string; bytes: number; harness?: Harness }[];
  /** `--instructions auto`: each session is given, besides, the files where it ran (`giveInstructions`). */
  auto?: boolean;
}

/** `--instructions auto`: each session's own files, read from the working directory it recorded. */
export const AUTO = 'auto';

/**
 * The files a session of this format was sent: a folder's CLAUDE.md (and rules, and their imports) only to a Claude
 * Code session, its AGENTS.md only to a Codex one, its GEMINI.md only to a Gemini CLI one; a session of any other
 * format, which may read any of them, gets them all, as it gets every file the user named.
 */
export function instructionFilesFor(read: InstructionFilesRead, format: FormatId): InstructionFile[] {
  return read.files.filter((_, i) => {
    const harness = read.read[i]!.harness;
    return harness === undefined || !HARNESSES.has(format) || harness === format;
  });
}

/** The instruction files at the paths the user named, or an error naming the path that cannot be read. */
export function readInstructionFiles(paths: readonly string[], io: CliIo, home: string | null = process.env['HOME'] ?? null): InstructionFilesRead | { error: string } {
  const out: InstructionFilesRead = { files: [], read: [] };
  const seen = new Set<string>();
  const add = (path: string, bytes: Uint8Array, harness: Harness | undefined) => {
    const text = asLoaded(path, new TextDecoder().decode(bytes));
    out.files.push({ path, text });
    out.read.push({ path, bytes: bytes.length, ...(harness ? { harness } : {}) });
    return text;
  };
  // An import that cannot be read is left out, as Claude Code leaves it out; only a path the user named must exist.
  const followImports = (from: string, text: string, depth: number, harness: Harness | undefined) => {
    if (depth > MAX_IMPORT_DEPTH) return;
    for (const target of importsOf(text)) {
      const path = target.startsWith('~/') ? (home ? join(home, target.slice(2)) : null) : isAbsolute(target) ? normalize(target) : join(dirname(from), target);
      if (!path || seen.has(path)) continue;
      let bytes: Uint8Array;
      try {
        if (!io.exists(path) || io.isDir(path)) continue;
        bytes = io.readFile(path);
      } catch {
        continue;
      }
      seen.add(path);
      followImports(path, add(path, bytes, harness), depth + 1, harness);
    }
  };
  for (const given of paths) {
    if (given === '') return { error: '--instructions needs a file or a folder' };
    if (given === AUTO) {
      out.auto = true;
      continue;
    }
    const path = normalize(given);
    let isFolder: boolean;
    try {
      if (!io.exists(path)) return { error: `--instructions ${given}: no such file or folder` };
      isFolder = io.isDir(path);
    } catch (e) {
      return { error: `--instructions ${given}: ${e instanceof Error ? e.message : String(e)}` };
    }
    const found = isFolder ? folderFiles(path, io) : [path];
    if (found.length === 0) return { error: `--instructions ${given}: the folder holds none of ${[...FOLDER_FILES, `${RULES_DIR}/*.md`].join(', ')}` };
    for (const file of found) {
      if (seen.has(file)) continue;
      let bytes: Uint8Array;
      try {
        bytes = io.readFile(file);
      } catch (e) {
        return { error: `--instructions ${file === path ? given : file}: ${e instanceof Error ? e.message : String(e)}` };
      }
      seen.add(file);
      // A rule scoped to some files (`paths:` in its front matter) is loaded when the agent touches one, and then
      // recorded (a `nested_memory` attachment the audit reads as an item): it is not in every request.
      if (isFolder && isRule(file) && scopedRule(new TextDecoder().decode(bytes))) continue;
      const harness = isFolder ? instructionHarnessOf(file) : undefined;
      const text = add(file, bytes, harness);
      if (!READ_AS_IS.test(file)) followImports(file, text, 1, harness);
    }
  }
  return out;
}

/** The files named to `--instructions` and those given among the inputs, as one; null when there are none. */
export function joinInstructions(named: InstructionFilesRead | null | undefined, given: InstructionFilesRead): InstructionFilesRead | null {
  if (!named && given.files.length === 0) return null;
  const fresh = given.files.flatMap((f, i) => (named?.read.some((r) => r.path === f.path) ? [] : [i]));
  return {
    files: [...(named?.files ?? []), ...fresh.map((i) => given.files[i]!)],
    read: [...(named?.read ?? []), ...fresh.map((i) => given.read[i]!)],
    ...(named?.auto ? { auto: true } : {}),
  };
}

/**
 * Sets each session's `instructionFiles`: what its harness loads of the files the user named, and with `auto` those
 * where it ran (`recordedInstructions`). Returns what was read, each path once, for the output; says on stderr how
 * many sessions `auto` found none for.
 */
export function giveInstructions(sessions: readonly Session[], given: InstructionFilesRead, io: CliIo, home: string | null = process.env['HOME'] ?? null): InstructionFilesRead['read'] {
  // Every file named is listed, with the harness it is for; of those `auto` found, the ones a session was given.
  const listed = new Map(given.read.map((r) => [r.path, r]));
  let without = 0;
  for (const s of sessions) {
    const files = instructionFilesFor(given, s.format);
    if (given.auto) {
      const found = recordedInstructions(s, io, home);
      const own = instructionFilesFor(found, s.format).filter((f) => !files.some((n) => n.path === f.path));
      found.files.forEach((f, i) => own.includes(f) && listed.set(found.read[i]!.path, found.read[i]!));
      if (own.length === 0) without++;
      files.push(...own);
    }
    if (files.length > 0) s.instructionFiles = files;
  }
  if (without > 0) io.err(`--instructions auto: no instruction file found for ${without} of ${sessions.length} session${sessions.length === 1 ? '' : 's'} (the working directory recorded is not on this machine, or holds none)`);
  return [...listed.values()];
}

/** The user's own file each harness loads in every project. */
const USER_FILES: Record<Harness, string> = { 'claude-code': '.claude/CLAUDE.md', codex: '.codex/AGENTS.md', 'gemini-cli': '.gemini/GEMINI.md' };

/**
 * The files a session's harness loaded where it ran, as they are now: the user's own file, then those of each folder
 * from the top down to the working directory the session recorded (Claude Code reads every folder's CLAUDE.md above
 * the working directory; Codex and Gemini CLI read theirs down from the project's root). None when that folder is
 * not on this machine.
 */
export function recordedInstructions(s: Pick<Session, 'format' | 'meta'>, io: CliIo, home: string | null): InstructionFilesRead {
  const none: InstructionFilesRead = { files: [], read: [] };
  const cwd = cwdOf(s);
  if (!cwd || !isAbsolute(cwd) || !io.exists(cwd) || !io.isDir(cwd)) return none;
  const paths: string[] = [];
  const isFile = (p: string) => io.exists(p) && !io.isDir(p);
  const user = home && HARNESSES.has(s.format) ? join(home, USER_FILES[s.format as Harness]) : null;
  if (user && isFile(user)) paths.push(user);
  // Claude Code's too: the user's rules (unscoped ones, as a project's) and the project's auto memory.
  const claude = s.format === 'claude-code' && home ? [...userRules(home, io), autoMemoryFile(cwd, home, io)].filter((p): p is string => p !== null) : [];
  paths.push(...claude);
  const folders: string[] = [];
  for (let dir = normalize(cwd); dirname(dir) !== dir; dir = dirname(dir)) folders.unshift(dir);
  for (const dir of folders) if (folderFiles(dir, io).length > 0) paths.push(dir);
  if (paths.length === 0) return none;
  const read = readInstructionFiles(paths, io, home);
  if ('error' in read) return none;
  // Files read as named (every session's) are this harness's.
  const own = new Set([...(user ? [user] : []), ...claude]);
  read.read = read.read.map((r) => (own.has(r.path) && !r.harness ? { ...r, harness: s.format as Harness } : r));
  return read;
}

/** The unscoped `~/.claude/rules/*.md` files, which Claude Code loads in every project. */
const userRules = (home: string, io: CliIo): string[] => rulesUnder(join(home, RULES_DIR), io).filter((p) => !scopedRule(new TextDecoder().decode(io.readFile(p))));

/** Every `.md` under a rules folder, subfolders too, sorted by name at each level; none when there is no such folder. */
function rulesUnder(dir: string, io: CliIo): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of io.listDir(folder).sort()) {
      const p = join(folder, name);
      if (io.isDir(p)) walk(p);
      else if (name.endsWith('.md') && io.exists(p)) out.push(p); // a dangling link is no rule
    }
  };
  if (io.exists(dir) && io.isDir(dir)) walk(dir);
  return out;
}

/**
 * Claude Code's auto memory where a session ran: `~/.claude/projects/<project>/memory/MEMORY.md`, the project being
 * the git repository's root (a worktree's own), else the working directory, written with every character but a
 * letter or digit as `-` (`/home/ann/code/shop` is `-home-ann-code-shop`). Null when there is none.
 */
export function autoMemoryFile(cwd: string, home: string, io: CliIo): string | null {
  const folder = normalize(cwd);
  let root: string | null = null;
  for (let dir = folder; root === null; dir = dirname(dir)) {
    if (io.exists(join(dir, '.git'))) root = dir;
    if (dirname(dir) === dir) break;
  }
  const memoryOf = (project: string) => join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md');
  return [...new Set([root ?? folder, folder])].map(memoryOf).find((p) => io.exists(p) && !io.isDir(p)) ?? null;
}

/** Codex's file has no imports: an `@` in it is text. */
const READ_AS_IS = /(?:^|[\\/])AGENTS\.md$/;

/** A file under a `.claude/rules/` folder (Claude Code loads every `.md` there, subfolders too). */
export const isRule = (path: string): boolean => /(?:^|[\\/])\.claude[\\/]rules[\\/]/.test(path);

/** Does the file's YAML front matter scope it to some paths (Claude Code's conditional rules)? */
export function scopedRule(text: string): boolean {
  const front = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  return !!front && /^paths\s*:/m.test(front[1]!);
}

/** The instruction files a project folder holds, in `FOLDER_FILES` order with the rules after Claude Code's own. */
function folderFiles(dir: string, io: CliIo): string[] {
  const here = (rel: string) => join(dir, rel);
  const isFile = (p: string) => io.exists(p) && !io.isDir(p);
  const of = (claude: boolean) => FOLDER_INSTRUCTION_FILES.filter((f) => (f.harness === 'claude-code') === claude).map((f) => here(f.path)).filter(isFile);
  return [...of(true), ...rulesUnder(here(RULES_DIR), io), ...of(false)];
}

const FENCE = /^\s*(```|~~~)/;

/**
 * The `@path` imports of a CLAUDE.md, in order: an `@` at the start of a word, not inside a fenced block or an inline
 * code span (Claude Code does not read those), with a trailing `#section` left out.
 */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const plain = line.replace(/`[^`]*`/g, ' ');
    for (const m of plain.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.-][^\s]*)/g)) {
      const target = m[1]!.replace(/#.*$/, '').replace(/[.,;:)]+$/, '');
      if (target !== '' && !out.includes(target)) out.push(target);
    }
  }
  return out;
}
