// The reported-usage figures on the real sessions in ../shared/samples (read at run time, never copied).
import { expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample } from '../test/shared-samples';
import { createTokenCounter, TokenMemo } from '../tokens';
import { analyzeSession } from './analyze-session';

async function analyzed(...names: string[]) {
  const counter = await createTokenCounter('o200k_base');
  const memo = new TokenMemo();
  const session = loadFiles(names.map(readSample)).sessions[0]!;
  return analyzeSession(session, { count: (t) => memo.count(t, (x) => counter.count(x)).tokens });
}

describeSamples('reported usage on the shared samples', () => {
  it.each([
    [['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl']],
    [['codex-rollout-cache.jsonl']],
    [['codex-rollout-tiny.jsonl']],
    [['claude-code-short.jsonl']],
    [['claude-code-tool-heavy.jsonl']],
  ])('makes every call that read less than half the previous prompt (and 4,096 fewer) a break with a cause: %s', async (names) => {
    const a = await analyzed(...names);
    for (const r of a.cache.slice(1)) {
      const prev = a.calibration.calls[r.index - 1]!.reportedPrompt;
      const read = r.reportedCacheRead;
      if (prev === null || read === null || !(read < prev / 2 && prev - read > 4096)) continue;
      expect({ call: r.call, cacheBreak: r.cacheBreak, known: r.cause !== null && r.cause !== 'unknown' }).toEqual({ call: r.call, cacheBreak: true, known: true });
    }
    // Never `ttl` while the reported read covers what the previous call left cached.
    for (const r of a.cache) if (r.reportedMiss === false) expect(r.cause).not.toBe('ttl');
  });

  it('counts redacted Codex texts by their length hint, leaving the unrecorded prefix a small share of the prompt', async () => {
    const a = await analyzed('codex-rollout-cache.jsonl');
    const shares = a.calibration.calls.filter((c) => c.reportedPrompt).map((c) => c.prefixTokens / c.reportedPrompt!).sort((x, y) => x - y);
    expect(shares[shares.length >> 1]!).toBeLessThan(0.25);
    // 17,024 read after a ~57k prompt, at a new user message whose prompt is 2,343 tokens smaller: the API dropped the
    // previous turn's reasoning, and what followed it was sent anew — a break with that cause, priced at most at
    // the prompt less its read.
    const r = a.cache.find((x) => x.reportedCacheRead === 17_024)!;
    expect(r).toMatchObject({ cacheBreak: true, cause: 'thinking-dropped', missCharge: 'miss', missTokens: 55_280 - 17_024 });
  });
});
