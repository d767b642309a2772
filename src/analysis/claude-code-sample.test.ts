// Checks the analysis on the real Claude Code session in ../shared/samples (read at run time, never copied).
import { beforeAll, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { createTokenCounter, TokenMemo } from '../tokens';
import type { Session } from '../model/types';
import { analyzeSession, type SessionAnalysis } from './analyze-session';

import { describeSamples, readSample as read } from '../test/shared-samples';

describeSamples('analyzeSession on claude-code-compacted.jsonl', () => {
  // Read in a hook, not while collecting: without ../shared the suite is skipped and nothing is read.
  let session: Session;
  let a: SessionAnalysis;
  let at: number;
  beforeAll(async () => {
    const counter = await createTokenCounter('o200k_base');
    const memo = new TokenMemo();
    const count = (t: string) => memo.count(t, (x) => counter.count(x)).tokens;
    session = loadFiles([read('claude-code-compacted.jsonl'), read('claude-code-compacted.agent-acompact.jsonl')]).sessions[0]!;
    a = analyzeSession(session, { count, rule: 'anthropic' });
    at = a.contexts.calls.findIndex((c) => c.compactionId !== null && session.compactions.some((k) => k.id === c.compactionId && k.kind === 'compact'));
  });

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

  it('predicts the cached tokens that were reported on ordinary calls within the calibration error', () => {
    const ordinary = a.cache.filter((r, i) => i > 0 && !r.cacheBreak && !r.ttlExpired && r.reportedCacheRead !== null && r.reportedCacheRead > 0);
    expect(ordinary.length).toBeGreaterThan(50);
    // Claude's tokenizer is not public: predictions are o200k counts calibrated against usage, so within a few percent.
    const close = ordinary.filter((r) => Math.abs(r.cachedPredicted - r.reportedCacheRead!) <= 0.05 * r.reportedCacheRead!);
    expect(close.length / ordinary.length).toBeGreaterThan(0.85);
  });

  it('finds every collapse the provider reported, each with a cause from the evidence', () => {
    // Calls 19 and 114 follow gaps beyond the 5-minute TTL the usage shows; 62 follows the compaction; 138 comes
    // 5 s after 137 with the conversation unchanged, yet the provider read only 21,478 tokens: the unrecorded prefix.
    const misses = a.cache.filter((r) => r.reportedMiss).map((r) => [r.call, r.cause]);
    expect(misses).toEqual([
      [19, 'ttl'],
      [62, 'compaction'],
      [114, 'ttl'],
      [138, 'unrecorded-prefix'],
    ]);
    expect(a.cache[137]!).toMatchObject({ reportedCacheRead: 21_478, cacheBreak: true, predictedBreak: false, missKind: 'partial' });
    expect(a.facts.cache).toMatchObject({ breaks: 4, reportedMisses: 4, byCause: { ttl: 2, compaction: 1, 'unrecorded-prefix': 1 } });
    // Priced at Opus 4.6's rates: 5-minute writes at $6.25 against reads at $0.50 per million tokens.
    expect(a.cache[137]!.missCostUsd).toBeCloseTo((a.cache[137]!.missTokens! * (6.25 - 0.5)) / 1e6, 6);
  });

  it('keeps every reported prompt as the call\'s context, takes the prefix from call 1, and explains the prompts before the compaction by counting', () => {
    expect(a.calibration.calls.every((c) => c.reportedPrompt !== null && c.contextTokens === c.reportedPrompt)).toBe(true);
    const errors = a.calibration.calls.map((c) => Math.abs(c.modelledTokens - c.reportedPrompt!) / c.reportedPrompt!);
    const before = errors.slice(0, at).sort((x, y) => x - y);
    expect(before[before.length >> 1]!).toBeLessThan(0.03);
    expect(before[Math.floor(before.length * 0.95)]!).toBeLessThan(0.05);
    // Call 1 held one 36-token user message: its reported 26,450 is the prefix and that message. One prefix for the
    // whole session, never above the first prompt, and above what the provider read back after the compaction (the
    // system prompt and tools it had cached: the first user turn's unrecorded parts come after them).
    const first = a.calibration.calls[0]!;
    expect(new Set(a.calibration.calls.map((c) => c.prefixTokens))).toEqual(new Set([first.prefixTokens]));
    expect(first.reportedPrompt! - first.prefixTokens).toBeLessThan(200);
    expect(first.prefixTokens).toBeGreaterThan(a.contexts.calls[at]!.usage!.cacheRead!);
    // Right after the compaction the prompt holds thousands of tokens the file does not record (Claude Code re-attaches
    // recently read files): counting falls short there, where a fitted prefix would have hidden them in every call.
    expect(a.calibration.calls[at]!.reportedPrompt! - a.calibration.calls[at]!.modelledTokens).toBeGreaterThan(3_000);
    expect(a.facts).toMatchObject({ peakSource: 'reported', peakUncertainty: 0, totalInputTokens: a.facts.reportedInputTokens });
  });

  it('sizes the compaction from the recorded preTokens and the first following call\'s reported prompt', () => {
    const c = a.compactions.find((k) => k.kind === 'compact')!;
    expect(c).toMatchObject({ call: at + 1, tokensBefore: 170_251, tokensBeforeSource: 'recorded', tokensAfterSource: 'reported' });
    expect(c.tokensAfter).toBe(a.calibration.calls[at]!.reportedPrompt);
  });

  it('says the prefix was not recorded and estimates it from reported usage', () => {
    expect(a.contexts.calls.every((c) => c.prefixUnrecorded)).toBe(true);
    expect(a.cache[1]!.unseenPrefixTokens).toBeGreaterThan(10_000);
  });
});
