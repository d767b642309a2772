import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { userWordsOf } from '../model/harness-messages';
import type { Item } from '../model/types';

// claude-code-queued.jsonl is modelled on Claude Code 2.1.63 and 2.1.101 session files (see __fixtures__/README.md):
// a message typed mid-turn with `enqueue` + `remove` and no other record (2.1.63), one with a `queued_command`
// attachment after its `remove` (2.1.101), a task notification dequeued as a prompt, a `popAll` the person edited
// and sent, and a clean-up `remove` of a background-task record before a `dequeue`.
const FILE = 'claude-code-queued.jsonl';
const text = readFileSync(new URL(`./__fixtures__/${FILE}`, import.meta.url), 'utf8');

function load(name: string, body: string) {
  const { sessions, issues } = loadText(name, body);
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  return sessions[0]!;
}

const SID = 's-q';
const rec = (type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>) =>
  JSON.stringify({ parentUuid, isSidechain: false, sessionId: SID, version: '2.1.63', type, uuid, timestamp: '2026-03-01T02:30:00.000Z', ...extra });
const user = (uuid: string, parent: string | null, content: unknown) => rec('user', uuid, parent, { message: { role: 'user', content } });
const call = (uuid: string, parent: string | null, id: string, content: unknown[]) =>
  rec('assistant', uuid, parent, { message: { id, model: 'claude-opus-4-6', role: 'assistant', content, usage: { input_tokens: 1, output_tokens: 2 } } });
const op = (operation: string, content?: string) => JSON.stringify({ type: 'queue-operation', operation, timestamp: '2026-03-01T02:30:01.000Z', sessionId: SID, ...(content === undefined ? {} : { content }) });
const useTool = (id: string) => [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }];
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];
const queued = (items: Item[]) => items.filter((i) => i.meta?.['queued'] === true);

describe('claudeCode: queued messages', () => {
  it('puts a message removed from the queue mid-turn before the next call, as the person’s words, with the line of its text', () => {
    const s = load(FILE, text);
    const ids = s.items.map((i) => i.id);
    const item = s.items.find((i) => i.id === 'queued-L3')!;
    expect(item).toMatchObject({ role: 'user', kind: 'message', text: 'there have been some updates to the tts library since the last release', source: { file: FILE, line: 3 }, timestamp: '2026-03-01T02:30:06.000Z' });
    // After the tool result it came with, before the call that read it.
    expect(ids.indexOf('queued-L3')).toBe(ids.indexOf('u-003') + 1);
    expect(ids.indexOf('a-004.0')).toBe(ids.indexOf('queued-L3') + 1);
    expect(userWordsOf(item)).toBe(item.text);
  });

  it('reads a queued_command attachment once, even though the queue also records its remove', () => {
    const s = load(FILE, text);
    const q = queued(s.items);
    expect(q.map((i) => [i.id, i.source.line])).toEqual([
      ['queued-L3', 3],
      ['att-012', 20],
    ]);
    expect(s.items.filter((i) => i.text === 'Continue, and commit when the tests are green.')).toHaveLength(1);
    const ids = s.items.map((i) => i.id);
    expect(ids.indexOf('att-012')).toBe(ids.indexOf('u-011') + 1);
  });

  it('adds nothing for a dequeued prompt, a popAll or a clean-up remove: the user records that follow say what was sent', () => {
    const s = load(FILE, text);
    expect(s.items.filter((i) => i.text.startsWith('<task-notification>'))).toHaveLength(1);
    expect(s.items.filter((i) => i.text === 'now stop the dev server')).toHaveLength(1);
    expect(s.items.some((i) => i.text === 'use the github mcp')).toBe(false);
    expect(s.items.some((i) => i.text.includes('"task_id"'))).toBe(false);
    expect(s.skipped['queue-operation']).toBe(12);
  });

  it('keeps a queued task notification harness text, as the adapter treats task notifications', () => {
    const tn = '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>';
    const body = [user('u1', null, 'run the tests in the background'), call('a1', 'u1', 'm1', useTool('t1')), op('enqueue', tn), user('u2', 'a1', result('t1')), op('remove'), call('a2', 'u2', 'm2', [{ type: 'text', text: 'done' }])].join('\n');
    const s = load('tn.jsonl', body);
    const [item] = queued(s.items);
    expect(item).toMatchObject({ text: tn, source: { line: 3 } });
    expect(userWordsOf(item!)).toBeNull();
  });

  // Modelled on aicuai/p-aicujp (an Entire checkpoint of Claude Code 2.1.x, bench/flag-judgements.json s82): a message
  // typed while the agent worked, taken just before an automatic compaction; the summary quotes it and the first call
  // after it answers it.
  it('puts a text taken just before a compaction before its boundary: the summarizer read it', () => {
    const body = [
      user('u1', null, 'fix the share block'),
      call('a1', 'u1', 'm1', useTool('t1')),
      op('enqueue', 'login is broken: PKCE code verifier not found'),
      user('u2', 'a1', result('t1')),
      op('remove'),
      rec('system', 'b1', 'u2', { subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 160000 } }),
      rec('user', 's1', 'b1', { isCompactSummary: true, message: { role: 'user', content: 'This session is being continued from a previous conversation. The user reported: "login is broken"' } }),
      call('a2', 's1', 'm2', [{ type: 'text', text: 'Let me look at the PKCE error.' }]),
    ].join('\n');
    const s = load('compact.jsonl', body);
    const ids = s.items.map((i) => i.id);
    const [item] = queued(s.items);
    expect(item).toMatchObject({ text: 'login is broken: PKCE code verifier not found', source: { line: 3 } });
    expect(ids.indexOf(item!.id)).toBeLessThan(ids.findIndex((id) => s.items.find((i) => i.id === id)!.kind === 'summary'));
  });

  it('takes the text a newer remove names, and the oldest when it names none', () => {
    const body = [
      user('u1', null, 'go'),
      call('a1', 'u1', 'm1', useTool('t1')),
      op('enqueue', 'first'),
      op('enqueue', 'second'),
      user('u2', 'a1', result('t1')),
      op('remove', 'second'),
      call('a2', 'u2', 'm2', useTool('t2')),
      user('u3', 'a2', result('t2')),
      op('remove'),
      call('a3', 'u3', 'm3', [{ type: 'text', text: 'ok' }]),
    ].join('\n');
    const s = load('order.jsonl', body);
    expect(queued(s.items).map((i) => [i.text, s.items[s.items.indexOf(i) + 1]!.id])).toEqual([
      ['second', 'a2'],
      ['first', 'a3'],
    ]);
  });

  // Modelled on a 2.1.49 session (FSM1/cipher-box, half A of the judged flags): a message typed behind a background
  // task's record and its notification, one `remove`, and the agent's next words answer the message.
  it('takes the person\'s oldest text before the background-task records and notifications queued ahead of it', () => {
    const tn = '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>';
    const body = [
      user('u1', null, 'go'),
      call('a1', 'u1', 'm1', useTool('t1')),
      op('enqueue', '{"task_id":"b1","tool_use_id":"t0","description":"Run tests","task_type":"local_bash"}'),
      op('enqueue', tn),
      op('enqueue', 'commit each section on its own'),
      user('u2', 'a1', result('t1')),
      op('remove'),
      call('a2', 'u2', 'm2', [{ type: 'text', text: 'Sure, one commit per section.' }]),
    ].join('\n');
    const s = load('behind.jsonl', body);
    expect(queued(s.items).map((i) => [i.text, s.items[s.items.indexOf(i) + 1]!.id])).toEqual([['commit each section on its own', 'a2']]);
  });

  it('sends nothing when the turn ends before another call (the remove was a clean-up)', () => {
    const body = [user('u1', null, 'go'), call('a1', 'u1', 'm1', [{ type: 'text', text: 'done' }]), op('enqueue', 'typed late'), op('remove'), user('u2', 'a1', 'something else'), call('a2', 'u2', 'm2', [{ type: 'text', text: 'ok' }])].join('\n');
    expect(queued(load('late.jsonl', body).items)).toEqual([]);
  });

  it('does not count a synthetic error note as the call that read the message', () => {
    const synthetic = rec('assistant', 'x1', 'u2', { message: { id: 'syn', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'API Error' }] }, isApiErrorMessage: true });
    const body = [user('u1', null, 'go'), call('a1', 'u1', 'm1', useTool('t1')), op('enqueue', 'and check the logs'), user('u2', 'a1', result('t1')), op('remove'), synthetic, call('a2', 'x1', 'm2', [{ type: 'text', text: 'ok' }])].join('\n');
    const s = load('syn.jsonl', body);
    const [item] = queued(s.items);
    expect(s.items[s.items.indexOf(item!) + 1]!.id).toBe('a2');
  });
});

describe('claudeCode: queued messages, cross-checked', () => {
  it('agrees with a plain reading of the fixture: each text removed or attached mid-turn, once, before the next call', () => {
    // The obvious reading, line by line: a remove takes the oldest text the person typed still queued (else the oldest); an attachment carries its
    // text; the text reaches the first assistant line after it, unless a prompt line comes first or it is a JSON record.
    const rows = text.trim().split('\n').map((l, k) => ({ line: k + 1, v: JSON.parse(l) as Record<string, any> }));
    const queue: { text: string; line: number }[] = [];
    const expected: { text: string; line: number; before: number }[] = [];
    const nextLine = (from: number, what: (v: Record<string, any>) => boolean) => rows.find((r) => r.line > from && what(r.v))?.line ?? Infinity;
    const isCall = (v: Record<string, any>) => v.type === 'assistant';
    const isPrompt = (v: Record<string, any>) => v.type === 'user' && !JSON.stringify(v.message.content).includes('tool_result');
    for (const { line, v } of rows) {
      if (v.type === 'queue-operation' && v.operation === 'enqueue') queue.push({ text: v.content, line });
      else if (v.type === 'queue-operation' && v.operation === 'popAll') queue.length = 0;
      else if (v.type === 'queue-operation') {
        const typed = queue.findIndex((q) => !q.text.startsWith('{') && !q.text.startsWith('<task-notification>'));
        const [taken] = queue.splice(typed >= 0 ? typed : 0, 1) as [{ text: string; line: number }];
        const before = nextLine(line, isCall);
        const attached = rows.some((r) => r.line < before && r.line > taken.line && r.v.type === 'attachment' && r.v.attachment.prompt === taken.text);
        if (v.operation === 'remove' && !taken.text.startsWith('{') && before < nextLine(line, isPrompt) && !attached) expected.push({ ...taken, before });
      } else if (v.type === 'attachment' && v.attachment.type === 'queued_command') expected.push({ text: v.attachment.prompt, line, before: nextLine(line, isCall) });
    }
    const s = load(FILE, text);
    const got = queued(s.items).map((i) => ({ text: i.text, line: i.source.line, before: s.items.slice(s.items.indexOf(i) + 1).find((x) => x.role === 'assistant')!.source.line }));
    expect(got).toEqual(expected);
    expect(expected).toHaveLength(2);
  });
});
