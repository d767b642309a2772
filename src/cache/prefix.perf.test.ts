import { describe, expect, it } from 'vitest';
import type { CallContext } from '../analysis/context-types';
import type { Item } from '../model/types';
import { naivePrefix } from './naive-prefix';
import { analyzeCachePrefix } from './prefix';
import { asst, call, calls, countWords, summary, sys, user } from './test-builders';

// A request log as a proxy writes it: 500 calls whose prompts grow from ~10k to ~110k tokens (60k on
// average), one 200-token turn per call, with a recap regenerated every 50 calls. Every call is
// parsed from its own JSON line, so no two calls share item objects or strings.
function requestLog(): CallContext[] {
  const para = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}w${i % 97}`).join(' ');
  const system = sys('system', para('sys', 2000));
  const turns: Item[] = Array.from({ length: 540 }, (_, i) => (i % 2 ? asst : user)(`t${i}`, para(`t${i}`, 200)));
  const lines: string[] = [];
  for (let c = 0; c < 500; c++) {
    const recap = summary('recap', `## Conversation Summary\n${para(`recap${Math.floor(c / 50)}`, 200)}`);
    lines.push(JSON.stringify([system, recap, ...turns.slice(0, 39 + c)]));
  }
  return calls(...lines.map((l) => call(JSON.parse(l) as Item[])));
}

function time(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

describe('analyzeCachePrefix performance', () => {
  it('analyzes a 500-call log averaging 60k tokens in under a second, at least 10× faster than the naive comparison', () => {
    const log = requestLog();
    const avg = log.reduce((n, c) => n + c.entries.reduce((m, e) => m + countWords(e.item.text) + 1, 0), 0) / log.length;
    expect(avg).toBeGreaterThan(55_000);
    expect(avg).toBeLessThan(65_000);

    analyzeCachePrefix(log.slice(0, 20), { count: countWords }); // warm up the JIT on a small slice
    let reports: ReturnType<typeof analyzeCachePrefix> = [];
    const fast = time(() => (reports = analyzeCachePrefix(log, { count: countWords })));
    let naiveTokens: number[] = [0];
    const naive = time(() => {
      naiveTokens = [0];
      for (let i = 1; i < log.length; i++) naiveTokens.push(naivePrefix(log[i - 1]!, log[i]!, countWords).prefixTokens);
    });

    expect(reports.map((r) => r.prefixTokens)).toEqual(naiveTokens);
    expect(reports.filter((r) => r.cacheBreak).map((r) => [r.index, r.cause])).toEqual(
      [50, 100, 150, 200, 250, 300, 350, 400, 450].map((i) => [i, 'recap-regenerated']),
    );
    console.log(`cache prefix: fast ${fast.toFixed(0)} ms, naive ${naive.toFixed(0)} ms (${(naive / fast).toFixed(1)}×)`);
    expect(fast).toBeLessThan(1000);
    expect(naive / fast).toBeGreaterThanOrEqual(10);
  }, 120_000);
});
