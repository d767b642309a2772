// Who wrote a Claude Code user-turn record, where the record says so (`origin.kind`, see model/harness-messages.ts).
// claude-code-origin.jsonl is modelled on public Claude Code sessions (sources in __fixtures__/README.md): a typed
// prompt, a message queued while the agent worked and one sent through the SDK (origin `human`); a background agent's
// report delivered mid-turn (a `queued_command` of `commandMode` `task-notification`, no origin) and dequeued as a turn
// (origin `task-notification`); a slash command and its `isMeta` expansion, both of origin `human`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { lintSession } from '../lints/lint-session';
import { loadText } from '../load/loader';
import { teammateWordsOf, userWordsOf } from '../model/harness-messages';
import type { Item, Session } from '../model/types';

const FILE = 'claude-code-origin.jsonl';
const text = readFileSync(new URL(`./__fixtures__/${FILE}`, import.meta.url), 'utf8');

function load(): Session {
  const { sessions, issues } = loadText(FILE, text);
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  return sessions[0]!;
}

type Writer = 'person' | 'agent' | 'harness';
const writerOf = (it: Item): Writer => (userWordsOf(it) !== null ? 'person' : teammateWordsOf(it).length > 0 ? 'agent' : 'harness');
const userMessages = (s: Session) => s.items.filter((i) => i.role === 'user' && i.kind === 'message');

function causal(s: Session): string[] {
  const ctx = sessionContexts(s);
  return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4) })
    .filter((l) => l.rule === 'causal-order')
    .map((l) => l.itemId);
}

describe('claudeCode: the origin of a user-turn record', () => {
  it('keeps the origin a record or a queued message names, and the one a task-notification commandMode stands for', () => {
    const s = load();
    const origin = (id: string) => s.items.find((i) => i.id === id)!.meta?.['origin'];
    expect(['u-001', 'att-005', 'u-011', 'u-012', 'u-014'].map(origin)).toEqual(['human', 'human', 'human', 'human', 'human']);
    expect(['att-007', 'u-009'].map(origin)).toEqual(['task-notification', 'task-notification']);
    // Records that open no turn carry none.
    expect(s.items.filter((i) => i.kind !== 'message').every((i) => i.meta?.['origin'] === undefined)).toBe(true);
  });

  it("reads the person's prompts, typed, queued or sent through the SDK, as theirs, and the rest as the harness's", () => {
    const s = load();
    expect(userMessages(s).map((i) => [i.id, writerOf(i)])).toEqual([
      ['u-001', 'person'],
      ['att-005', 'person'],
      ['att-007', 'harness'],
      ['u-009', 'harness'],
      ['u-011', 'harness'],
      ['u-012', 'harness'],
      ['u-014', 'person'],
    ]);
  });

  it('takes a record whose origin is not the person for no one’s words, whatever its text opens with', () => {
    const s = load();
    const prompt = s.items.find((i) => i.id === 'u-014')!;
    // The person's prompt names the page the agent read before it, in the order it happened: no lint.
    expect(causal(s)).toEqual([]);
    // Timed as a rebuilt context would be (written before the read that quotes it): the lint flags it.
    prompt.timestamp = '2000-01-01T00:00:00.000Z';
    expect(causal(s)).toEqual(['u-014']);
    // The same text under an origin other than the person's (a scheduled prompt is a `task-notification` to Claude Code).
    prompt.meta = { ...prompt.meta, origin: 'task-notification' };
    expect(writerOf(prompt)).toBe('harness');
    expect(causal(s)).toEqual([]);
    // Without an origin the text decides, as before origins.
    delete prompt.meta['origin'];
    expect(writerOf(prompt)).toBe('person');
    expect(causal(s)).toEqual(['u-014']);
  });
});

describe('claudeCode: the origin of a user-turn record, cross-checked', () => {
  it('agrees with a plain reading of the fixture: the person wrote a prompt with origin human (or none), no isMeta flag and no tag opening it', () => {
    // The obvious reading, line by line: a user record with text, or a queued_command attachment (its origin, else a
    // task-notification commandMode's); the person's when that origin is `human`, the record is not flagged isMeta and
    // its text is no markup the harness writes (a tag at its start).
    const expected: [number, Writer][] = [];
    text
      .trim()
      .split('\n')
      .forEach((l, k) => {
        const v = JSON.parse(l) as Record<string, any>;
        let body: string, origin: string | undefined, meta: boolean;
        if (v.type === 'attachment' && v.attachment.type === 'queued_command') {
          body = v.attachment.prompt;
          origin = v.attachment.origin?.kind ?? (v.attachment.commandMode === 'task-notification' ? 'task-notification' : undefined);
          meta = v.attachment.isMeta === true;
        } else if (v.type === 'user' && !JSON.stringify(v.message.content).includes('"tool_result"')) {
          body = typeof v.message.content === 'string' ? v.message.content : v.message.content.map((b: { text: string }) => b.text).join('\n');
          origin = v.origin?.kind;
          meta = v.isMeta === true;
        } else return;
        expected.push([k + 1, (origin ?? 'human') === 'human' && !meta && !/^\s*</.test(body) ? 'person' : 'harness']);
      });
    const got = userMessages(load()).map((i): [number, Writer] => [i.source.line!, writerOf(i)]);
    expect(got).toEqual(expected);
    expect(expected.filter(([, w]) => w === 'person')).toHaveLength(3);
  });
});
