import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// The fixture imitates the course's compaction record (unit "Summarizing Evicted Turns", Observe section),
// with the variations harnesses write: evicted as a count or a list of ids, a port logged as a number,
// Unix timestamps, an interleaved non-compaction event, and records with wrongly typed fields.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('compactionLog', () => {
  it('turns each record into a compaction item, its summary or marker, and a log event', () => {
    const { sessions } = loadText('log.jsonl', fixture('compaction-log-course.jsonl'));
    const [s] = sessions;
    expect(s!.format).toBe('compaction-log');
    expect(s!.meta['joinSessionId']).toBe('s-course');
    expect(s!.items.map((i) => [i.id, i.role, i.kind, i.source.line])).toEqual([
      ['log1', 'system', 'compaction', 1],
      ['log1.summary', 'assistant', 'summary', 1],
      ['log3', 'system', 'compaction', 3],
      ['log6', 'system', 'compaction', 6],
      ['log6.summary', 'assistant', 'omission', 6],
    ]);
    expect(s!.items.map((i) => i.text.split('\n')[0])).toEqual([
      'summarize: 1,840 → 420 tokens',
      '## Conversation Summary',
      'drop: 2,210 → 1,650 tokens',
      'summarize: 3,536 → 1,150 tokens (fallback)',
      '[Earlier messages truncated]',
    ]);
    expect(s!.items[4]!.omission).toEqual({ target: 'turns', refs: [], marker: '[Earlier messages truncated]' });
    expect(s!.skipped).toEqual({ turn: 1 });
  });

  it('keeps the recorded fields: strategy as trigger, token sizes, identifiers kept and lost, and the join tuple', () => {
    const { sessions } = loadText('log.jsonl', fixture('compaction-log-course.jsonl'));
    const [first, second, third] = sessions[0]!.compactions;
    expect(first).toEqual({
      id: 'log1',
      index: 0,
      kind: 'log',
      trigger: 'summarize',
      tokensBefore: 1840,
      tokensAfter: 420,
      replacedIds: [],
      keptIds: [],
      summaryId: 'log1.summary',
      atItemId: 'log1',
      timestamp: '2025-03-13T09:04:32Z',
      source: { file: 'log.jsonl', line: 1 },
      log: {
        strategy: 'summarize',
        evicted: 9,
        fallback: false,
        keptIdentifiers: ['db-prod-1', '5432', 'FRE-512'],
        lostIdentifiers: ['v2.14.3'],
        summary: expect.stringMatching(/^## Conversation Summary/),
        sessionId: 's-course',
        turn: 7,
        requestId: 'req_07',
      },
    });
    // A list of evicted ids names the replaced items; a Unix time becomes ISO.
    expect(second).toMatchObject({ index: 1, trigger: 'drop', replacedIds: ['m12', 'm13'], summaryId: null, timestamp: '2025-03-13T09:10:00.000Z' });
    expect(second!.log).toMatchObject({ evicted: 2, fallback: null, lostIdentifiers: ['tests/test_reconcile.py'], requestId: null });
    expect(third).toMatchObject({ index: 2, summaryId: 'log6.summary', log: { fallback: true, keptIdentifiers: [], lostIdentifiers: ['db-prod-1', '5432', 'FRE-512'] } });
  });

  it('skips only the records with wrongly typed fields, naming line and field', () => {
    const { sessions, issues } = loadText('log.jsonl', fixture('compaction-log-course.jsonl'));
    expect(issues).toEqual([
      { file: 'log.jsonl', line: 4, field: 'tokens_before', message: 'compaction record skipped: expected a number, got the string "2,400"', severity: 'error' },
      { file: 'log.jsonl', line: 5, field: 'kept_ids', message: 'compaction record skipped: expected a list of identifiers, got the string "db-prod-1"', severity: 'error' },
    ]);
    expect(sessions[0]!.compactions.map((c) => c.source.line)).toEqual([1, 3, 6]);
  });

  it('splits a log that covers several sessions into one session per session_id', () => {
    const text = ['{"session_id":"a","strategy":"drop","tokens_before":10,"tokens_after":5}', '{"session_id":"b","strategy":"mask","tokens_before":9,"tokens_after":4}', '{"session_id":"a","strategy":"omit","tokens_before":8,"tokens_after":3}'].join('\n');
    const { sessions, issues } = loadText('multi.jsonl', text);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => [s.id, s.meta['joinSessionId'], s.compactions.map((c) => [c.id, c.index, c.trigger])])).toEqual([
      ['multi#a', 'a', [['log1', 0, 'drop'], ['log3', 1, 'omit']]],
      ['multi#b', 'b', [['log2', 0, 'mask']]],
    ]);
  });

  it('reads a log of one record, which parses as a single JSON document', () => {
    const { sessions, issues } = loadText('one.jsonl', '{"strategy":"summarize","tokens_before":1840,"tokens_after":420,"evicted":3}\n');
    expect(issues).toEqual([]);
    expect(sessions[0]!.format).toBe('compaction-log');
    expect(sessions[0]!.meta['joinSessionId']).toBeUndefined();
    expect(sessions[0]!.compactions.map((c) => [c.id, c.tokensBefore, c.log?.evicted])).toEqual([['log1', 1840, 3]]);
  });
});
