import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRoots, listSessions, openRoots } from './serve-listing';

let home: string;

function write(path: string, text = '{}\n', mtime?: number) {
  const p = join(home, path);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  if (mtime !== undefined) utimesSync(p, mtime, mtime);
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'ci-home-'));
  write('.claude/projects/-home-me-app/1111.jsonl', '{"a":1}\n', 1000);
  write('.claude/projects/-home-me-app/agent-a1.jsonl');
  write('.claude/projects/-home-me-app/1111/subagents/agent-b2.jsonl');
  write('.codex/sessions/2026/03/02/rollout-x.jsonl', '{}\n', 3000);
  write('.openhands/conversations/conv1/base_state.json');
  write('.openhands/conversations/conv1/events/event-00000-a.json');
  write('.openhands/conversations/conv1/events/event-00001-b.json');
  write('.gemini/tmp/abc123/chats/session-1.json', '{}', 2000);
  write('.gemini/tmp/abc123/logs.json');
  write('outside/secret.jsonl');
  symlinkSync(join(home, 'outside'), join(home, '.codex', 'sessions', 'linked'));
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('listSessions', () => {
  it("lists each harness's sessions once: Claude Code without subagent files, Gemini chats only, an OpenHands conversation as one folder", () => {
    const { roots, missing } = openRoots(defaultRoots(home));
    expect(missing).toEqual([]);
    const listed = listSessions(roots);
    const byPath = new Map(listed.map((s) => [`${s.harness}:${s.path}`, s]));
    expect([...byPath.keys()].sort()).toEqual(['claude-code:-home-me-app/1111.jsonl', 'codex:2026/03/02/rollout-x.jsonl', 'gemini-cli:abc123/chats/session-1.json', 'openhands:conv1']);
    expect(byPath.get('claude-code:-home-me-app/1111.jsonl')).toMatchObject({ project: '/home/me/app', size: 8, files: ['-home-me-app/1111.jsonl'] });
    expect(byPath.get('openhands:conv1')).toMatchObject({ project: null, files: ['conv1/base_state.json', 'conv1/events/event-00000-a.json', 'conv1/events/event-00001-b.json'] });
    expect(byPath.get('gemini-cli:abc123/chats/session-1.json')!.project).toBe('abc123');
    // Newest first.
    expect(listed.slice(-3).map((s) => s.harness)).toEqual(['codex', 'gemini-cli', 'claude-code']);
  });

  it('skips default folders that do not exist and reports a named one', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ci-empty-'));
    expect(openRoots(defaultRoots(empty)).roots).toEqual([]);
    expect(openRoots([{ dir: join(empty, 'nope'), harness: null }]).missing).toHaveLength(1);
    rmSync(empty, { recursive: true });
  });
});
