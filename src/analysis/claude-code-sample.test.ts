// Checks the analysis on the real Claude Code session in ../shared/samples (read at run time, never copied).
import { expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { createTokenCounter, TokenMemo } from '../tokens';
import { analyzeSession } from './analyze-session';

import { describeSamples, readSample as read } from '../test/shared-samples';

describeSamples('analyzeSession on claude-code-compacted.jsonl', async () => {
  const counter = await createTokenCounter('o200k_base');
  const memo = new TokenMemo();
  const count = (t: string) => memo.count(t, (x) => counter.count(x)).tokens;
  const { sessions } = loadFiles([read('claude-code-compacted.jsonl'), read('claude-code-compacted.agent-acompact.jsonl')]);
  const session = sessions[0]!;
  const a = analyzeSession(session, { count, rule: 'anthropic' });
  const at = a.contexts.calls.findIndex((c) => c.compactionId !== null && session.compactions.some((k) => k.id === c.compactionId && k.kind === 'compact'));

  it('rebuilds the context before the compaction as the whole conversation and after it as summary plus what followed', () => {
    expect(at).toBeGreaterThan(0);
    const before = a.contexts.calls[at - 1]!;
    const after = a.contexts.calls[at]!;
    expect(before.entries.some((e) => e.item.kind === 'summary')).toBe(false);
    expect(after.entries[0]!.item.kind).toBe('summary');
    expect(after.entries[0]!.region).toBe('summary');
    expect(after.entries.length).toBeLessThan(before.entries.length / 5);
  });

  it('finds the cache break at the compaction and no structural break in the calls around it', () => {
    const report = a.cache[at]!;
    expect(report.cacheBreak).toBe(true);
    expect(report.cause).toBe('compaction');
    expect(a.cache[at - 1]!.cause === null || a.cache[at - 1]!.cause === 'ttl').toBe(true);
    expect(a.cache[at + 1]!.cacheBreak).toBe(false);
  });

  it('predicts the cached tokens that were reported on ordinary calls, within a few tokens', () => {
    const ordinary = a.cache.filter((r, i) => i > 0 && !r.cacheBreak && !r.ttlExpired && r.reportedCacheRead !== null && r.reportedCacheRead > 0);
    expect(ordinary.length).toBeGreaterThan(50);
    const close = ordinary.filter((r) => Math.abs(r.cachedPredicted - r.reportedCacheRead!) <= 5);
    expect(close.length / ordinary.length).toBeGreaterThan(0.9);
  });

  it('says the prefix was not recorded and estimates it from reported usage', () => {
    expect(a.contexts.calls.every((c) => c.prefixUnrecorded)).toBe(true);
    expect(a.cache[1]!.unseenPrefixTokens).toBeGreaterThan(10_000);
  });
});
