import { describe, expect, it } from 'vitest';
import { assistant, boundary, compaction, session, summary, system, user } from '../test/builders';
import { buildAnalysisView } from './analysis-view';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

describe('buildAnalysisView', () => {
  const s = session(
    [
      system('s', 'you are helpful'),
      user('u1', 'fix the nightly job please'),
      assistant('a1', 'looking at db-prod-1:5432 now'),
      user('u2', 'and the ticket'),
      boundary('b'),
      summary('sum', '## Conversation Summary\n- **Facts:** db-prod-1:5432'),
      assistant('a2', 'FRE-512'),
    ],
    { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['a1'] })] },
  );
  const v = buildAnalysisView(s, { count: words });

  it('splits each call into bands that add up to its context', () => {
    expect(v.calls).toHaveLength(2);
    const last = v.calls[1]!;
    expect(last.entries.map((e) => [e.id, e.region, e.isNew])).toEqual([
      ['s', 'head', false],
      ['u1', 'head', false],
      ['sum', 'summary', true],
      ['u2', 'tail', true],
    ]);
    expect(last.bands).toEqual({ system: 3, tools: 0, head: 5, summary: 0, middle: 0, tail: 0, newInput: 9, output: 1 });
    const { output, ...input } = last.bands;
    expect(Object.values(input).reduce((a, b) => a + b, 0)).toBe(last.contextTokens);
  });

  it('lists what the call no longer saw as ghost rows with their token cost', () => {
    expect(v.ghosts[0]).toEqual([]);
    expect(v.ghosts[1]).toEqual([{ id: 'a1', label: 'summarized', tokens: 4, compactionId: 'c' }]);
  });

  it('keeps reports of the other analyses beside the calls', () => {
    // The evicted reply was only the first call's output, so the first prompt is still a prefix of the second.
    expect(v.cache.map((r) => [r.cacheBreak, r.prefixTokens])).toEqual([[false, 0], [false, expect.any(Number)]]);
    expect(v.cache[1]!.prefixTokens).toBeGreaterThan(0);
    expect(v.audits).toEqual([expect.objectContaining({ compaction: 0, kept: expect.arrayContaining(['db-prod-1:5432']) })]);
    expect(v.peakContextTokens).toBe(v.calls[1]!.contextTokens);
  });
});
