// The instruction files (CLAUDE.md and kin) each labelled session's harness loaded from its project's repository,
// as that repository held them when the session started. Claude Code puts them in every request without recording
// them in the session file, so the audit reads them beside the session (`Session.instructionFiles`); the scoring
// scripts read them through `labelledInstructionFiles(key)`.
//
//   npx tsx bench/labelled-instructions.ts [--judged] [--write]
//
// --judged: the sessions of bench/flag-judgements.json instead (their flags judged by hand), written to
// bench/flag-instructions.json; the same lookup, given each session's repository, ref and path (`judgedAt`).
//
// For each session of labelled-sessions.json it reads only the session file's first records' metadata (timestamp,
// cwd, gitBranch, version, sessionId), the checkpoint's metadata.json (Entire) and the repository's tree and
// instruction files at the project commit; it prints keys, commits, paths and counts, never a file's content.
//
// The project commit, in order of preference:
//   - `recorded`: a commit the checkpoint's metadata.json names as the session's base (`base_commit`, `commit`);
//   - `trailer`: Entire links a checkpoint to the project commit it was condensed into (an `Entire-Checkpoint: <id>`
//     trailer); the newest ancestor of the oldest such commit at or before the session's first timestamp;
//   - `branch-time`: the newest commit of the session's `gitBranch` at or before that timestamp;
//   - `default-time`: the same on the mirror's default branch (HEAD);
//   - `first-after`: no such commit (the repository's history starts after the session did, a backup made later):
//     the first commit after the timestamp, on the trailer commit's ancestry or the branch.
// Which folder of the repository the cwd is (`folderHow`), in order:
//   - `name`: a segment of the cwd is the repository's name: the repository root is there;
//   - `home`: the repository root holds a login shell's dotfiles: it is the user's home, the cwd is under it;
//   - `project`: the session is an Entire checkpoint (Entire commits them to the repository the agent ran in), its
//     gitBranch is a branch of the mirror other than the default one, or its file lies in the repository's own
//     `.claude/projects/` beside no other project's folder: the cwd is the longest trailing part of it that is a
//     folder of the tree, else the root;
//   - with `name` or `project`, a cwd that is no folder of the tree is a checkout elsewhere (a worktree): a folder
//     named after the session's branch is that checkout's root, else its longest trailing part that is a folder;
//   - otherwise the session's project is not this repository: unresolved.
// The files (Claude Code's memory docs, code.claude.com/docs/en/memory, and third-party summaries of them): in
// each folder from the repository root down to the cwd, CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md (when
// committed) and .claude/rules/**/*.md (a rule with a `paths:` front matter loads only when a matching file is read:
// listed apart as `conditional`); `@path` imports of any of them (relative to the importing file, `~/` from a home
// repository's root; not inside code spans or blocks; depth at most 5). AGENTS.md only for Codex sessions, GEMINI.md
// only for Gemini CLI sessions. Files under the cwd (loaded on demand when the agent reads there) and files outside
// the repository (the user's own ~/.claude when the repository is not their home) are not counted.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { LabelledSession } from '../src/audit/labelled-set';
import type { InstructionFile } from '../src/model/types';
import { flagJudgements, type JudgedSession } from './flag-judgements-file';
import { labelledSessions } from './labelled-fixture';
import { MIRROR, mirroredFile } from './mirrored-file';

export const INSTRUCTIONS_FILE = new URL('../src/audit/__fixtures__/labelled-instructions.json', import.meta.url);
/** The same entries for the sessions whose flags were judged by hand (flag-judgements.json): names, never content. */
export const FLAG_INSTRUCTIONS_FILE = new URL('./flag-instructions.json', import.meta.url);

export type CommitHow = 'recorded' | 'trailer' | 'branch-time' | 'default-time' | 'first-after';
export type FolderHow = 'name' | 'home' | 'project';

export interface LabelledInstructions {
  repo: string;
  /** The project commit at the session's start; null when it could not be resolved. */
  commit: string | null;
  how: CommitHow | null;
  /** The cwd as a folder of the repository ('' for its root), and how it was found. */
  folder: string | null;
  folderHow: FolderHow | null;
  /** Repo-relative paths of the files loaded at start, in load order (root first, imports after their importer). */
  files: string[];
  /** Path-scoped rules (`paths:` front matter): loaded only when a matching file is read. */
  conditional?: string[];
  /** Why the entry has no commit or no folder. */
  unresolved?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Pure parts (unit-tested on small inputs).

/** What the lookup needs of a session, whichever set it comes from: where its file is in the mirror, and what ran it. */
export interface SessionAt {
  repo: string;
  /** The commit (or a ref of the mirror) the session file is read at. */
  commit: string;
  /** The session file's path there. */
  path: string;
  /** An Entire checkpoint: its folder holds metadata.json, and project commits name it in a trailer. */
  entire: boolean;
  harness: string;
  /** A cwd known apart from the file, used when the file's first records give none. */
  cwd: string | null;
}

/** Entire keeps its checkpoints on a branch of the project's repository (`entire/checkpoints/v1`) or under `refs/entire/`. */
const isEntireCheckpoint = (path: string, ref: string): boolean =>
  /full\.jsonl$/.test(path) && /^(?:refs\/heads\/)?entire\/checkpoints\/|^refs\/entire\//.test(ref);

/** A labelled session: its path names the branch or ref the file was found on (`… (branch entire/checkpoints/v1)`). */
export function labelledAt(s: Pick<LabelledSession, 'repo' | 'path' | 'commit' | 'harness' | 'cwd'>): SessionAt {
  const m = / \((?:branch|ref) ([^)]+)\)$/.exec(s.path);
  const path = m ? s.path.slice(0, m.index) : s.path;
  return { repo: s.repo, commit: s.commit, path, entire: m !== null && isEntireCheckpoint(path, m[1]!), harness: s.harness, cwd: s.cwd };
}

/**
 * A session whose flags were judged by hand: its file at a ref of the mirror. Every one is a Claude Code session
 * (flag-judgements.json's `about`: "compacted Claude Code sessions"), and the set records no cwd apart from the file.
 */
export function judgedAt(s: Pick<JudgedSession, 'repo' | 'ref' | 'path'>): SessionAt {
  return { repo: s.repo, commit: s.ref, path: s.path, entire: isEntireCheckpoint(s.path, s.ref), harness: 'claude-code', cwd: null };
}

/** The session's start as its first records tell it: the earliest timestamp, the first cwd, gitBranch and version. */
export interface SessionStart {
  timestamp: string | null;
  cwd: string | null;
  gitBranch: string | null;
  version: string | null;
  sessionId: string | null;
}

/** Reads only the metadata fields of the first `limit` JSONL records; no other field is kept. */
export function sessionStart(text: string, limit = 200): SessionStart {
  const out: SessionStart = { timestamp: null, cwd: null, gitBranch: null, version: null, sessionId: null };
  let seen = 0;
  let from = 0;
  while (seen < limit && from < text.length) {
    const end = text.indexOf('\n', from);
    const line = text.slice(from, end < 0 ? text.length : end);
    from = end < 0 ? text.length : end + 1;
    if (!line.trim()) continue;
    seen++;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const snap = r['snapshot'] as Record<string, unknown> | undefined;
    for (const t of [r['timestamp'], snap?.['timestamp']]) {
      if (typeof t === 'string' && !Number.isNaN(Date.parse(t)) && (out.timestamp === null || Date.parse(t) < Date.parse(out.timestamp))) out.timestamp = t;
    }
    for (const k of ['cwd', 'gitBranch', 'version', 'sessionId'] as const) {
      const v = r[k];
      if (out[k] === null && typeof v === 'string' && v !== '') out[k] = v;
    }
  }
  return out;
}

const segmentsOf = (p: string): string[] => p.split(/[\\/]+/).filter((s) => s !== '');

/** The user's home folder's depth in a cwd's segments (/Users/x, /home/x, C:\Users\x, /root), or null. */
export function homeDepth(cwd: string): number | null {
  const s = segmentsOf(cwd);
  const i = /^[A-Za-z]:$/.test(s[0] ?? '') ? 1 : 0;
  if (s[i] === 'root') return i + 1;
  if ((s[i] === 'Users' || s[i] === 'home') && s.length > i + 1) return i + 2;
  return null;
}

export interface FolderFacts {
  repoName: string;
  cwd: string;
  gitBranch: string | null;
  /** The repository root holds a login shell's dotfiles. */
  rootIsHome: boolean;
  /**
   * The repository is the session's project whatever its name: an Entire checkpoint, a session whose gitBranch is
   * a branch of the mirror (not its default one), or a session file under the repository's own `.claude/projects/`
   * beside no other project's folder.
   */
  isProject: boolean;
  /** Is this repo-relative path a folder of the tree? */
  isFolder: (path: string) => boolean;
}

/** The cwd as a folder of the repository, or null when the repository is not the session's project. */
export function cwdFolder(f: FolderFacts): { folder: string; how: FolderHow } | null {
  const s = segmentsOf(f.cwd);
  const name = f.repoName.toLowerCase();
  const checkout = (how: FolderHow, rest: string[]): { folder: string; how: FolderHow } => {
    if (rest.length === 0 || f.isFolder(rest.join('/'))) return { folder: rest.join('/'), how };
    // Not a folder of the tree: the cwd is a checkout of it elsewhere (a worktree). A worktree folder named after its
    // branch (`.worktrees/feat/x` for branch feat/x) is that checkout's root; otherwise the longest trailing part of
    // the cwd that is a folder of the tree is where in the checkout the cwd is.
    const branch = f.gitBranch ? segmentsOf(f.gitBranch) : [];
    if (branch.length > 0 && s.slice(-branch.length).join('/') === branch.join('/')) return { folder: '', how };
    for (let i = s.length - rest.length; i < s.length; i++) {
      const tail = s.slice(i).join('/');
      if (f.isFolder(tail)) return { folder: tail, how };
    }
    return { folder: '', how };
  };
  for (let i = s.length - 1; i >= 0; i--) if (s[i]!.toLowerCase() === name) return checkout('name', s.slice(i + 1));
  if (f.rootIsHome) {
    const d = homeDepth(f.cwd);
    if (d !== null) return { folder: s.slice(d).join('/'), how: 'home' };
  }
  return f.isProject ? checkout('project', s.slice(1)) : null;
}

/** Each folder from the root ('') down to `folder`. */
export function foldersDown(folder: string): string[] {
  const s = segmentsOf(folder);
  return s.map((_, i) => s.slice(0, i + 1).join('/')).reduce<string[]>((a, p) => [...a, p], ['']);
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** Normalises a repo-relative path ('a/./b/../c' → 'a/c'); null when it climbs out of the repository. */
export function normalise(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

// Claude Code's `@path` imports and a rule's `paths:` front matter are read as the CLI reads them: one reading.
export { importsOf, scopedRule as isPathScoped } from '../src/cli/instruction-files';
import { importsOf, scopedRule as isPathScoped } from '../src/cli/instruction-files';
import { FOLDER_INSTRUCTION_FILES } from '../src/load/instruction-files';

export interface Tree {
  /** Is this path a file (blob) of the tree? */
  isFile: (path: string) => boolean;
  /** The files under a folder, recursively. */
  filesUnder: (folder: string) => string[];
  read: (path: string) => string;
  /** A symbolic link's file, followed inside the tree (Claude Code reads a CLAUDE.md that links to AGENTS.md); else the path. */
  resolve?: (path: string) => string | null;
}

/** The instruction files a harness loads at start for a cwd folder, and the path-scoped rules apart. */
export function instructionPaths(tree: Tree, folder: string, harness: string, rootIsHome: boolean): { files: string[]; conditional: string[] } {
  const files: string[] = [];
  const conditional: string[] = [];
  const add = (given: string, depth: number): void => {
    const p = tree.resolve ? tree.resolve(given) : given;
    if (p === null || files.includes(p) || !tree.isFile(p)) return;
    files.push(p);
    if (depth >= 5) return;
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    for (const imp of importsOf(tree.read(p))) {
      let target: string | null;
      if (imp.startsWith('~/')) target = rootIsHome ? normalise(imp.slice(2)) : null;
      else if (imp.startsWith('/')) target = null;
      else target = normalise(join(dir, imp));
      if (target !== null) add(target, depth + 1);
    }
  };
  const claude = /claude/i.test(harness);
  const reads = { 'claude-code': claude, codex: /codex/i.test(harness), 'gemini-cli': /gemini/i.test(harness) };
  const names = FOLDER_INSTRUCTION_FILES.filter((f) => reads[f.harness]).map((f) => f.path);
  for (const dir of foldersDown(folder)) {
    for (const n of names) add(join(dir, n), 0);
    if (!claude) continue;
    for (const r of tree.filesUnder(join(dir, '.claude/rules')).filter((p) => p.endsWith('.md')).sort()) {
      if (isPathScoped(tree.read(r))) conditional.push(r);
      else add(r, 0);
    }
  }
  return { files, conditional };
}

// ---------------------------------------------------------------------------------------------------------------
// The mirror.

const gitDir = (repo: string) => `${MIRROR}/${repo.replace('/', '+')}/repo`;

function git(repo: string, args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', gitDir(repo), ...args], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

function mirrorTree(repo: string, commit: string): Tree & { folders: Set<string> } {
  const listing = git(repo, ['ls-tree', '-r', '-t', '--full-tree', commit]) ?? '';
  const blobs = new Set<string>();
  const folders = new Set<string>();
  const links = new Set<string>();
  for (const l of listing.split('\n')) {
    const m = /^(\d+) (\w+) [0-9a-f]+\t(.*)$/.exec(l);
    if (!m) continue;
    (m[2] === 'tree' ? folders : blobs).add(m[3]!);
    if (m[1] === '120000') links.add(m[3]!);
  }
  const cache = new Map<string, string>();
  const read = (p: string): string => {
    if (!cache.has(p)) cache.set(p, git(repo, ['show', `${commit}:${p}`]) ?? '');
    return cache.get(p)!;
  };
  return {
    folders,
    resolve: (p) => {
      for (let hops = 0; links.has(p); hops++) {
        const target = read(p).trim();
        const next = hops < 5 && !target.startsWith('/') ? normalise(join(p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '', target)) : null;
        if (next === null) return null;
        p = next;
      }
      return p;
    },
    isFile: (p) => blobs.has(p),
    filesUnder: (f) => [...blobs].filter((p) => p.startsWith(`${f}/`)),
    read,
  };
}

/** Entire's checkpoint folder of a session path (`bc/cb77bb88fa/1/full.jsonl` → its folders up the tree). */
function checkpointMetadata(s: SessionAt): Record<string, unknown>[] {
  const dir = s.path.includes('/') ? s.path.slice(0, s.path.lastIndexOf('/')) : '';
  const out: Record<string, unknown>[] = [];
  for (const d of [dir, dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '']) {
    const text = git(s.repo, ['show', `${s.commit}:${join(d, 'metadata.json')}`]);
    if (text === null) continue;
    try {
      out.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      /* not JSON: ignored */
    }
    if (d === '') break;
  }
  return out;
}

function projectCommit(s: SessionAt, start: SessionStart, meta: Record<string, unknown>[]): { commit: string; how: CommitHow } | string {
  for (const m of meta) {
    for (const k of ['base_commit', 'baseCommit', 'commit', 'head_commit']) {
      const v = m[k];
      if (typeof v === 'string' && /^[0-9a-f]{7,40}$/.test(v)) {
        const full = git(s.repo, ['rev-parse', '--verify', '--quiet', `${v}^{commit}`])?.trim();
        if (full) return { commit: full, how: 'recorded' };
      }
    }
  }
  if (!start.timestamp) return 'no timestamp in the first records';
  const before = `--before=${start.timestamp}`;
  const id = meta.map((m) => m['checkpoint_id']).find((v): v is string => typeof v === 'string');
  if (id) {
    const linked = (git(s.repo, ['log', '--all', '--fixed-strings', `--grep=Entire-Checkpoint: ${id}`, '--format=%ct %H']) ?? '')
      .split('\n')
      .filter(Boolean)
      .sort();
    if (linked.length > 0) {
      const tip = linked[0]!.split(' ')[1]!;
      const base = git(s.repo, ['rev-list', '-1', before, tip])?.trim();
      if (base) return { commit: base, how: 'trailer' };
      const first = git(s.repo, ['rev-list', '--reverse', tip])?.split('\n')[0];
      if (first) return { commit: first, how: 'first-after' };
    }
  }
  const own = branchRef(s.repo, start.gitBranch);
  if (own) {
    const c = git(s.repo, ['rev-list', '-1', before, own])?.trim();
    if (c) return { commit: c, how: 'branch-time' };
  }
  const c = git(s.repo, ['rev-list', '-1', before, 'HEAD'])?.trim();
  if (c) return { commit: c, how: 'default-time' };
  // The repository's history starts after the session did (a backup made later): its first commit after the start.
  const first = git(s.repo, ['rev-list', '--reverse', `--after=${start.timestamp}`, ref(s, start)])?.split('\n')[0];
  return first ? { commit: first, how: 'first-after' } : 'no commit of the branch before or after the first timestamp';
}

const branchRef = (repo: string, branch: string | null): string | null =>
  branch === null || branch === 'HEAD' ? null : ([`refs/heads/${branch}`, `refs/remotes/origin/${branch}`].find((r) => git(repo, ['rev-parse', '--verify', '--quiet', r]) !== null) ?? null);

/** The session's branch in the mirror, else the default branch. */
const ref = (s: SessionAt, start: SessionStart) => branchRef(s.repo, start.gitBranch) ?? 'HEAD';

/** The gitBranch is a branch of the mirror and not its default one (a `main` is in every repository: it tells nothing). */
function ownBranch(repo: string, branch: string | null): boolean {
  const r = branchRef(repo, branch);
  const head = git(repo, ['symbolic-ref', '--short', 'HEAD'])?.trim();
  return r !== null && branch !== head && !['main', 'master'].includes(branch!);
}

/**
 * The session file lies in the repository's own `.claude/projects/<encoded cwd>/` and every project folder there is
 * that cwd or under it (its worktrees): the repository's `.claude` is this project's. A backup of a user's whole
 * ~/.claude holds several projects' folders and tells nothing.
 */
function ownConfig(s: SessionAt): boolean {
  const m = /^\.claude\/projects\/([^/]+)\//.exec(s.path);
  if (!m) return false;
  const folders = (git(s.repo, ['ls-tree', '--name-only', `${s.commit}:.claude/projects/`]) ?? '').split('\n').filter(Boolean);
  return folders.every((f) => f.toLowerCase().startsWith(m[1]!.toLowerCase()));
}

/** One session's entry; reads only the first records' metadata fields of its file. */
export function resolveInstructions(key: string, s: SessionAt): LabelledInstructions {
  const entry: LabelledInstructions = { repo: s.repo, commit: null, how: null, folder: null, folderHow: null, files: [] };
  if (!existsSync(gitDir(s.repo))) return { ...entry, unresolved: 'repository not in the mirror' };
  const text = mirroredFile(s.repo, s.commit, s.path, key);
  if (text === null) return { ...entry, unresolved: 'session file not in the mirror' };
  const start = /^\s*\{/.test(text) && !/^\s*\{\s*"trajectory"/.test(text) ? sessionStart(text) : sessionStart('');
  const cwd = start.cwd ?? s.cwd;
  if (!/claude|codex|gemini/i.test(s.harness)) return { ...entry, unresolved: `${s.harness} session: its harness loads none of these files` };
  if (!cwd) return { ...entry, unresolved: 'no cwd' };
  const meta = s.entire ? checkpointMetadata(s) : [];
  const found = projectCommit(s, start, meta);
  if (typeof found === 'string') return { ...entry, unresolved: found };
  const tree = mirrorTree(s.repo, found.commit);
  const rootIsHome = ['.bashrc', '.bash_profile', '.profile', '.zshrc'].some((f) => tree.isFile(f));
  const folder = cwdFolder({
    repoName: s.repo.split('/')[1]!,
    cwd,
    gitBranch: start.gitBranch,
    rootIsHome,
    isProject: s.entire || ownBranch(s.repo, start.gitBranch) || ownConfig(s),
    isFolder: (p) => tree.folders.has(p),
  });
  if (!folder) return { ...entry, commit: found.commit, how: found.how, unresolved: 'the cwd is not in this repository (another project)' };
  const { files, conditional } = instructionPaths(tree, folder.folder, s.harness, rootIsHome);
  return { ...entry, commit: found.commit, how: found.how, folder: folder.folder, folderHow: folder.how, files, ...(conditional.length ? { conditional } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// The fixture and its reader.

const entries = (file: URL) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, LabelledInstructions>;

export function labelledInstructions(): Record<string, LabelledInstructions> {
  return entries(INSTRUCTIONS_FILE);
}

/** The judged sessions' entries (flag-instructions.json), by the keys of flag-judgements.json. */
export function flagInstructions(): Record<string, LabelledInstructions> {
  return entries(FLAG_INSTRUCTIONS_FILE);
}

/** An entry's files with their text read from the mirror at the project commit ([] when none). */
export function instructionFilesOf(e: LabelledInstructions | undefined, key: string): InstructionFile[] {
  if (!e || !e.commit) return [];
  return e.files.flatMap((p) => {
    const text = mirroredFile(e.repo, e.commit!, p, key);
    return text === null ? [] : [{ path: p, text }];
  });
}

/** The labelled session's instruction files with their text read from the mirror at the project commit ([] when none). */
export function labelledInstructionFiles(key: string): InstructionFile[] {
  return instructionFilesOf(labelledInstructions()[key], key);
}

/** The same for a session of flag-judgements.json. */
export function flagInstructionFiles(key: string): InstructionFile[] {
  return instructionFilesOf(flagInstructions()[key], key);
}

/**
 * The session with the instruction files its project held (`labelledInstructionFiles`) when the script was run with
 * `--instructions`: the scorers measure the audit as a user who passes them would see it, and as one who does not.
 */
export function withLabelledInstructions<S extends { instructionFiles?: readonly InstructionFile[] }>(key: string, session: S): S {
  if (!process.argv.includes('--instructions')) return session;
  const files = labelledInstructionFiles(key);
  return files.length > 0 ? { ...session, instructionFiles: files } : session;
}

/** The sessions of one set, by key, each with the part (split or half) the table shows. */
function sessionsOf(judged: boolean): [string, SessionAt, string][] {
  if (judged) return Object.entries(flagJudgements().sessions).map(([k, s]) => [k, judgedAt(s), s.half]);
  return Object.entries(labelledSessions()).map(([k, s]) => [k, labelledAt(s), s.split]);
}

function main(): void {
  if (!existsSync(MIRROR)) throw new Error(`${MIRROR} is absent: the entries are read from the mirrored repositories`);
  const judged = process.argv.includes('--judged');
  const out: Record<string, LabelledInstructions> = {};
  const rows: string[] = [];
  for (const [key, s, part] of sessionsOf(judged)) {
    const e = resolveInstructions(key, s);
    out[key] = e;
    const bytes = e.commit ? e.files.reduce((n, p) => n + Number(git(s.repo, ['cat-file', '-s', `${e.commit}:${p}`]) ?? 0), 0) : 0;
    rows.push(
      [part, key, s.repo, e.commit?.slice(0, 10) ?? '-', e.how ?? '-', e.folderHow ?? '-', JSON.stringify(e.folder), e.files.length, bytes, e.files.join(' '), e.conditional?.length ?? 0, e.unresolved ?? ''].join('\t'),
    );
  }
  console.log([judged ? 'half' : 'split', 'key', 'repo', 'commit', 'how', 'folderHow', 'folder', 'files', 'bytes', 'paths', 'conditional', 'unresolved'].join('\t'));
  for (const r of rows) console.log(r);
  if (process.argv.includes('--write')) writeFileSync(judged ? FLAG_INSTRUCTIONS_FILE : INSTRUCTIONS_FILE, `${JSON.stringify(out, null, 1)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
