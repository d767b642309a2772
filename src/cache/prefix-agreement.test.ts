import { describe, expect, it } from 'vitest';
import { naivePrefix } from './naive-prefix';
import { analyzeCachePrefix } from './prefix';
import { requestLog } from './request-log-generator';
import { countWords } from './test-builders';

describe('analyzeCachePrefix on a long request log', () => {
  it('agrees with the naive comparison call by call and finds every regenerated recap', () => {
    const log = requestLog(120);
    const reports = analyzeCachePrefix(log, { count: countWords });
    const naive = [0];
    for (let i = 1; i < log.length; i++) naive.push(naivePrefix(log[i - 1]!, log[i]!, countWords).prefixTokens);
    expect(reports.map((r) => r.prefixTokens)).toEqual(naive);
    expect(reports.filter((r) => r.cacheBreak).map((r) => [r.index, r.cause])).toEqual([
      [50, 'recap-regenerated'],
      [100, 'recap-regenerated'],
    ]);
  });
});
