import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadFiles, loadText } from '../load/loader';

// The fixtures imitate ~/.claude/projects/<project>/<session>.jsonl as Claude Code 2.1 writes it (records
// split per content block, progress hooks in the parentUuid chain, compact/microcompact boundaries), and the
// agent-acompact-*.jsonl sidechain in which the compaction summary was written.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const SESSION_ID = '7f3c2a10-5d1e-4c7a-9b21-0c0ffee51200';

function loadSession() {
  const { sessions, issues } = loadText('claude-code-session.jsonl', fixture('claude-code-session.jsonl'));
  expect(sessions).toHaveLength(1);
  return { s: sessions[0]!, issues };
}

/** Builds a JSONL record with the fields every Claude Code conversation record has. */
function rec(type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>): string {
  return JSON.stringify({ parentUuid, isSidechain: false, sessionId: 's-1', type, uuid, timestamp: '2026-03-02T02:00:00.000Z', ...extra });
}
const user = (uuid: string, parent: string | null, content: unknown, extra = {}) => rec('user', uuid, parent, { message: { role: 'user', content }, ...extra });
const assistant = (uuid: string, parent: string | null, id: string, content: unknown[]) =>
  rec('assistant', uuid, parent, { message: { id, model: 'claude-opus-4-6', role: 'assistant', content, usage: { input_tokens: 1, output_tokens: 2 } } });

describe('claudeCode', () => {
  it('turns the active branch into items in file order, one per content block', () => {
    const { s } = loadSession();
    expect(s.format).toBe('claude-code');
    expect(s.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['u-001', 'user', 'message'],
      ['a-002', 'assistant', 'thinking'],
      ['a-003', 'assistant', 'message'],
      ['a-004', 'assistant', 'tool_call'],
      ['u-005', 'tool', 'tool_result'],
      ['a-006.0', 'assistant', 'message'],
      ['a-006.1', 'assistant', 'tool_call'],
      ['u-007', 'tool', 'tool_result'],
      ['u-010', 'user', 'message'],
      ['a-011', 'assistant', 'tool_call'],
      ['u-012', 'tool', 'tool_result'],
      ['u-013', 'user', 'message'],
      ['a-014', 'assistant', 'message'],
      ['s-015', 'system', 'compaction'],
      ['u-018', 'user', 'message'],
      ['a-019', 'assistant', 'message'],
      ['s-020', 'system', 'compaction'],
      ['u-021', 'user', 'summary'],
      ['u-022', 'user', 'message'],
      ['a-023', 'assistant', 'message'],
    ]);
    expect(s.items[0]).toMatchObject({ text: 'The nightly job fails. Check the database config.', source: { file: 'claude-code-session.jsonl', line: 3 }, timestamp: '2026-03-02T02:01:00.000Z' });
    expect(s.items[1]!.text).toBe('The config lives in config/db.yaml; read it before touching anything.');
  });

  it('pairs tool_use with tool_result, keeps the input as JSON and flags errors and images', () => {
    const { s } = loadSession();
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('a-004')).toMatchObject({ name: 'Read', callId: 'toolu_01', pairId: 'u-005', text: '{"file_path":"config/db.yaml"}' });
    expect(byId.get('u-005')).toMatchObject({ name: 'Read', callId: 'toolu_01', pairId: 'a-004', text: 'host: db-prod-1\nport: 5432\npool_size: 5\nticket: FRE-512' });
    expect(byId.get('u-005')!.isError).toBeUndefined();
    expect(byId.get('u-007')).toMatchObject({ callId: 'toolu_02', pairId: 'a-006.1', isError: true, text: 'db-prod-1:5432 - no response\n[image]' });
  });

  it('marks a cleared tool result as an omission and keeps hook context as an isMeta user message', () => {
    const { s } = loadSession();
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('u-012')).toMatchObject({ text: '[Old tool result content cleared]', omission: { target: 'tool_result', refs: [], marker: '[Old tool result content cleared]' } });
    expect(byId.get('u-013')).toMatchObject({ role: 'user', kind: 'message', meta: { isMeta: true } });
    expect(byId.get('u-013')!.text).toContain('PostToolUse:Grep hook additional context');
  });

  it('builds one model response per message.id and counts its usage once', () => {
    const { s } = loadSession();
    expect(s.responses.map((r) => [r.id, r.index, r.itemIds])).toEqual([
      ['msg_01', 0, ['a-002', 'a-003', 'a-004']],
      ['msg_02', 1, ['a-006.0', 'a-006.1']],
      ['msg_04', 2, ['a-011']],
      ['msg_05', 3, ['a-014']],
      ['msg_07', 4, ['a-019']],
      ['msg_08', 5, ['a-023']],
    ]);
    // The three lines of msg_01 repeat the usage; the last one has the final output count.
    expect(s.responses[0]).toMatchObject({ usage: { input: 3, output: 64, cacheRead: 4000, cacheWrite: 1200 }, model: 'claude-opus-4-6', source: { line: 4 } });
    expect(s.items.filter((i) => i.responseId === 'msg_01').map((i) => i.id)).toEqual(['a-002', 'a-003', 'a-004']);
    expect(s.items.find((i) => i.id === 'u-005')!.responseId).toBeUndefined();
  });

  it('records the compact boundary with its summary, preserved segment and replaced items', () => {
    const { s } = loadSession();
    expect(s.compactions).toHaveLength(2);
    expect(s.compactions[1]).toMatchObject({
      id: 's-020',
      index: 1,
      kind: 'compact',
      trigger: 'manual',
      tokensBefore: 48210,
      tokensAfter: null,
      atItemId: 's-020',
      summaryId: 'u-021',
      keptIds: ['u-018', 'a-019'],
      replacedIds: ['u-001', 'a-002', 'a-003', 'a-004', 'u-005', 'a-006.0', 'a-006.1', 'u-007', 'u-010', 'a-011', 'u-012', 'u-013', 'a-014'],
      source: { file: 'claude-code-session.jsonl', line: 25 },
    });
    const boundary = s.items.find((i) => i.id === 's-020')!;
    expect(boundary.text).toBe('Conversation compacted (manual, 48,210 tokens)');
    const summary = s.items.find((i) => i.id === 'u-021')!;
    expect(summary.meta).toMatchObject({ isCompactSummary: true });
    expect(summary.text).toContain('## Conversation Summary');
    expect(summary.text).toContain('db-prod-1:5432');
    expect(summary.text).toContain('FRE-512');
  });

  it('records a microcompact with the tool results it cleared', () => {
    const { s } = loadSession();
    expect(s.compactions[0]).toEqual({
      id: 's-015',
      index: 0,
      kind: 'microcompact',
      trigger: 'auto',
      tokensBefore: 42000,
      tokensAfter: 33000,
      replacedIds: ['u-005', 'u-012'],
      keptIds: [],
      summaryId: null,
      atItemId: 's-015',
      timestamp: '2026-03-02T02:16:00.000Z',
      source: { file: 'claude-code-session.jsonl', line: 18 },
    });
    expect(s.items.find((i) => i.id === 's-015')!.text).toBe('Tool results cleared (microcompact: 2 tool results, 9,000 tokens saved)');
  });

  it('counts records without conversation and the abandoned branch in skipped, not as errors', () => {
    const { s } = loadSession();
    expect(s.skipped).toEqual({
      'file-history-snapshot': 1,
      progress: 2,
      'abandoned-branch': 2,
      'system:turn_duration': 1,
      'custom-widget': 1,
      summary: 1,
    });
    // The edited prompt (u-008) and the reply to it (a-009) are gone; the edit (u-010) is kept.
    expect(s.items.some((i) => i.id === 'u-008' || i.id === 'a-009')).toBe(false);
  });

  it('names the line and field of a broken line and a bad field, and keeps the rest', () => {
    const { s, issues } = loadSession();
    expect(issues).toEqual([
      { file: 'claude-code-session.jsonl', line: 21, field: null, message: expect.stringContaining('invalid JSON line skipped'), severity: 'error' },
      { file: 'claude-code-session.jsonl', line: 22, field: 'message.content', message: expect.stringContaining('got number'), severity: 'error' },
    ]);
    expect(s.issues).toEqual(issues);
    expect(s.items.some((i) => i.id.startsWith('a-017'))).toBe(false);
  });

  it('takes the session id, model, title and meta from the records', () => {
    const { s } = loadSession();
    expect(s.id).toBe(SESSION_ID);
    expect(s.model).toBe('claude-opus-4-6');
    expect(s.contextWindow).toBeNull();
    expect(s.title).toBe('Nightly job: DB pool exhaustion (FRE-512)');
    expect(s.meta).toEqual({ cwd: '/home/dev/payments', gitBranch: 'fix/nightly-pool', version: '2.1.39' });
  });

  it('recognizes a sidechain file by its content and joins it to its session', () => {
    const side = loadText('whatever-name.jsonl', fixture('claude-code-session.agent-acompact.jsonl'));
    expect(side.issues).toEqual([]);
    expect(side.sessions[0]).toMatchObject({ id: 'agent-acompact-7f3c2a', format: 'claude-code', meta: { sidechainOf: SESSION_ID, agentId: 'acompact-7f3c2a' } });
    // The first record's parent lives in the main file: it is a root, not an abandoned branch.
    expect(side.sessions[0]!.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['m-101', 'user', 'message'],
      ['m-102', 'user', 'message'],
      ['m-103', 'assistant', 'message'],
    ]);

    const bytes = (name: string) => new TextEncoder().encode(fixture(name));
    const { sessions, issues } = loadFiles([
      { name: 'claude-code-session.jsonl', bytes: bytes('claude-code-session.jsonl') },
      { name: 'agent-acompact-7f3c2a.jsonl', bytes: bytes('claude-code-session.agent-acompact.jsonl') },
    ]);
    expect(issues).toHaveLength(2);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.files).toEqual(['claude-code-session.jsonl', 'agent-acompact-7f3c2a.jsonl']);
    const [sidechain] = sessions[0]!.sidechains;
    expect(sessions[0]!.sidechains).toHaveLength(1);
    expect(sidechain).toMatchObject({ id: 'acompact-7f3c2a', purpose: 'compaction', file: 'agent-acompact-7f3c2a.jsonl', compactionId: 's-020' });
    expect(sidechain!.items.map((i) => i.id)).toEqual(['m-101', 'm-102', 'm-103']);
  });

  it('stitches parallel tool calls and their results back into the active branch', () => {
    // Claude Code 2.1 writes parallel tool_use blocks as sibling records sharing message.id, each result
    // hanging off its own call, with progress records threaded between them.
    const text = [
      user('u1', null, 'Read both files.'),
      assistant('a1', 'u1', 'msg_A', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.ts' } }]),
      rec('progress', 'p1', 'a1', { data: { type: 'hook_progress' } }),
      assistant('a2', 'p1', 'msg_A', [{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'b.ts' } }]),
      user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'A' }]),
      user('r2', 'a2', [{ type: 'tool_result', tool_use_id: 't2', content: 'B' }]),
      assistant('a3', 'r2', 'msg_B', [{ type: 'text', text: 'Both read.' }]),
    ].join('\n');
    const { sessions, issues } = loadText('parallel.jsonl', text);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.pairId ?? null])).toEqual([
      ['u1', 'message', null],
      ['a1', 'tool_call', 'r1'],
      ['a2', 'tool_call', 'r2'],
      ['r1', 'tool_result', 'a1'],
      ['r2', 'tool_result', 'a2'],
      ['a3', 'message', null],
    ]);
    expect(s.skipped).toEqual({ progress: 1 });
    expect(s.responses.map((r) => r.itemIds)).toEqual([['a1', 'a2'], ['a3']]);
  });

  it('keeps the records before a compact boundary that starts a new root, and replaces them all', () => {
    // As in real sessions: the boundary has parentUuid null and a logicalParentUuid; no preserved segment.
    const text = [
      user('u1', null, 'Fix the job.'),
      assistant('a1', 'u1', 'msg_A', [{ type: 'text', text: 'Looking.' }]),
      rec('system', 'b1', null, { logicalParentUuid: 'a1', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 170251 } }),
      user('s1', 'b1', 'This session is being continued from a previous conversation that ran out of context.', { isCompactSummary: true }),
      user('u2', 's1', 'Go on.'),
    ].join('\n');
    const s = loadText('compacted.jsonl', text).sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind])).toEqual([
      ['u1', 'message'],
      ['a1', 'message'],
      ['b1', 'compaction'],
      ['s1', 'summary'],
      ['u2', 'message'],
    ]);
    expect(s.skipped).toEqual({});
    expect(s.compactions).toEqual([
      expect.objectContaining({ kind: 'compact', trigger: 'auto', tokensBefore: 170251, tokensAfter: null, replacedIds: ['u1', 'a1'], keptIds: [], summaryId: 's1', atItemId: 'b1' }),
    ]);
    expect(s.items[2]!.text).toBe('Conversation compacted (auto, 170,251 tokens)');
  });

  it('claims its own files only', () => {
    expect(loadText('x.jsonl', fixture('claude-code-session.jsonl')).sessions[0]!.format).toBe('claude-code');
    expect(loadText('x.jsonl', fixture('codex-rollout.jsonl')).sessions[0]!.format).not.toBe('claude-code');
    expect(loadText('x.json', fixture('openai-chat-course.json')).sessions[0]!.format).not.toBe('claude-code');
  });
});

describe('claudeCode through a proxy that passes no usage on', () => {
  // Modelled on LeoDChen/claude-config (a labelled session): Claude Code sent to DeepSeek through an
  // Anthropic-compatible endpoint wrote {"input_tokens":0,"output_tokens":0} on the text part of many replies.
  const reply = (uuid: string, parent: string, id: string, model: string, usage: Record<string, number>) =>
    rec('assistant', uuid, parent, { message: { id, model, role: 'assistant', content: [{ type: 'text', text: `reply ${id}` }], usage } });
  const text = [
    user('u1', null, 'read the template'),
    reply('a1', 'u1', 'm1', 'deepseek-v4-flash', { input_tokens: 148_012, output_tokens: 300 }),
    user('u2', 'a1', 'now fill it in'),
    reply('a2', 'u2', 'm2', 'deepseek-v4-flash', { input_tokens: 0, output_tokens: 0 }),
  ].join('\n');
  it('reads a usage of zeros as no usage, so nothing is measured from it', () => {
    const { sessions } = loadText('proxy.jsonl', text);
    const s = sessions[0]!;
    expect(s.responses.map((r) => r.usage === null)).toEqual([false, true]);
    // Read as a report, the second call's "0 prompt tokens" was a drop of 148,012 the file does not show.
    expect(analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) }).lints.filter((l) => l.rule === 'unrecorded-drop')).toEqual([]);
  });
});
