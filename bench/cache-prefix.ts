// Cache-prefix analysis of a 500-call request log (~60k tokens per call) against the naive comparison.
import { naivePrefix } from '../src/cache/naive-prefix';
import { analyzeCachePrefix } from '../src/cache/prefix';
import { requestLog } from '../src/cache/request-log-generator';
import { countWords } from '../src/cache/test-builders';

export interface CachePrefixBench {
  calls: number;
  avgTokens: number;
  fastMs: number;
  naiveMs: number;
  ratio: number;
  agree: boolean;
}

function time(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

export function benchCachePrefix(): CachePrefixBench {
  const log = requestLog(500);
  const avgTokens = log.reduce((n, c) => n + c.entries.reduce((m, e) => m + countWords(e.item.text) + 1, 0), 0) / log.length;
  analyzeCachePrefix(log.slice(0, 20), { count: countWords }); // warm up the JIT on a small slice
  let fast: number[] = [];
  const fastMs = time(() => (fast = analyzeCachePrefix(log, { count: countWords }).map((r) => r.prefixTokens)));
  const naive = [0];
  const naiveMs = time(() => {
    for (let i = 1; i < log.length; i++) naive.push(naivePrefix(log[i - 1]!, log[i]!, countWords).prefixTokens);
  });
  return { calls: log.length, avgTokens: Math.round(avgTokens), fastMs, naiveMs, ratio: naiveMs / fastMs, agree: JSON.stringify(fast) === JSON.stringify(naive) };
}
