import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
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
    // The new recap is counted in the summary band at its first call, as at every later one.
    expect(last.bands).toEqual({ system: 3, tools: 0, head: 5, summary: 6, middle: 0, tail: 0, newInput: 3, output: 1 });
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

describe('buildAnalysisView with deferred parts', () => {
  const path = join(__dirname, '../formats/__fixtures__/claude-code-session.jsonl');
  const s = loadText('claude-code-session.jsonl', readFileSync(path, 'utf8')).sessions[0]!;
  const count = (t: string) => Math.ceil(t.length / 4);

  it('shows the same calls without the cache, lints and audits, and says they are pending', () => {
    const full = buildAnalysisView(s, { count, ghosts: false });
    const first = buildAnalysisView(s, { count, ghosts: false, defer: ['cache', 'lints', 'audits'] });
    expect(full.pending).toEqual([]);
    expect(first.pending).toEqual(['cache', 'lints', 'audits']);
    expect(first.cache).toEqual([]);
    expect(first.lints).toEqual([]);
    expect(first.audits).toEqual([]);
    expect(full.cache.length).toBe(full.calls.length);
    expect(full.audits.length).toBeGreaterThan(0);
    expect(first.spans).toEqual(full.spans);
    expect(first.eviction).toEqual(full.eviction);
    // Only the estimate of the unrecorded prefix (the tools band) may differ, and not by much.
    expect(first.calls.map((c) => ({ ...c.bands, tools: 0 }))).toEqual(full.calls.map((c) => ({ ...c.bands, tools: 0 })));
    first.calls.forEach((c, i) => expect(Math.abs(c.bands.tools - full.calls[i]!.bands.tools)).toBeLessThanOrEqual(Math.max(50, full.calls[i]!.bands.tools * 0.05)));
    expect(first.calls.some((c) => c.bands.tools > 0)).toBe(true);
  });
});

