import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { assistant, boundary, compaction, session, summary, system, user } from '../test/builders';
import { buildAnalysisView } from './analysis-view';
import { compactionRows, previewText, rowMatches, rowSearchText } from './compaction-rows';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const FIX = join(import.meta.dirname, '..', 'formats', '__fixtures__');
const read = (f: string) => ({ name: f, bytes: new Uint8Array(readFileSync(join(FIX, f))) });

describe('compactionRows', () => {
  // The course transcript joined with its compaction log: log lines carry counts, strategies and summaries.
  const [s] = loadFiles([read('openai-chat-course.json'), read('compaction-log-course.jsonl')]).sessions;
  const view = buildAnalysisView(s!, { count: words });
  const rows = compactionRows(view.compactions, view.calls, view.audits, new Map(view.items.map((i) => [i.id, i])));

  it('makes one row per logged compaction with the log’s tokens, strategy and identifier counts', () => {
    expect(rows).toHaveLength(view.compactions.length);
    expect(rows[0]).toEqual({
      id: 'log1',
      number: 1,
      kind: 'log',
      trigger: 'summarize',
      callIndex: null,
      tokensBefore: 1840,
      tokensAfter: 420,
      saved: 1420,
      replaced: 9,
      fallback: false,
      keptIds: 3,
      lostIds: 1,
      idsFrom: 'log',
      summaryPreview: '- **Decisions:** fix the pool leak - **Entities:** db-prod-1:5432, FRE-512 - **Facts:** pool_size: 20 - **Open Items:** add a test',
      // A log line without item ids: nothing to measure re-fetches against.
      refetches: null,
      refetchTokens: null,
      topRefetch: null,
    });
  });

  it('counts replaced items from the recorded ids when the log lists them', () => {
    const drop = rows.find((r) => r.trigger === 'drop')!;
    expect(drop.replaced).toBe(2);
    expect([drop.keptIds, drop.lostIds, drop.idsFrom]).toEqual([0, 1, 'log']);
  });

  it('marks the fallback and previews the marker that stood in for the summary', () => {
    const fell = rows.find((r) => r.fallback === true)!;
    expect([fell.number, fell.replaced, fell.keptIds, fell.lostIds, fell.summaryPreview]).toEqual([3, 15, 0, 3, '[Earlier messages truncated]']);
  });

  it('leaves kept and lost counts empty when neither the log nor an audit has them', () => {
    const t = session([user('u1', 'hi'), assistant('a1', 'hello')], { compactions: [compaction('c1', { replacedIds: [] })] });
    const v = buildAnalysisView(t, { count: words });
    const [bare] = compactionRows(v.compactions, v.calls, v.audits, new Map());
    expect([bare!.replaced, bare!.keptIds, bare!.lostIds, bare!.idsFrom, bare!.saved, bare!.summaryPreview]).toEqual([null, null, null, null, null, '']);
  });

  it('takes identifier counts and the summary text from the audit and the summary item when there is no log', () => {
    const t = session(
      [system('s', 'sys'), user('u1', 'host db-prod-1:5432, ticket FRE-512'), assistant('a1', 'version v2.14.3'), boundary('b'), summary('sum', '## Conversation Summary\n- **Entities:** db-prod-1:5432'), user('u2', 'next'), assistant('a2', 'ok')],
      { compactions: [compaction('c1', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u1', 'a1'], tokensBefore: 900, tokensAfter: 300 })] },
    );
    const v = buildAnalysisView(t, { count: words });
    const [row] = compactionRows(v.compactions, v.calls, v.audits, new Map(v.items.map((i) => [i.id, i])));
    expect(row).toMatchObject({ number: 1, kind: 'compact', trigger: null, saved: 600, replaced: 2, fallback: null, idsFrom: 'audit', summaryPreview: '- **Entities:** db-prod-1:5432' });
    expect(row!.callIndex).toBe(v.calls.findIndex((c) => c.compactionId === 'c1'));
    expect([row!.keptIds, row!.lostIds]).toEqual([v.audits[0]!.kept.length, v.audits[0]!.lost.length]);
  });
});

describe('compactionRows and the re-fetch tax', () => {
  it('gives each compaction its re-fetch count and tokens, and its costliest re-fetch for the links', () => {
    const [s] = loadFiles([read('../../refetch/__fixtures__/claude-code-refetch.jsonl')]).sessions;
    const v = buildAnalysisView(s!, { count: words });
    const [row] = compactionRows(v.compactions, v.calls, v.audits, new Map(v.items.map((i) => [i.id, i])), v.refetch);
    expect([row!.refetches, row!.refetchTokens]).toEqual([2, 11]);
    expect(row!.topRefetch).toMatchObject({ tool: 'Read', target: '/repo/config/db.yaml', call: 4, earlierCall: 1 });
  });
});

describe('previewText', () => {
  it('drops the schema header, flattens whitespace and cuts long text with an ellipsis', () => {
    expect(previewText('## Conversation Summary\n- a\n\n- b')).toBe('- a - b');
    expect(previewText('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('rowMatches', () => {
  const row = { id: 'log2', number: 2, kind: 'log', trigger: 'summarize', callIndex: 12, tokensBefore: 1, tokensAfter: 1, saved: 0, replaced: 1, fallback: true, keptIds: 0, lostIds: 11, idsFrom: 'log', summaryPreview: 'Earlier messages truncated', refetches: null, refetchTokens: null, topRefetch: null } as const;

  it('matches every word of the query anywhere in the row, case-insensitively', () => {
    expect(rowMatches(row, 'SUMMARIZE fallback')).toBe(true);
    expect(rowMatches(row, 'call 13')).toBe(true);
    expect(rowMatches(row, 'truncated drop')).toBe(false);
  });
  it('matches everything for an empty query', () => {
    expect(rowMatches(row, '  ')).toBe(true);
  });
  it('shows call numbers 1-based, as the table does', () => {
    expect(rowSearchText(row)).toContain('call 13');
  });
});
