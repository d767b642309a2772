import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from '../test/http-get';
import { openRoots } from './serve-listing';
import { startServer, type RunningServer } from './serve';
import { HEAD_BYTES, instructionNamed, readHead, servedInstructions, sessionOfHead } from './serve-instructions';

// A Claude Code session's records as the harness writes them (modelled on src/formats/__fixtures__/claude-code-session.jsonl):
// every user and assistant record carries the working directory.
const claudeSession = (cwd: string) =>
  [
    { type: 'file-history-snapshot', messageId: 'u-1', snapshot: { messageId: 'u-1', trackedFileBackups: {}, timestamp: '2026-03-02T02:00:00.000Z' }, isSnapshotUpdate: false },
    { parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId: 's-1', version: '2.1.39', type: 'user', message: { role: 'user', content: 'Check the config.' }, uuid: 'u-1', timestamp: '2026-03-02T02:01:00.000Z' },
    { parentUuid: 'u-1', isSidechain: false, userType: 'external', cwd, sessionId: 's-1', version: '2.1.39', type: 'assistant', message: { model: 'claude-opus-4-6', id: 'm-1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }], usage: { input_tokens: 3, output_tokens: 5 } }, uuid: 'a-1', timestamp: '2026-03-02T02:01:05.000Z' },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n';

let tmp: string;
let home: string;
let srv: RunningServer;

const get = (path: string) => httpGet(srv.port, path);

const ask = (path: string, token = 'tok-1') => get(`/api/instructions?token=${token}&root=0&path=${encodeURIComponent(path)}`);
const filesOf = async (path: string): Promise<{ path: string; text: string }[]> => {
  const r = await ask(path);
  expect(r.status).toBe(200);
  return (JSON.parse(r.body) as { files: { path: string; text: string }[] }).files;
};

const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

const memoryOf = (cwd: string) => join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md');

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ci-serve-instr-')));
  home = join(tmp, 'home');
  const sessions = join(tmp, 'sessions');
  const work = join(tmp, 'work');
  write(join(home, '.claude', 'CLAUDE.md'), 'I prefer pnpm. @~/.claude/mine.md @~/notes.md');
  write(join(home, '.claude', 'mine.md'), 'my own rules');
  write(join(home, 'notes.md'), 'private notes, not under ~/.claude');
  write(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  // The project: a CLAUDE.md above the working directory and one in it, with imports in and out of it.
  write(join(work, 'CLAUDE.md'), 'Monorepo: the staging port is 7443.');
  write(join(work, 'app', 'CLAUDE.md'), 'App rules. @docs/deploy.md @package.json @../../home/.ssh/id_rsa @~/.ssh/id_rsa');
  write(join(work, 'app', 'docs', 'deploy.md'), 'Deploy with make ship.');
  write(join(work, 'app', 'package.json'), '{"name":"app"}');
  write(join(work, 'app', 'AGENTS.md'), 'Codex only.');
  // Claude Code's auto memory of that working directory (no repository above it), under ~/.claude.
  write(memoryOf(join(work, 'app')), 'The deploy user is ops.');
  // A hostile working directory: planted files that lead out by name, by import and by symlink.
  const evil = join(tmp, 'evil', 'etc');
  write(join(tmp, 'secret.md'), 'SECRET MARKDOWN');
  write(join(evil, 'passwd'), 'root:x:0:0');
  write(join(tmp, 'evil', 'notes.md'), 'an .md file outside the cwd that the lookup never names');
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(evil, 'CLAUDE.md'));
  mkdirSync(join(evil, '.claude', 'rules'), { recursive: true });
  symlinkSync(join(tmp, 'secret.md'), join(evil, '.claude', 'rules', 'leak.md'));
  write(join(evil, '.claude', 'rules', 'style.md'), 'Two-space indents. @../../passwd @../../../../secret.md @/etc/passwd');
  write(join(evil, 'CLAUDE.local.md'), '@passwd @../notes.md @../../secret.md');
  // Sessions under the listed folder, one per working directory.
  write(join(sessions, 'proj', 'good.jsonl'), claudeSession(join(work, 'app')));
  write(join(sessions, 'proj', 'dotdot.jsonl'), claudeSession(`${join(tmp, 'work', 'app')}/../../evil/./etc`));
  write(join(sessions, 'proj', 'etc.jsonl'), claudeSession('/etc'));
  write(join(sessions, 'proj', 'relative.jsonl'), claudeSession('../work/app'));
  write(join(sessions, 'proj', 'gone.jsonl'), claudeSession(join(tmp, 'no-such-folder')));
  write(join(tmp, 'outside.jsonl'), claudeSession(join(work, 'app')));
  symlinkSync(join(tmp, 'outside.jsonl'), join(sessions, 'proj', 'link-out.jsonl'));
  const { roots } = openRoots([{ dir: sessions, harness: null }]);
  srv = await startServer({ roots, dist: join(tmp, 'work'), port: 0, token: 'tok-1', home });
});

afterAll(async () => {
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('/api/instructions', () => {
  it("answers the user's CLAUDE.md and each folder's down to the recorded cwd, with the imports inside them, as --instructions auto reads them", async () => {
    const files = await filesOf('proj/good.jsonl');
    expect(files.map((f) => f.path)).toEqual([join(home, '.claude', 'CLAUDE.md'), join(home, '.claude', 'mine.md'), memoryOf(join(tmp, 'work', 'app')), join(tmp, 'work', 'CLAUDE.md'), join(tmp, 'work', 'app', 'CLAUDE.md'), join(tmp, 'work', 'app', 'docs', 'deploy.md')]);
    expect(files[2]!.text).toBe('The deploy user is ops.');
    expect(files[3]!.text).toBe('Monorepo: the staging port is 7443.');
    // Not for a Claude Code session: Codex's AGENTS.md. Left out: an import outside ~/.claude or the cwd, a file that
    // is not Markdown, and `..` or `~/` out of the project.
    expect(files.some((f) => /AGENTS|notes|package|id_rsa/.test(f.path))).toBe(false);
  });

  it('a hostile cwd (`..` in it, symlinks and imports out of it) yields only instruction-named Markdown files', async () => {
    const files = await filesOf('proj/dotdot.jsonl');
    const evil = join(tmp, 'evil', 'etc');
    expect(files.map((f) => f.path)).toEqual([join(home, '.claude', 'CLAUDE.md'), join(home, '.claude', 'mine.md'), join(evil, 'CLAUDE.local.md'), join(evil, '.claude', 'rules', 'style.md')]);
    const texts = files.map((f) => f.text).join('\n');
    for (const secret of ['PRIVATE KEY', 'SECRET MARKDOWN', 'root:x', 'never names']) expect(texts).not.toContain(secret);
  });

  it('a cwd of /etc yields nothing but files named as instruction files', async () => {
    const files = await filesOf('proj/etc.jsonl');
    expect(files.length).toBeGreaterThan(0); // the user's own file, at least
    // Whatever this machine holds at /CLAUDE.md or /etc/CLAUDE.md: only such names, and the user's own file's import.
    expect(files.every((f) => instructionNamed(f.path) || f.path === join(home, '.claude', 'mine.md'))).toBe(true);
  });

  it('answers an empty list when the recorded cwd is relative or not on this machine', async () => {
    expect(await filesOf('proj/relative.jsonl')).toEqual([]);
    expect((await filesOf('proj/gone.jsonl')).map((f) => f.path)).toEqual([]);
  });

  it('refuses a session path outside the listed folders: `..`, absolute, a symlink out', async () => {
    for (const path of ['../outside.jsonl', join(tmp, 'outside.jsonl'), 'proj/link-out.jsonl', 'proj', '']) expect((await ask(path)).status).toBe(403);
  });

  it('wants the token', async () => {
    expect((await ask('proj/good.jsonl', '')).status).toBe(403);
    expect((await ask('proj/good.jsonl', 'tok-2')).status).toBe(403);
  });
});

describe('readHead', () => {
  it('reads a big file up to its last whole line within HEAD_BYTES', async () => {
    const { openSync, closeSync, writeFileSync: w } = await import('node:fs');
    const path = join(tmp, 'big.jsonl');
    const line = `${JSON.stringify({ pad: 'x'.repeat(1000) })}\n`;
    w(path, line.repeat(Math.ceil((HEAD_BYTES * 1.5) / line.length)));
    const fd = openSync(path, 'r');
    const head = readHead(fd, HEAD_BYTES * 2);
    closeSync(fd);
    expect(head.length).toBeLessThanOrEqual(HEAD_BYTES);
    expect(head.endsWith('\n')).toBe(true);
    expect(head.split('\n').slice(0, -1).every((l) => l === line.trim())).toBe(true);
  });
});

describe('servedInstructions', () => {
  it("reads a Codex session's cwd from its session_meta line and gives it AGENTS.md, not CLAUDE.md", () => {
    const head = `${JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'c-1', timestamp: '2026-01-01T00:00:00Z', cwd: join(tmp, 'work', 'app'), originator: 'codex_cli_rs', cli_version: '0.46.0' } })}\n`;
    const session = sessionOfHead('rollout.jsonl', head);
    expect(session?.format).toBe('codex');
    expect(servedInstructions(session!, home).map((f) => f.path)).toEqual([join(tmp, 'work', 'app', 'AGENTS.md')]);
  });
});
