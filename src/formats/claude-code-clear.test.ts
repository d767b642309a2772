// Claude Code 1.0 wrote on in the same file after the user's /clear, each /clear hanging off one local-command caveat
// record written again with the same uuid (oneopane/CLAUDE-commands, projects/-Users-ojash-Documents-MediaPlayer,
// 1.0.31): the conversations between clears are siblings in the tree, and a summary record (1.0 writes no
// compact_boundary) covers only the conversation since the last /clear.
import { describe, expect, it } from 'vitest';
import { auditContexts } from '../analysis/audit-contexts';
import { loadText } from '../load/loader';
import { clearedSessionFile as file } from '../test/claude-code-cleared';

describe('a Claude Code 1.0 file that goes on after /clear', () => {
  const session = () => loadText('95f3cf38.jsonl', file()).sessions[0]!;

  it('keeps every conversation (none is an abandoned branch), so every response and its usage is read', () => {
    const s = session();
    expect(s.skipped['abandoned-branch']).toBeUndefined();
    expect(s.responses.map((r) => r.usage?.input)).toEqual([4000, 5000, 3000, 6000, 2000, 1500, 1600]);
  });

  it('lets the summary replace only the conversation since the last /clear', () => {
    const s = session();
    expect(s.compactions).toHaveLength(1);
    const replaced = new Set(s.compactions[0]!.replacedIds);
    expect(['b1', 'b2', 'b3', 'b4'].every((id) => [...replaced].some((r) => r.startsWith(id)))).toBe(true);
    expect([...replaced].some((r) => /^a\d/.test(r))).toBe(false);
  });

  it('audits that summary against its own conversation: nothing after the next /clear was needed because of it', () => {
    const [audit] = auditContexts(session());
    // The re-read of ScrubBar.swift comes after the user cleared the conversation again: the model had forgotten
    // everything by then, whatever the summary kept.
    expect(audit!.lostRefetchedLater.map((r) => r.value)).toEqual([]);
    expect(audit!.lostReferencedLater.map((r) => r.value)).toEqual([]);
    expect(audit!.lost).toContain('resetScrubDefaults()');
    // The first conversation, cleared before the summarizer ran, is neither lost nor what the summary read.
    expect(audit!.lost).not.toContain('loadFirstVideo()');
    expect(audit!.lost).not.toContain('src/Player/VideoLoader.swift');
  });

  it('reads a conversation that the next /clear does not cut as before: a re-read then a use is a re-fetch', () => {
    const text = file().split('\n').filter((l) => !l.includes('"uuid":"c2"') && !(l.includes('"uuid":"caveat"') && l.includes('Caveat'))).join('\n').replace('"parentUuid":"c2"', '"parentUuid":"s3"');
    const [audit] = auditContexts(loadText('x.jsonl', text).sessions[0]!);
    expect(audit!.lostRefetchedLater.map((r) => r.value)).toContain('resetScrubDefaults()');
  });
});

describe('the context a Claude Code 1.0 /clear leaves', () => {
  it('holds none of the conversation before it at the calls after it', async () => {
    const { sessionContexts } = await import('../analysis/session-analysis');
    const s = loadText('95f3cf38.jsonl', file()).sessions[0]!;
    const { calls } = sessionContexts(s);
    const idsAt = (k: number) => calls[k]!.entries.map((e) => e.item.id);
    // The second conversation's first call: the first conversation is gone, the /clear's own records are there.
    const second = calls.findIndex((c) => c.output.some((o) => o.id.startsWith('b2')));
    expect(idsAt(second).some((id) => /^a\d/.test(id))).toBe(false);
    expect(idsAt(second).some((id) => id.startsWith('b1'))).toBe(true);
    // The third conversation's calls hold neither the second nor its summary.
    const third = calls.findIndex((c) => c.output.some((o) => o.id.startsWith('d2')));
    expect(idsAt(third).some((id) => /^(?:b\d|s1)/.test(id))).toBe(false);
    expect(idsAt(third).some((id) => id.startsWith('d1'))).toBe(true);
  });

  it('says the /clear took the conversation out, not a compaction, and not "dropped"', async () => {
    const { sessionContexts } = await import('../analysis/session-analysis');
    const { labelAt } = await import('../analysis/eviction-runs');
    const s = loadText('95f3cf38.jsonl', file()).sessions[0]!;
    const { calls, eviction, removals } = sessionContexts(s);
    const second = calls.findIndex((c) => c.output.some((o) => o.id.startsWith('b2')));
    const first = eviction.filter((row) => /^a\d/.test(row.item.id));
    expect(first.length).toBeGreaterThan(0);
    expect(first.map((row) => labelAt(row.runs, second))).toEqual(first.map(() => 'cleared'));
    expect(first.map((row) => removals.get(row.item.id)?.compactionId)).toEqual(first.map(() => null));
    // What the summary replaced is summarized, by the compaction, though the next /clear took the summary out later.
    const summarized = eviction.find((row) => row.item.id.startsWith('b3'))!;
    const third = calls.findIndex((c) => c.output.some((o) => o.id.startsWith('d2')));
    expect(labelAt(summarized.runs, third)).toBe('summarized');
    expect(removals.get(summarized.item.id)?.compactionId).toBe(s.compactions[0]!.id);
  });
});

describe('the cache after a Claude Code 1.0 /clear', () => {
  it('names the /clear as the cause of each call that follows one, not an edit', async () => {
    const { sessionContexts } = await import('../analysis/session-analysis');
    const { analyzeCachePrefix } = await import('../cache/prefix');
    const s = loadText('95f3cf38.jsonl', file()).sessions[0]!;
    const { calls, timeline } = sessionContexts(s);
    const reports = analyzeCachePrefix(calls, { count: (t) => t.length, timeline });
    const after = (id: string) => reports[calls.findIndex((c) => c.output.some((o) => o.id.startsWith(id)))]!;
    // b2 and d2 are the first calls after the two clears: nothing before them is sent again.
    expect(after('b2').cause).toBe('cleared');
    expect(after('d2').cause).toBe('cleared');
    // The calls within a conversation keep their prefix, and the summary's call is the compaction's.
    expect(after('b4').cause).toBeNull();
    expect(after('s3').cause).toBe('compaction');
  });
});
