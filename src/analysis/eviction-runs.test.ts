import { describe, expect, it } from 'vitest';
import { assistant, boundary, compaction, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { buildAnalysisView } from './analysis-view';
import type { EvictionLabel } from './context-types';
import { describeLabels, itemKindPhrase, labelCountsAt, labelRuns } from './eviction-runs';

const row = (s: string): (EvictionLabel | null)[] =>
  [...s].map((c) => ({ v: 'verbatim', s: 'summarized', o: 'omitted', m: 'masked', d: 'dropped' } as const)[c as 'v'] ?? null);

describe('labelRuns', () => {
  it('groups consecutive calls with the same label, nulls included', () => {
    expect(labelRuns(row('.vvvvvssssssss'))).toEqual([
      { label: null, start: 0, end: 0 },
      { label: 'verbatim', start: 1, end: 5 },
      { label: 'summarized', start: 6, end: 13 },
    ]);
    expect(labelRuns([])).toEqual([]);
    expect(labelRuns(row('vmvm')).map((r) => r.label)).toEqual(['verbatim', 'masked', 'verbatim', 'masked']);
  });
});

describe('describeLabels', () => {
  it('names each run with 1-based calls, open-ended when it lasts to the last call', () => {
    expect(describeLabels(row('.vvvvvssssssss'))).toBe('verbatim in calls 2\u20136, summarized from call 7');
    expect(describeLabels(row('vvvvvvvvvvvvdd'))).toBe('verbatim in calls 1\u201312, dropped from call 13');
    expect(describeLabels(row('...vm'))).toBe('verbatim in call 4, masked in call 5');
    expect(describeLabels(row('...'))).toBe('not sent to any call');
  });
});

describe('itemKindPhrase', () => {
  it('says what the item is in words', () => {
    expect(itemKindPhrase({ kind: 'tool_result', role: 'tool' })).toBe('tool result');
    expect(itemKindPhrase({ kind: 'message', role: 'user' })).toBe('user message');
    expect(itemKindPhrase({ kind: 'omission', role: 'assistant' })).toBe('omission marker');
    expect(itemKindPhrase({ kind: 'summary', role: 'user' })).toBe('summary');
  });
});

describe('labelCountsAt', () => {
  it('counts the labels of one call across rows of a real analysis view', () => {
    const s = session(
      [
        system('s', 'be brief'),
        user('u1', 'check the config'),
        toolCall('c1', 'k1', 'read_file'),
        toolResult('r1', 'k1', 'port: 5432'),
        assistant('a1', 'the port is 5432'),
        user('u2', 'thanks'),
        boundary('b'),
        summary('sum', '## Conversation Summary\n- **Facts:** port 5432'),
        user('u3', 'next'),
        assistant('a2', 'done'),
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1'] })] },
    );
    const v = buildAnalysisView(s, { count: (t) => t.length });
    const last = v.calls.length - 1;
    expect(labelCountsAt(v.eviction, last)).toEqual({ verbatim: 6, summarized: 2, omitted: 0, masked: 0, dropped: 0 });
    expect(labelCountsAt(v.eviction, 0)).toEqual({ verbatim: 2, summarized: 0, omitted: 0, masked: 0, dropped: 0 });
  });
});
