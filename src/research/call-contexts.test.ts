import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { buildAnalysisView } from '../analysis/analysis-view';
import type { Session } from '../model/types';
import { sentCalls } from './call-contexts';
import { iterationStats } from './iteration-metrics';
import { selfSumSegments } from './self-sum-metrics';
import { demoSession, fixtureSession, words } from './test-support';

const segmentOf = (s: Session, id: string) => s.items.find((it) => it.id === id)?.meta?.['segment'];

/**
 * What a Self-Sum policy sends a call in segment k, from the adapter's segment marks alone: the system prompt,
 * then segment k's items before the call. Segment k opens with U^(k-1) (the query in H¹, the query and the
 * latest summary after), so no earlier segment and no summary on its own.
 */
function selfSumExpected(s: Session, outputIds: readonly string[]): string[] {
  const first = s.items.findIndex((it) => it.id === outputIds[0]);
  const k = segmentOf(s, outputIds[0]!);
  return s.items.slice(0, first).filter((it) => it.role === 'system' || it.meta?.['segment'] === k).map((it) => it.id);
}

const counted = (s: Session) => analyzeSession(s, { count: words }).counted.tokens;

describe('research call contexts', () => {
  for (const [name, load] of [
    ['the ALFWorld demo', () => demoSession('alfworld-self-sum.json')],
    ['the SciWorld fixture', () => fixtureSession('self-sum-sciworld.json')],
  ] as const) {
    it(`sends each Self-Sum call of ${name} the query, the latest summary and the current segment, and the panel's segment tokens are its last call's counted tokens`, () => {
      const s = load();
      const view = buildAnalysisView(s, { count: words });
      const calls = sentCalls(s, view);
      expect(calls.length).toBeGreaterThan(3);
      for (const c of calls) expect(c.ids, `call ${c.index + 1}`).toEqual(selfSumExpected(s, c.outputIds));
      // The summary is sent only inside the turn that restates it.
      expect(calls.flatMap((c) => c.ids).filter((id) => s.items.find((it) => it.id === id)?.kind === 'summary')).toEqual([]);

      const perCall = counted(s);
      const report = selfSumSegments(s, view);
      expect(report.segments.length).toBeGreaterThan(2);
      for (const seg of report.segments) {
        expect(seg.lastCall).not.toBeNull();
        expect(seg.contextTokens, `segment ${seg.index}`).toBe(perCall[seg.lastCall!]);
        expect(seg.contextIds).toEqual(calls[seg.lastCall!]!.ids);
      }
      // Corpus mode (a plain counter, its own replay) gives the same figures.
      expect(selfSumSegments(s, words).segments.map((g) => g.contextTokens)).toEqual(report.segments.map((g) => g.contextTokens));
    });
  }

  it('opens segment H² of the ALFWorld demo with U¹ alone, not the query and the summary again beside it', () => {
    const s = demoSession('alfworld-self-sum.json');
    const view = buildAnalysisView(s, { count: words });
    const h2 = selfSumSegments(s, view).segments[1]!;
    const firstOfH2 = sentCalls(s, view).find((c) => segmentOf(s, c.outputIds[0]!) === 2)!;
    expect(firstOfH2.ids).toEqual(['m0', 'm25']);
    expect(h2.contextIds.slice(0, 2)).toEqual(['m0', 'm25']);
    expect(h2.contextIds).not.toContain('m1');
    expect(h2.contextIds).not.toContain('m24.summary');
  });

  for (const [name, load, n] of [
    ['the AIME fixture', () => fixtureSession('reasoning-trace-aime.json'), 3],
    ['the iterated-summarization demo', () => demoSession('aime-iterated-summarization.json'), 4],
  ] as const) {
    it(`sends each attempt of ${name} its prompt alone, and the Prompt column is that call counted`, () => {
      const s = load();
      const view = buildAnalysisView(s, { count: words });
      const calls = sentCalls(s, view);
      expect(calls.map((c) => c.ids)).toEqual(Array.from({ length: n }, (_, i) => [`i${i + 1}.prompt`]));
      const perCall = counted(s);
      const rows = iterationStats(s, view).rows;
      expect(rows.map((r) => r.call)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(rows.map((r) => r.promptTokens)).toEqual(perCall);
      const text = (id: string) => s.items.find((it) => it.id === id)!.text;
      expect(rows.map((r) => r.promptTokens)).toEqual(rows.map((r) => words(text(r.promptId!))));
    });
  }

  it('gives the iterated-summarization demo a prompt per attempt carrying every earlier summary, first correct at attempt 3', () => {
    const s = demoSession('aime-iterated-summarization.json');
    const st = iterationStats(s, words);
    expect(st.rows.map((r) => [r.finalAnswer, r.correct, r.passedTo])).toEqual([
      ['143', false, [2, 3, 4]],
      ['284', false, [3, 4]],
      ['286', true, [4]],
      ['286', true, []],
    ]);
    expect(st.firstCorrect).toBe(3);
    expect(st.summarizer).toBe('backtracking');
  });
});
