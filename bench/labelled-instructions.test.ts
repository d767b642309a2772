// bench/labelled-instructions.ts: how a session's cwd maps into its repository, which files Claude Code loads for it
// (checked on small trees written here), and that the fixture covers every labelled session with files that exist at
// their commits in the mirror (when the mirror is on this machine); the same of the judged sessions' fixture
// (flag-instructions.json), whose sessions reach the lookup through `judgedAt`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagJudgements } from './flag-judgements-file';
import { labelledSessions } from './labelled-fixture';
import {
  cwdFolder,
  flagInstructions,
  foldersDown,
  homeDepth,
  importsOf,
  instructionPaths,
  isPathScoped,
  judgedAt,
  labelledAt,
  labelledInstructions,
  normalise,
  sessionStart,
  type FolderFacts,
  type LabelledInstructions,
  type Tree,
} from './labelled-instructions';
import { MIRROR } from './mirrored-file';

const memTree = (files: Record<string, string>): Tree => ({
  isFile: (p) => p in files,
  filesUnder: (f) => Object.keys(files).filter((p) => p.startsWith(`${f}/`)),
  read: (p) => files[p] ?? '',
});

const facts = (over: Partial<FolderFacts>): FolderFacts => ({
  repoName: 'shop',
  cwd: '/Users/ann/code/shop',
  gitBranch: 'main',
  rootIsHome: false,
  isProject: false,
  isFolder: () => false,
  ...over,
});

describe('labelledAt and judgedAt', () => {
  const labelled = { repo: 'acme/shop', commit: 'c0ffee', harness: 'claude-code', cwd: '/Users/ann/shop' };
  it('read an Entire checkpoint the same way whether the labelled path names its branch or the judged set gives it as the ref', () => {
    const fromLabels = labelledAt({ ...labelled, path: '3e/e9b4fded25/0/full.jsonl (branch entire/checkpoints/v1)' });
    const fromJudged = judgedAt({ repo: 'acme/shop', ref: 'entire/checkpoints/v1', path: '3e/e9b4fded25/0/full.jsonl' });
    expect(fromLabels).toMatchObject({ path: '3e/e9b4fded25/0/full.jsonl', commit: 'c0ffee', entire: true });
    expect(fromJudged).toEqual({ repo: 'acme/shop', commit: 'entire/checkpoints/v1', path: '3e/e9b4fded25/0/full.jsonl', entire: true, harness: 'claude-code', cwd: null });
    expect(labelledAt({ ...labelled, path: 'a/full.jsonl (ref refs/entire/checkpoints/v1)' }).entire).toBe(true);
  });
  it('take a session file on any other ref, or not named full.jsonl, for no checkpoint', () => {
    expect(labelledAt({ ...labelled, path: '.claude/projects/-Users-ann-shop/s1.jsonl' })).toEqual({ ...labelled, path: '.claude/projects/-Users-ann-shop/s1.jsonl', entire: false });
    expect(labelledAt({ ...labelled, path: 'logs/full.jsonl (branch backups)' })).toMatchObject({ path: 'logs/full.jsonl', entire: false });
    expect(judgedAt({ repo: 'acme/shop', ref: 'HEAD', path: 'test/fixtures/s1.jsonl' }).entire).toBe(false);
    expect(judgedAt({ repo: 'acme/shop', ref: 'entire/checkpoints/v1', path: '3e/e9b4fded25/0/context.md' }).entire).toBe(false);
  });
});

describe('sessionStart', () => {
  it('keeps the earliest timestamp and the first cwd, branch, version and session id, nothing else', () => {
    const text = [
      JSON.stringify({ type: 'file-history-snapshot', snapshot: { timestamp: '2026-01-02T10:00:05Z' } }),
      JSON.stringify({ type: 'user', timestamp: '2026-01-02T10:00:00Z', cwd: '/w/a', gitBranch: 'feat/x', version: '2.1.0', sessionId: 's1', message: { content: 'hi' } }),
      JSON.stringify({ type: 'user', timestamp: '2026-01-02T11:00:00Z', cwd: '/w/b', gitBranch: 'other' }),
    ].join('\n');
    expect(sessionStart(text)).toEqual({ timestamp: '2026-01-02T10:00:00Z', cwd: '/w/a', gitBranch: 'feat/x', version: '2.1.0', sessionId: 's1' });
  });
});

describe('cwdFolder', () => {
  it('puts the root at the segment named like the repository', () => {
    expect(cwdFolder(facts({ cwd: '/Users/ann/code/Shop/web', isFolder: (p) => p === 'web' }))).toEqual({ folder: 'web', how: 'name' });
    expect(cwdFolder(facts({ cwd: 'C:\\Users\\ann\\shop' }))).toEqual({ folder: '', how: 'name' });
  });
  it('reads a worktree folder named after its branch as the checkout root, not as a folder of the tree', () => {
    const f = facts({ cwd: '/Users/ann/shop/.worktrees/feat/packages', gitBranch: 'feat/packages', isFolder: (p) => p === 'packages' });
    expect(cwdFolder(f)).toEqual({ folder: '', how: 'name' });
    expect(cwdFolder({ ...f, gitBranch: 'other' })).toEqual({ folder: 'packages', how: 'name' });
  });
  it('maps the cwd under the home folder when the repository is a home folder', () => {
    expect(cwdFolder(facts({ repoName: 'dotfiles', cwd: '/home/ken/platform/api', rootIsHome: true }))).toEqual({ folder: 'platform/api', how: 'home' });
    expect(homeDepth('/root/x')).toBe(1);
    expect(homeDepth('/opt/x')).toBeNull();
  });
  it('needs evidence that a differently named repository is the project', () => {
    expect(cwdFolder(facts({ repoName: 'backups', cwd: '/home/u/other-project' }))).toBeNull();
    expect(cwdFolder(facts({ repoName: 'backups', cwd: '/home/u/local-name/sub', isProject: true, isFolder: (p) => p === 'sub' }))).toEqual({ folder: 'sub', how: 'project' });
    expect(cwdFolder(facts({ repoName: 'backups', cwd: '/home/u/local-name', isProject: true }))).toEqual({ folder: '', how: 'project' });
  });
});

describe('imports and paths', () => {
  it('finds @path imports outside code spans and fenced blocks, as written, at the start of a word as Claude Code reads them', () => {
    // Claude Code's include pattern is /(?:^|\s)@((?:[^\s\\]|\\ )+)/g: an @ after a bracket is no import.
    const md = ['See @README and @docs/a.md.', 'Email me@host.com', '`@not/this.md`', '```', '@nor/this.md', '```', '(@../not-this.md) but @../up.md', '- @~/.claude/me.md'].join('\n');
    expect(importsOf(md)).toEqual(['README', 'docs/a.md', '../up.md', '~/.claude/me.md']);
  });
  it('normalises repo-relative paths and refuses one that climbs out', () => {
    expect(normalise('a/./b/../c')).toBe('a/c');
    expect(normalise('../x')).toBeNull();
    expect(foldersDown('a/b')).toEqual(['', 'a', 'a/b']);
  });
  it('tells a path-scoped rule by its front matter', () => {
    expect(isPathScoped('---\npaths:\n  - "src/**"\n---\nrule')).toBe(true);
    expect(isPathScoped('---\ndescription: x\n---\nrule')).toBe(false);
    expect(isPathScoped('# rule')).toBe(false);
  });
});

describe('instructionPaths', () => {
  it('reads a CLAUDE.md that is a link to AGENTS.md as AGENTS.md, whose text is what Claude Code loads', () => {
    const linked: Tree = { ...memTree({ 'CLAUDE.md': 'AGENTS.md', 'AGENTS.md': 'Run pnpm test.' }), resolve: (p) => (p === 'CLAUDE.md' ? 'AGENTS.md' : p) };
    expect(instructionPaths(linked, '', 'Claude Code', false).files).toEqual(['AGENTS.md']);
    // A link pointing out of the tree is not followed.
    expect(instructionPaths({ ...linked, resolve: (p) => (p === 'CLAUDE.md' ? null : p) }, '', 'Claude Code', false).files).toEqual([]);
  });
  const tree = memTree({
    'CLAUDE.md': 'Root. @docs/guide.md @missing.md',
    'docs/guide.md': 'Guide, see @../web/CLAUDE.md and @deeper/one.md',
    'docs/deeper/one.md': '@two.md',
    'docs/deeper/two.md': '@three.md',
    'docs/deeper/three.md': '@four.md',
    'docs/deeper/four.md': '@five.md',
    'docs/deeper/five.md': 'end',
    'web/CLAUDE.md': 'Web. @../CLAUDE.md',
    'web/CLAUDE.local.md': 'mine',
    'web/.claude/rules/a.md': 'always',
    'web/.claude/rules/sub/b.md': '---\npaths: ["**/*.ts"]\n---\nscoped',
    'web/api/CLAUDE.md': 'below the cwd: on demand',
    'AGENTS.md': 'for Codex',
    '.claude/CLAUDE.md': 'project, hidden folder',
  });
  it('loads every folder from the root down to the cwd, imports after their importer, up to five hops', () => {
    const { files, conditional } = instructionPaths(tree, 'web', 'claude-code', false);
    expect(files).toEqual([
      'CLAUDE.md',
      'docs/guide.md',
      'web/CLAUDE.md',
      'docs/deeper/one.md',
      'docs/deeper/two.md',
      'docs/deeper/three.md',
      'docs/deeper/four.md',
      '.claude/CLAUDE.md',
      'web/CLAUDE.local.md',
      'web/.claude/rules/a.md',
    ]);
    expect(conditional).toEqual(['web/.claude/rules/sub/b.md']);
  });
  it('reads AGENTS.md for Codex and no CLAUDE files for it', () => {
    expect(instructionPaths(tree, '', 'codex', false).files).toEqual(['AGENTS.md']);
  });
});

function expectInMirror(entries: Record<string, LabelledInstructions>): void {
  for (const [k, e] of Object.entries(entries)) {
    for (const p of e.commit ? [...e.files, ...(e.conditional ?? [])] : []) {
      const dir = `${MIRROR}/${e.repo.replace('/', '+')}/repo`;
      if (!existsSync(dir)) continue;
      expect(() => execFileSync('git', ['-C', dir, 'cat-file', '-e', `${e.commit}:${p}`], { stdio: 'ignore' }), `${k} ${p}`).not.toThrow();
    }
  }
}

describe('labelled-instructions.json', () => {
  const entries = labelledInstructions();
  const sessions = labelledSessions();
  it('has an entry for every labelled session, in its repository', () => {
    expect(Object.keys(entries).sort()).toEqual(Object.keys(sessions).sort());
    for (const [k, e] of Object.entries(entries)) {
      expect(e.repo, k).toBe(sessions[k]!.repo);
      if (!e.commit) expect(e.files, k).toEqual([]);
    }
  });
  describe.skipIf(!existsSync(MIRROR))(`every listed file exists at its commit (needs the mirrored repositories in ${MIRROR})`, () => {
    it('in the mirror', () => expectInMirror(entries));
  });
});

describe('flag-instructions.json', () => {
  const entries = flagInstructions();
  const sessions = flagJudgements().sessions;
  it('has an entry for every judged session, in its repository, naming files only where a commit was found', () => {
    expect(Object.keys(entries).sort()).toEqual(Object.keys(sessions).sort());
    for (const [k, e] of Object.entries(entries)) {
      expect(e.repo, k).toBe(sessions[k]!.repo);
      if (!e.commit || e.folder === null) expect(e.files, k).toEqual([]);
      if (e.folder === null) expect(e.unresolved, k).toBeTruthy();
    }
  });
  describe.skipIf(!existsSync(MIRROR))(`every listed file exists at its commit (needs the mirrored repositories in ${MIRROR})`, () => {
    it('in the mirror', () => expectInMirror(entries));
  });
});
