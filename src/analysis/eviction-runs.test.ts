import { describe, expect, it } from 'vitest';
import { assistant, boundary, compaction, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { buildAnalysisView } from './analysis-view';
import type { EvictionLabel } from './context-types';
import { describeLabels, itemKindPhrase, labelAt, labelCountsAt, labelsOf, type LabelRun } from './eviction-runs';

const row = (s: string): (EvictionLabel | null)[] =>
  [...s].map((c) => ({ v: 'verbatim', s: 'summarized', o: 'omitted', m: 'masked', d: 'dropped' } as const)[c as 'v'] ?? null);

/** Runs of a dense row, the way evictionMap stores them (calls before the item are in no run). */
const runsOf = (labels: (EvictionLabel | null)[]) => {
  const runs: LabelRun[] = [];
  labels.forEach((label, i) => {
    const last = runs[runs.length - 1];
    if (label === null) return;
    if (last && last.label === label && last.end === i - 1) last.end = i;
    else runs.push({ label, start: i, end: i });
  });
  return runs;
};

describe('labelAt and labelsOf', () => {
  it('read a row back call by call, null before the item existed', () => {
    for (const s of ['.vvvvvssssssss', 'vmvm', '...vm', '...', 'v', 'dd.']) {
      const dense = row(s);
      const runs = runsOf(dense);
      expect(labelsOf(runs, dense.length)).toEqual(dense);
      expect(dense.map((_, i) => labelAt(runs, i))).toEqual(dense);
    }
    expect(labelAt([], 3)).toBeNull();
  });
});

describe('describeLabels', () => {
  it('names each run with 1-based calls, open-ended when it lasts to the last call', () => {
    const say = (s: string) => describeLabels(runsOf(row(s)), s.length);
    expect(say('.vvvvvssssssss')).toBe('verbatim in calls 2\u20136, summarized from call 7');
    expect(say('vvvvvvvvvvvvdd')).toBe('verbatim in calls 1\u201312, dropped from call 13');
    expect(say('...vm')).toBe('verbatim in call 4, masked in call 5');
    expect(say('...')).toBe('not sent to any call');
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
    expect(labelCountsAt(v.eviction, last)).toEqual({ verbatim: 6, summarized: 2, omitted: 0, masked: 0, dropped: 0, cleared: 0, 'rolled-back': 0 });
    expect(labelCountsAt(v.eviction, 0)).toEqual({ verbatim: 2, summarized: 0, omitted: 0, masked: 0, dropped: 0, cleared: 0, 'rolled-back': 0 });
  });
});
