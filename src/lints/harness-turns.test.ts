// The causal-order lint on user turns a harness writes: a Claude Code Skill injection and a Cline task whose tool
// results, notices and workspace snapshots arrive as user text. Fixtures in ./__fixtures__ (sources in its README).
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles } from '../load/loader';
import type { Session } from '../model/types';
import { userWordsOf } from '../model/harness-messages';
import { lintSession } from './lint-session';

const fixture = (path: string) => ({ name: path, bytes: new Uint8Array(readFileSync(new URL(`./__fixtures__/${path}`, import.meta.url))) });
function load(paths: string[]): Session {
  const { sessions, issues } = loadFiles(paths.map(fixture));
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}
function causal(s: Session): string[] {
  const ctx = sessionContexts(s);
  return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4) })
    .filter((l) => l.rule === 'causal-order')
    .map((l) => l.itemId);
}

describe('causal-order on harness-written user turns', () => {
  it('does not read a Claude Code Skill injection (isMeta, sourceToolUseID) as the user, and still flags the user', () => {
    const s = load(['claude-code-skill.jsonl']);
    const injected = s.items.find((i) => i.id === 'u-0004')!;
    // The injection repeats the Skill call's argument, as Claude Code's `ARGUMENTS:` line does.
    expect(injected.meta).toMatchObject({ isMeta: true, sourceToolUseID: 'toolu_skill01' });
    expect(injected.text).toContain('ARGUMENTS: docs/plans/2026-03-10-offline-queue.md');
    // The person pastes the CI failure after the Edit of that file, and the injection follows the Skill call it
    // echoes: each came after what it quotes, the order it happened in.
    expect(causal(s)).toEqual([]);
    // Timed as a rebuilt context would be (each written before the call that quotes it): the Edit holds the pasted
    // path, but the Read had shown it first, so the Edit is no sign the model saw the message.
    const pasted = s.items.find((i) => i.id === 'u-0011')!;
    pasted.timestamp = injected.timestamp = '2000-01-01T00:00:00.000Z';
    expect(causal(s)).toEqual([]);
    // An Edit that quotes the failure's own words did see it: only the person's message is flagged.
    s.items.find((i) => i.id === 'a-0008')!.text += '\n// lint: Redundant Boolean call';
    expect(causal(s)).toEqual(['u-0011']);
    // Without the flag, the tool call that wrote it still makes it the agent's doing; without both, a person's
    // words, still not flagged: the Skill call took the plan's path from the person's first message.
    delete injected.meta!['isMeta'];
    expect(userWordsOf(injected)).toBeNull();
    expect(causal(s)).toEqual(['u-0011']);
    delete injected.meta!['sourceToolUseID'];
    expect(userWordsOf(injected)).toContain('ARGUMENTS: docs/plans/2026-03-10-offline-queue.md');
    expect(causal(s)).toEqual(['u-0011']);
  });

  it("reads a Cline task's tool results, notices and workspace snapshots as the harness's, and only wrapped words as the user's", () => {
    const folder = readdirSync(new URL('./__fixtures__/cline-task', import.meta.url)).map((f) => `cline-task/${f}`);
    const s = load(folder);
    expect(s.format).toBe('cline');
    // Tool results as user text: the `[tool for 'arg'] Result:` block, and the output block after a bare header.
    const text = (id: string) => s.items.find((i) => i.id === id)!.text;
    expect(text('m2.0')).toMatch(/^\[read_file for 'src\/api\/reports\.ts'\] Result:/);
    expect(text('m6.1')).toContain('vitest run src/api/reports.test.ts');
    // Every message came after the calls it quotes: no lint.
    expect(causal(s)).toEqual([]);
    // Timed as a rebuilt context would be, each written before the calls: feedback on an attempt and an answer to a
    // question quote the call they reply to, still no lint; the message given on resuming the task repeats the command
    // of an earlier call than the one it follows, which that call was the first to hold: flagged.
    for (const it of s.items) if (it.role === 'user' && it.kind === 'message') it.timestamp = '2000-01-01T00:00:00.000Z';
    expect(causal(s)).toEqual(['m14.1']);
  });
});
