import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../test/memory-io';
import type { FormatId } from '../model/types';
import { giveInstructions, importsOf, instructionFilesFor, readInstructionFiles, scopedRule } from './instruction-files';
import type { Session } from '../model/types';
import { run } from './main';

// The fixture's first compaction loses the ticket FRE-512, and the person asks for it after the summary. It holds a
// broken line on purpose (an input error): the commands that load it exit 1.
const SESSION = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url), 'utf8');

const bytes = (text: string) => new TextEncoder().encode(text).length;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('readInstructionFiles', () => {
  it('reads a project folder as the harnesses do, in order, following CLAUDE.md and GEMINI.md imports relative to the importer', () => {
    const { io } = memoryIo({
      'proj/CLAUDE.md': '# Payments\nSee @docs/tickets.md and `@not/an/import.md`.\n```\n@also/not.md\n```',
      'proj/docs/tickets.md': 'Open: FRE-512. More in @../notes/more.md',
      'proj/notes/more.md': 'pool_size must stay below 30',
      'proj/CLAUDE.local.md': 'My sandbox is sandbox-7.',
      'proj/.claude/CLAUDE.md': 'Run tests with vitest.',
      'proj/.claude/rules/api/errors.md': 'Return problem+json.',
      'proj/.claude/rules/style.md': 'Two-space indents.',
      'proj/.claude/rules/sql.md': '---\npaths:\n  - "**/*.sql"\n---\n\nLoaded when a .sql file is read, and then recorded.',
      'proj/AGENTS.md': 'Codex: use pnpm. @codex-only.md',
      'proj/codex-only.md': 'not imported: Codex reads AGENTS.md as it is',
      'proj/GEMINI.md': 'Gemini: use pnpm. @gemini/style.md',
      'proj/gemini/style.md': 'Gemini imports alike.',
      'proj/README.md': 'not an instruction file',
    });
    const read = readInstructionFiles(['proj'], io);
    expect('error' in read).toBe(false);
    if ('error' in read) return;
    expect(read.read.map((f) => f.path)).toEqual([
      'proj/CLAUDE.md',
      'proj/docs/tickets.md',
      'proj/notes/more.md',
      'proj/CLAUDE.local.md',
      'proj/.claude/CLAUDE.md',
      'proj/.claude/rules/api/errors.md',
      'proj/.claude/rules/style.md',
      'proj/AGENTS.md',
      'proj/GEMINI.md',
      'proj/gemini/style.md',
    ]);
    expect(read.read[1]).toEqual({ path: 'proj/docs/tickets.md', bytes: 40, harness: 'claude-code' });
    expect(read.files[1]!.text).toBe('Open: FRE-512. More in @../notes/more.md');
    // Each harness's session is given the files it loads, imports with their importer; another format gets them all.
    const paths = (format: FormatId) => instructionFilesFor(read, format).map((f) => f.path);
    expect(paths('claude-code')).toEqual(read.read.map((f) => f.path).filter((p) => !/AGENTS|GEMINI|gemini\//.test(p)));
    expect(paths('codex')).toEqual(['proj/AGENTS.md']);
    expect(paths('gemini-cli')).toEqual(['proj/GEMINI.md', 'proj/gemini/style.md']);
    expect(paths('openai-chat')).toEqual(read.read.map((f) => f.path));
  });

  it('gives a file the user named to every session, whatever its name', () => {
    const read = readInstructionFiles(['AGENTS.md'], memoryIo({ 'AGENTS.md': 'Use pnpm.' }).io);
    if ('error' in read) throw new Error(read.error);
    expect(read.read).toEqual([{ path: 'AGENTS.md', bytes: 9 }]);
    expect(instructionFilesFor(read, 'claude-code')).toEqual([{ path: 'AGENTS.md', text: 'Use pnpm.' }]);
  });

  it('follows imports at most five hops deep, and reads a file imported twice once', () => {
    const files: Record<string, string> = { 'CLAUDE.md': '@d1.md @d1.md' };
    for (let i = 1; i <= 7; i++) files[`d${i}.md`] = `level ${i} @d${i + 1}.md`;
    const read = readInstructionFiles(['CLAUDE.md'], memoryIo(files).io);
    if ('error' in read) throw new Error(read.error);
    expect(read.read.map((f) => f.path)).toEqual(['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md', 'd5.md']);
  });

  it('resolves ~/ imports from the home folder and leaves out an import that is not there', () => {
    const read = readInstructionFiles(['CLAUDE.md'], memoryIo({ 'CLAUDE.md': '@~/.claude/mine.md @missing.md', '/home/me/.claude/mine.md': 'mine' }).io, '/home/me');
    if ('error' in read) throw new Error(read.error);
    expect(read.read.map((f) => f.path)).toEqual(['CLAUDE.md', '/home/me/.claude/mine.md']);
  });

  it('names a path that is missing, and a folder without instruction files', () => {
    const { io } = memoryIo({ 'proj/README.md': 'x' });
    expect(readInstructionFiles(['nope/CLAUDE.md'], io)).toEqual({ error: '--instructions nope/CLAUDE.md: no such file or folder' });
    expect(readInstructionFiles(['proj'], io)).toEqual({ error: expect.stringMatching(/^--instructions proj: the folder holds none of CLAUDE\.md, /) });
  });
});

describe('scopedRule', () => {
  it('tells a rule scoped by paths: in its front matter from one loaded every request', () => {
    expect(scopedRule('---\npaths:\n  - "src/**/*.ts"\n---\n\nUse strict types.')).toBe(true);
    expect(scopedRule('---\ndescription: style\n---\n\nUse strict types.')).toBe(false);
    expect(scopedRule('Use strict types.\npaths: none')).toBe(false);
  });
});

describe('importsOf', () => {
  it('takes @paths at the start of a word, outside code, without a #section or a closing stop', () => {
    expect(importsOf('Read @./a.md, then @b/c.md#setup.\nMail me@example.com. `@code.md`')).toEqual(['./a.md', 'b/c.md']);
  });
});

describe('inspect --instructions', () => {
  it('lists the files the audit read, and the audit leaves out what they hold', async () => {
    const files = { 's.jsonl': SESSION, 'proj/CLAUDE.md': '# Payments\nTickets: @docs/tickets.md', 'proj/docs/tickets.md': 'The open ticket is FRE-512.' };
    const without = memoryIo(files);
    expect(await run(['inspect', 's.jsonl', '--json', '--no-cache'], without.io)).toBe(1);
    const before = JSON.parse(without.out.join('\n'));
    expect(before.instructionFiles).toBeUndefined();
    expect(before.sessions[0].audits[0].lost).toContain('FRE-512');

    const withFiles = memoryIo(files);
    expect(await run(['inspect', 's.jsonl', '--json', '--no-cache', '--instructions', 'proj'], withFiles.io)).toBe(1);
    const after = JSON.parse(withFiles.out.join('\n'));
    expect(after.instructionFiles).toEqual([
      { path: 'proj/CLAUDE.md', bytes: bytes(files['proj/CLAUDE.md']), harness: 'claude-code' },
      { path: 'proj/docs/tickets.md', bytes: bytes(files['proj/docs/tickets.md']), harness: 'claude-code' },
    ]);
    expect(after.sessions[0].audits[0].lost).not.toContain('FRE-512');
  });

  it('does not give a Claude Code session the AGENTS.md a folder holds: Claude Code does not load it', async () => {
    const m = memoryIo({ 's.jsonl': SESSION, 'proj/CLAUDE.md': '# Payments', 'proj/AGENTS.md': 'The open ticket is FRE-512.' });
    await run(['inspect', 's.jsonl', '--json', '--no-cache', '--instructions', 'proj'], m.io);
    const out = JSON.parse(m.out.join('\n'));
    expect(out.instructionFiles.map((f: { path: string; harness: string }) => `${f.path} ${f.harness}`)).toEqual(['proj/CLAUDE.md claude-code', 'proj/AGENTS.md codex']);
    expect(out.sessions[0].audits[0].lost).toContain('FRE-512');
  });

  it('keys the result cache by the files: a run with other files does not read back a cached result', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'instructions-cache-'));
    dirs.push(cacheDir);
    const files = { 's.jsonl': SESSION, 'a/CLAUDE.md': 'Nothing about tickets.', 'b/CLAUDE.md': 'The open ticket is FRE-512.' };
    const lostWith = async (dir: string) => {
      const m = memoryIo(files, { cacheDir });
      expect(await run(['inspect', 's.jsonl', '--json', '--instructions', dir], m.io)).toBe(1);
      return JSON.parse(m.out.join('\n')).sessions[0].audits[0].lost as string[];
    };
    expect(await lostWith('a')).toContain('FRE-512');
    expect(await lostWith('b')).not.toContain('FRE-512');
    expect(await lostWith('a')).toContain('FRE-512');
    expect(readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.v8'))).toHaveLength(2);
  }, 60_000);

  it('is a usage error naming a missing path', async () => {
    const m = memoryIo({ 's.jsonl': SESSION });
    expect(await run(['inspect', 's.jsonl', '--json', '--instructions=missing/CLAUDE.md'], m.io)).toBe(2);
    expect(m.err.join('\n')).toBe('--instructions missing/CLAUDE.md: no such file or folder');
    expect(m.out).toEqual([]);
  });
});

describe('a CLAUDE.md among the files', () => {
  it('is read as a file named to --instructions, not loaded as a session', async () => {
    const m = memoryIo({ 's.jsonl': SESSION, 'CLAUDE.md': 'The open ticket is FRE-512.' });
    await run(['inspect', 's.jsonl', 'CLAUDE.md', '--json', '--no-cache'], m.io);
    const out = JSON.parse(m.out.join('\n'));
    expect(out.sessions).toHaveLength(1);
    expect(out.instructionFiles).toEqual([{ path: 'CLAUDE.md', bytes: bytes('The open ticket is FRE-512.') }]);
    expect(out.sessions[0].audits[0].lost).not.toContain('FRE-512');
  });
});

describe('--instructions auto', () => {
  const session = (cwd: string | null, format: FormatId = 'claude-code') => ({ format, files: ['s.jsonl'], meta: cwd ? { cwd } : {} }) as unknown as Session;

  it("gives each session the files where it ran: the user's own, then each folder's down to its working directory", () => {
    const m = memoryIo({
      '/home/ann/.claude/CLAUDE.md': 'Answer in English.',
      '/home/ann/.codex/AGENTS.md': 'Codex only.',
      '/home/ann/code/CLAUDE.md': 'All my projects use pnpm.',
      '/home/ann/code/shop/CLAUDE.md': 'The open ticket is FRE-512.',
      '/home/ann/code/shop/AGENTS.md': 'Codex: the open ticket is FRE-512.',
      '/home/ann/code/other/CLAUDE.md': 'Not this session.',
    });
    const given = readInstructionFiles(['auto'], m.io, '/home/ann');
    if ('error' in given) throw new Error(given.error);
    const here = session('/home/ann/code/shop');
    const away = session('/srv/gone');
    const read = giveInstructions([here, away], given, m.io, '/home/ann');
    expect(here.instructionFiles?.map((f) => f.path)).toEqual(['/home/ann/.claude/CLAUDE.md', '/home/ann/code/CLAUDE.md', '/home/ann/code/shop/CLAUDE.md']);
    expect(away.instructionFiles).toBeUndefined();
    expect(read.map((r) => r.path)).toEqual(['/home/ann/.claude/CLAUDE.md', '/home/ann/code/CLAUDE.md', '/home/ann/code/shop/CLAUDE.md']);
    expect(m.err.join('\n')).toMatch(/no instruction file found for 1 of 2 sessions/);
    // A Codex session there is given Codex's files, not Claude Code's.
    const codex = session('/home/ann/code/shop', 'codex');
    giveInstructions([codex], given, m.io, '/home/ann');
    expect(codex.instructionFiles?.map((f) => f.path)).toEqual(['/home/ann/.codex/AGENTS.md', '/home/ann/code/shop/AGENTS.md']);
  });

  it("gives a Claude Code session the user's unscoped rules and the project's auto memory (its first 200 lines)", () => {
    const memory = ['# Memory', ...Array.from({ length: 250 }, (_, i) => `- note ${i + 1}`)].join('\n');
    const m = memoryIo({
      '/home/ann/.claude/rules/style.md': 'Prefer small commits.',
      '/home/ann/.claude/rules/api.md': '---\npaths: src/api/**\n---\nOnly for the API.',
      '/home/ann/code/shop/.git/HEAD': 'ref: refs/heads/main',
      '/home/ann/code/shop/CLAUDE.md': 'The open ticket is FRE-512.',
      '/home/ann/code/shop/web/index.ts': 'export {};',
      // Memory is the repository's: a session in a subfolder reads the root's.
      '/home/ann/.claude/projects/-home-ann-code-shop/memory/MEMORY.md': memory,
      '/home/ann/.claude/projects/-home-ann-code-shop-web/memory/MEMORY.md': 'Not the repository’s.',
    });
    const given = readInstructionFiles(['auto'], m.io, '/home/ann');
    if ('error' in given) throw new Error(given.error);
    const here = session('/home/ann/code/shop/web');
    const read = giveInstructions([here], given, m.io, '/home/ann');
    expect(here.instructionFiles?.map((f) => f.path)).toEqual([
      '/home/ann/.claude/rules/style.md',
      '/home/ann/.claude/projects/-home-ann-code-shop/memory/MEMORY.md',
      '/home/ann/code/shop/CLAUDE.md',
    ]);
    const text = here.instructionFiles![1]!.text;
    expect(text.split('\n')).toHaveLength(200);
    expect(text).toContain('- note 199');
    expect(text).not.toContain('- note 200');
    expect(read.every((r) => r.harness === 'claude-code')).toBe(true);
    // Outside a repository the working directory names the memory; a Codex session gets none of Claude Code's.
    const loose = memoryIo({ '/home/ann/.claude/projects/-tmp-try/memory/MEMORY.md': 'Scratch notes.', '/tmp/try/a.txt': 'x' });
    const s2 = session('/tmp/try');
    giveInstructions([s2], given, loose.io, '/home/ann');
    expect(s2.instructionFiles?.map((f) => f.path)).toEqual(['/home/ann/.claude/projects/-tmp-try/memory/MEMORY.md']);
    const codex = session('/tmp/try', 'codex');
    giveInstructions([codex], given, loose.io, '/home/ann');
    expect(codex.instructionFiles).toBeUndefined();
  });

  it('reads the recorded working directory through inspect: the audit leaves out what its CLAUDE.md holds', async () => {
    const m = memoryIo({ 's.jsonl': SESSION, '/home/dev/payments/CLAUDE.md': 'The open ticket is FRE-512.' });
    await run(['inspect', 's.jsonl', '--json', '--no-cache', '--instructions', 'auto'], m.io);
    const out = JSON.parse(m.out.join('\n'));
    expect(out.instructionFiles.map((f: { path: string }) => f.path)).toEqual(['/home/dev/payments/CLAUDE.md']);
    expect(out.sessions[0].audits[0].lost).not.toContain('FRE-512');
  });
});

describe('check --instructions', () => {
  it('reads the files into the audit and says which it read', async () => {
    const files = { 's.jsonl': SESSION, 'CLAUDE.md': 'The open ticket is FRE-512.' };
    const without = memoryIo(files);
    await run(['check', 's.jsonl', '--no-cache'], without.io);
    expect(without.out.join('\n')).toMatch(/lost and needed later: .*FRE-512/);
    const withFile = memoryIo(files);
    await run(['check', 's.jsonl', '--no-cache', '--instructions', 'CLAUDE.md'], withFile.io);
    const text = withFile.out.join('\n');
    expect(text).not.toMatch(/lost and needed later: .*FRE-512/);
    expect(text).toContain('The audit read these instruction files as in every request: CLAUDE.md (27 bytes)');
  });

  it('names them in the markdown comment too', async () => {
    const m = memoryIo({ 's.jsonl': SESSION, 'CLAUDE.md': 'The open ticket is FRE-512.' });
    await run(['check', 's.jsonl', '--no-cache', '--format', 'markdown', '--instructions', 'CLAUDE.md'], m.io);
    expect(m.out.join('\n')).toContain('The audit read these instruction files as in every request: `CLAUDE.md` (27 bytes)');
  });

  it('is a usage error naming a missing path', async () => {
    const m = memoryIo({ 's.jsonl': SESSION });
    expect(await run(['check', 's.jsonl', '--instructions', 'gone'], m.io)).toBe(2);
    expect(m.err.join('\n')).toMatch(/^--instructions gone: no such file or folder/);
  });
});

describe('rerun --instructions', () => {
  it('lists the files it gave the replays, and names a missing path', async () => {
    const m = memoryIo({ 's.jsonl': SESSION, 'CLAUDE.md': 'The open ticket is FRE-512.' });
    expect(await run(['rerun', 's.jsonl', '--policies', 'claude-code', '--json', '--instructions', 'CLAUDE.md'], m.io)).toBe(1);
    expect(JSON.parse(m.out.join('\n')).instructionFiles).toEqual([{ path: 'CLAUDE.md', bytes: 27 }]);
    const missing = memoryIo({ 's.jsonl': SESSION });
    expect(await run(['rerun', 's.jsonl', '--policies', 'claude-code', '--instructions', 'gone'], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toBe('--instructions gone: no such file or folder');
  });
});
