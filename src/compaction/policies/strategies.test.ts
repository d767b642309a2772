// The harness strategies on small hand-made contexts: what each keeps, drops and re-attaches.
import { describe, expect, it } from 'vitest';
import type { CompactionEvent } from '../../model/types';
import { asst, countWords, item, sys, toolCall, toolResult, user } from '../../cache/test-builders';
import { rerunSession } from '../rerun';
import { fixedSummarizer, transcript } from '../test-support';
import { CLAUDE_CODE_DEFAULTS, CLAUDE_CODE_SUMMARY_PREFIX, claudeCodeCompact } from './claude-code';
import { CODEX_DEFAULTS, CODEX_SUMMARY_PREFIX, codexCompact } from './codex';
import { INSPECT_TRIM_DEFAULTS, inspectTrim } from './inspect';
import { OPENHANDS_DEFAULTS, openhandsCondense } from './openhands';
import { SERVER_COMPACT_DEFAULTS, serverCompact } from './anthropic-server';

const deps = (text = 'SUMMARY of the work') => ({ summarizer: fixedSummarizer(text), count: countWords, idPrefix: 'x' });

/** A coding session: the system prompt, a task, three file reads (one file twice), a reply. */
function coding() {
  return [
    sys('s', 'You are a coding agent.'),
    user('u1', 'Fix the pool size in config/db.yaml'),
    toolCall('c1', 'Read', '{"file_path":"/repo/config/db.yaml"}', 'r1'),
    toolResult('t1', 'Read', 'pool_size: 5 old', 'r1'),
    toolCall('c2', 'Read', '{"file_path":"/repo/app.py"}', 'r2'),
    toolResult('t2', 'Read', 'import db\n'.repeat(40), 'r2'),
    toolCall('c3', 'Read', '{"file_path":"/repo/config/db.yaml"}', 'r3'),
    toolResult('t3', 'Read', 'pool_size: 20 new', 'r3'),
    asst('a1', 'Raised the pool size to 20.'),
    user('u2', 'Now deploy it'),
  ];
}

describe('claudeCodeCompact', () => {
  it('replaces everything after the system prompt with the summary as a user message, then re-attaches the latest read of each file', async () => {
    const out = await claudeCodeCompact(coding(), CLAUDE_CODE_DEFAULTS, deps());
    expect(out.context.map((it) => it.id)).toEqual(['s', 'x.summary', 'x.file0', 'x.file1']);
    expect(out.context[1]).toMatchObject({ kind: 'summary', role: 'user', text: `${CLAUDE_CODE_SUMMARY_PREFIX}SUMMARY of the work` });
    // Most recent first, the newer read of db.yaml only.
    expect(out.context[2]!.text).toBe('Re-attached after compaction: /repo/config/db.yaml\npool_size: 20 new');
    expect(out.context[3]!.text).toMatch(/^Re-attached after compaction: \/repo\/app\.py\nimport db/);
  });

  it('keeps the files within the per-file cut, the budget and the file count', async () => {
    const one = await claudeCodeCompact(coding(), { ...CLAUDE_CODE_DEFAULTS, maxFiles: 1 }, deps());
    expect(one.context.filter((it) => it.meta?.reattached)).toHaveLength(1);
    const cut = await claudeCodeCompact(coding(), { ...CLAUDE_CODE_DEFAULTS, fileTokens: 10 }, deps());
    expect(cut.context[3]!.text).toContain('(cut to 10 tokens)');
    const none = await claudeCodeCompact(coding(), { ...CLAUDE_CODE_DEFAULTS, filesBudget: 0 }, deps());
    expect(none.context.map((it) => it.id)).toEqual(['s', 'x.summary']);
  });
});

describe('codexCompact', () => {
  it('keeps the initial context and the newest user messages within the budget, then the handoff summary; no assistant or tool item', async () => {
    const ctx = [item('env', 'user', 'message', '<environment_context>cwd /repo</environment_context>'), ...coding()];
    const out = await codexCompact(ctx, CODEX_DEFAULTS, deps());
    expect(out.context.map((it) => it.id)).toEqual(['env', 's', 'u1', 'u2', 'x.summary']);
    expect(out.context.at(-1)).toMatchObject({ role: 'user', text: `${CODEX_SUMMARY_PREFIX}SUMMARY of the work` });
    // A budget of 4 words: the newest message (3 words) whole, the one before cut.
    const tight = await codexCompact(ctx, { ...CODEX_DEFAULTS, userBudget: 4 }, deps());
    expect(tight.context.map((it) => it.id)).toEqual(['env', 's', 'u1.cut', 'u2', 'x.summary']);
  });
});

describe('openhandsCondense', () => {
  it('keeps keep_first events and the newest max_size/2 − keep_first − 1, the summary at offset keep_first', async () => {
    const events = [sys('s', 'system'), ...Array.from({ length: 30 }, (_, i) => (i % 2 ? asst(`a${i}`, `step ${i}`) : user(`u${i}`, `ask ${i}`)))];
    const out = await openhandsCondense(events, { ...OPENHANDS_DEFAULTS, maxSize: 20, keepFirst: 2 }, deps());
    // tail = 20/2 − 2 − 1 = 7
    expect(out.context.map((it) => it.id)).toEqual(['s', 'u0', 'x.summary', ...events.slice(-7).map((it) => it.id)]);
    // The next condensation folds the summary instead of stacking a second one.
    const again = await openhandsCondense([...out.context, ...events.slice(1, 12).map((it) => ({ ...it, id: `${it.id}b` }))], { ...OPENHANDS_DEFAULTS, maxSize: 20, keepFirst: 2 }, deps('SECOND'));
    expect(again.foldedIds).toEqual(['x.summary']);
    expect(again.context.filter((it) => it.kind === 'summary')).toHaveLength(1);
  });
});

describe('inspectTrim and serverCompact', () => {
  it('trim keeps system and input, then the newest 80 % of the rest without splitting a tool pair', async () => {
    const out = await inspectTrim(coding(), INSPECT_TRIM_DEFAULTS, deps());
    expect(out.context.slice(0, 2).map((it) => it.id)).toEqual(['s', 'u1']);
    expect(out.replacedIds).toEqual(['c1', 't1']);
  });

  it('server compaction leaves the system prompt and one compaction summary', async () => {
    const out = await serverCompact(coding(), SERVER_COMPACT_DEFAULTS, deps());
    expect(out.context.map((it) => it.id)).toEqual(['s', 'x.summary']);
  });
});

describe('rerunSession with harness triggers', () => {
  it('fires the items trigger above max and Claude Code microcompact above its tool-result count', async () => {
    const session = transcript(coding(), { responses: [] });
    const items = await rerunSession(session, { strategy: 'openhands-condenser', params: { maxSize: 6, keepFirst: 1 }, trigger: { kind: 'items', max: 6 }, count: countWords });
    for (const c of items.calls) if (c.eventId === null) expect(c.context.length).toBeLessThanOrEqual(6 + 3);
    expect(items.events.length).toBeGreaterThan(0);
    expect(items.calls[items.events[0]!.callIndex]!.trigger.reason).toMatch(/> 6 items/);
    const micro = await rerunSession(session, { strategy: 'claude-code-compact', params: { microcompactAfter: 1, microcompactKeep: 1 }, trigger: { kind: 'tokens', threshold: 1_000_000 }, count: countWords });
    expect(micro.events.length).toBeGreaterThan(0);
    expect(micro.events.every((e) => e.microcompact && e.label === 'masked')).toBe(true);
  });
});

describe('rerunHistory', () => {
  const compaction = (extra: Partial<CompactionEvent>): CompactionEvent => ({ id: 'k', index: 0, kind: 'summary', trigger: null, tokensBefore: null, tokensAfter: null, replacedIds: [], keptIds: [], summaryId: null, atItemId: null, source: { file: 't', line: null }, ...extra });

  it('says when the format kept only the summary, and the rerun still runs on what exists', async () => {
    const items = [sys('s', 'system'), user('u1', 'solve it'), asst('sum', 'Summary: tried x, failed'), user('u2', 'go on')];
    const session = transcript(items, { compactions: [compaction({ replacedIds: ['attempt-1', 'attempt-2'], summaryId: 'sum' })] });
    const r = await rerunSession(session, { strategy: 'drop-oldest', trigger: { kind: 'turns', every: 1 }, count: countWords });
    expect(r.history.lost).toEqual([{ compactionId: 'k', call: null, reason: 'the format keeps only the summary, not the items it replaced' }]);
    expect(r.warnings.some((w) => w.includes('the format keeps only the summary'))).toBe(true);
    expect(r.status).toBe('done');
  });

  it('counts replaced items put back when the file kept them, and says nothing is lost', async () => {
    const items = [sys('s', 'system'), user('u1', 'first'), asst('a1', 'done first'), user('u2', 'second')];
    const session = transcript(items, { compactions: [compaction({ kind: 'condensation', replacedIds: ['u1', 'a1'] })] });
    const r = await rerunSession(session, { strategy: 'drop-oldest', trigger: { kind: 'turns', every: 1 }, count: countWords });
    expect(r.history.lost).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.calls.length).toBeGreaterThan(0);
  });
});
