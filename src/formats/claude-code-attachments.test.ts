import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';
import { isHarnessItem, userWordsOf } from '../model/harness-messages';
import type { Item } from '../model/types';

// claude-code-attachments.jsonl is modelled on Claude Code 2.1.177–2.1.219 session files (see __fixtures__/README.md):
// a SessionStart hook's output and the skill listing before the first prompt, an @-mentioned file and a
// UserPromptSubmit hook's context after it, a nested CLAUDE.md after a tool result, a file the person changed, and
// attachments whose text does not reach the model (permissions, a PostToolUse hook's output, an empty task reminder,
// a hook message shown to the person).
const FILE = 'claude-code-attachments.jsonl';
const text = readFileSync(new URL(`./__fixtures__/${FILE}`, import.meta.url), 'utf8');

function load(name: string, body: string) {
  const { sessions, issues } = loadText(name, body);
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  return sessions[0]!;
}

const attached = (items: Item[]) => items.filter((i) => i.meta?.['attachment'] !== undefined);

const SID = 's-a';
const rec = (type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>) =>
  JSON.stringify({ parentUuid, isSidechain: false, sessionId: SID, version: '2.1.217', type, uuid, timestamp: '2026-07-29T05:00:00.000Z', ...extra });
const user = (uuid: string, parent: string | null, content: unknown, extra: Record<string, unknown> = {}) => rec('user', uuid, parent, { message: { role: 'user', content }, ...extra });
const call = (uuid: string, parent: string | null, id: string) =>
  rec('assistant', uuid, parent, { message: { id, model: 'claude-sonnet-5', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1, output_tokens: 2 } } });
const att = (uuid: string, parent: string | null, attachment: Record<string, unknown>) => rec('attachment', uuid, parent, { attachment });

describe('claudeCode: attachments', () => {
  it('reads each model-visible attachment as harness text, labelled, with its line, where it was written', () => {
    const s = load(FILE, text);
    expect(attached(s.items).map((i) => [i.id, i.source.line, i.meta?.['attachment'], i.name])).toEqual([
      ['at-001', 1, 'hook_success', 'hook_success · SessionStart:startup'],
      ['at-002', 2, 'skill_listing', 'skill_listing'],
      ['at-004', 4, 'file', 'file · docs/segments/battery.md'],
      ['at-005', 5, 'hook_additional_context', 'hook_additional_context · UserPromptSubmit'],
      ['at-009', 9, 'nested_memory', 'nested_memory · src/segments/CLAUDE.md'],
      ['at-014', 14, 'edited_text_file', 'edited_text_file · docs/segments/battery.md'],
    ]);
    const nested = s.items.find((i) => i.id === 'at-009')!;
    expect(nested).toMatchObject({ kind: 'message', role: 'user', text: 'Every segment option is documented in docs/segments/<name>.md, in the order of the struct fields.\n' });
    expect(s.items.find((i) => i.id === 'at-004')!.text).toMatch(/^# Battery\n/);
    expect(s.items.find((i) => i.id === 'at-014')!.text).toContain('(macOS, Linux and Windows)');
    // Between the tool result it came with and the call that read it.
    const ids = s.items.map((i) => i.id);
    expect(ids.indexOf('at-009')).toBe(ids.indexOf('u-008') + 1);
    expect(ids.indexOf('a-012.0')).toBe(ids.indexOf('at-009') + 1);
  });

  it('never counts an attachment as the person’s words', () => {
    const s = load(FILE, text);
    for (const item of attached(s.items)) {
      expect(userWordsOf(item)).toBeNull();
      expect(isHarnessItem(item)).toBe(true);
    }
    expect(s.items.filter((i) => userWordsOf(i) !== null).map((i) => i.id)).toEqual(['u-003']);
  });

  it('counts, and leaves out, the attachments whose text does not reach the model or is not in the file', () => {
    const s = load(FILE, text);
    for (const t of ['Docs linter: 1 warning', 'ok']) expect(s.items.some((i) => i.text === t)).toBe(false);
    // command_permissions, a PostToolUse hook_success, an empty task_reminder, a hook_system_message.
    expect(s.skipped['attachment']).toBe(4);
  });

  it('puts each attachment in the context of the calls after it, and of none before', () => {
    const s = load(FILE, text);
    const calls = sessionContexts(s).calls.map((c) => new Set(c.entries.map((e) => e.item.id)));
    expect(calls).toHaveLength(3);
    expect(['at-001', 'at-002', 'at-004', 'at-005'].every((id) => calls[0]!.has(id))).toBe(true);
    expect(calls[0]!.has('at-009')).toBe(false);
    expect(calls[1]!.has('at-009')).toBe(true);
    expect(calls[1]!.has('at-014')).toBe(false);
    expect(calls[2]!.has('at-014')).toBe(true);
  });

  it('does not read twice a text a user record of the same turn carries', () => {
    const hook = 'Docs style: sentence case headings.';
    const body = [
      user('u1', null, 'fix the docs'),
      att('x2', 'u1', { type: 'hook_additional_context', content: [hook], hookName: 'UserPromptSubmit', hookEvent: 'UserPromptSubmit' }),
      user('u3', 'x2', `<user-prompt-submit-hook>${hook}</user-prompt-submit-hook>`, { isMeta: true }),
      call('a4', 'u3', 'm1'),
    ].join('\n');
    const s = load('doubled.jsonl', body);
    expect(attached(s.items)).toEqual([]);
    expect(s.items.filter((i) => i.text.includes(hook))).toHaveLength(1);
  });

  it('reads a mentioned folder’s listing, and not a mention of a file the context already holds', () => {
    const body = [
      user('u1', null, '@notes/ and @notes/index.md: which notes are new?'),
      att('x2', 'u1', { type: 'directory', path: '/w/notes', content: 'index.md\n2026-05-28-day.md', displayPath: 'notes' }),
      att('x3', 'x2', { type: 'already_read_file', filename: '/w/notes/index.md', displayPath: 'notes/index.md', content: { type: 'text', file: { filePath: '/w/notes/index.md', content: '# Notes' } } }),
      call('a4', 'x3', 'm1'),
    ].join('\n');
    const s = load('dir.jsonl', body);
    expect(attached(s.items).map((i) => [i.id, i.name, i.text])).toEqual([['x2', 'directory · notes', 'index.md\n2026-05-28-day.md']]);
    expect(s.skipped['attachment']).toBe(1);
  });

  it('reads a non-text file as a placeholder of its kind, and an empty attachment not at all', () => {
    const body = [
      user('u1', null, '@shot.png what is wrong here?'),
      att('x2', 'u1', { type: 'file', filename: '/w/shot.png', content: { type: 'image', file: { base64: 'iVBORw0KGgo=', type: 'image/png' } }, displayPath: 'shot.png' }),
      att('x3', 'x2', { type: 'hook_additional_context', content: [], hookName: 'UserPromptSubmit', hookEvent: 'UserPromptSubmit' }),
      call('a4', 'x3', 'm1'),
    ].join('\n');
    const s = load('image.jsonl', body);
    expect(attached(s.items).map((i) => [i.id, i.text])).toEqual([['x2', '[image]']]);
  });
});

describe('claudeCode: what is attached beside a summary', () => {
  it('reads a plan and a too-large file’s name as Claude Code sends them, each with the path its Read or note names', () => {
    const plan = att('at-2', 'u-1', { type: 'plan_file_reference', planFilePath: '/Users/dev/.claude/plans/velvet-hearth.md', planContent: '# Plan\n\n1. Split the package.\n' });
    const big = att('at-3', 'at-2', { type: 'compact_file_reference', filename: '/Users/dev/app/src/hint-system.js', displayPath: 'src/hint-system.js' });
    const s = load('beside.jsonl', [user('u-1', null, 'go on'), plan, big, call('a-4', 'at-3', 'm1')].join('\n'));
    const [p, n] = attached(s.items);
    expect(p).toMatchObject({ text: '# Plan\n\n1. Split the package.\n', name: 'plan_file_reference · /Users/dev/.claude/plans/velvet-hearth.md' });
    expect(p!.meta?.['path']).toBe('/Users/dev/.claude/plans/velvet-hearth.md');
    // Claude Code's note (its renderer, 2.1.18 on): the name is in the context, the contents are not.
    expect(n!.text).toBe('Note: /Users/dev/app/src/hint-system.js was read before the last conversation was summarized, but the contents are too large to include. Use Read tool if you need to access it.');
    expect(n).toMatchObject({ name: 'compact_file_reference · src/hint-system.js', meta: { isMeta: true, attachment: 'compact_file_reference', path: '/Users/dev/app/src/hint-system.js' } });
  });
});

describe('claudeCode: attachments, cross-checked', () => {
  it('agrees with a plain reading of the fixture: each visible attachment’s text, once, before the next call', () => {
    // The plain reading: where each type keeps the text Claude Code sends, and which hook events' output is context.
    const textOf: Record<string, (a: Record<string, any>) => string | null> = {
      file: (a) => a.content.file.content,
      edited_text_file: (a) => a.snippet,
      nested_memory: (a) => a.content.content,
      hook_additional_context: (a) => a.content.join('\n'),
      hook_success: (a) => (['SessionStart', 'UserPromptSubmit'].includes(a.hookEvent) ? a.content : null),
      skill_listing: (a) => a.content,
    };
    const rows = text.trim().split('\n').map((l, k) => ({ line: k + 1, v: JSON.parse(l) as Record<string, any> }));
    const nextCall = (from: number) => rows.find((r) => r.line > from && r.v.type === 'assistant')!.line;
    const expected = rows
      .filter((r) => r.v.type === 'attachment' && textOf[r.v.attachment.type]?.(r.v.attachment))
      .map((r) => ({ line: r.line, text: textOf[r.v.attachment.type]!(r.v.attachment), before: nextCall(r.line) }));
    const s = load(FILE, text);
    const got = attached(s.items).map((i) => ({ line: i.source.line, text: i.text, before: s.items.slice(s.items.indexOf(i) + 1).find((x) => x.role === 'assistant')!.source.line }));
    expect(got).toEqual(expected);
    expect(expected).toHaveLength(6);
  });
});
