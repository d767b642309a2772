import { describe, expect, it } from 'vitest';
import { iterationStats } from './iteration-metrics';
import { fixtureSession, itemText, load, words } from './test-support';

// The fixture imitates the paper's AIME traces: a wrong first attempt with a backtracking summary, a
// corrected second attempt prompted with it (Figure 7 prompt), and a third without a summary.
describe('iterationStats', () => {
  it('gives prompt, reasoning, post-think and summary tokens per iteration, like Table 6', () => {
    const s = fixtureSession('reasoning-trace-aime.json');
    const st = iterationStats(s, words);
    const w = (id: string) => words(itemText(s, id));
    expect(st.rows.map((r) => [r.iteration, r.promptId, r.thinkId, r.answerId, r.summaryId, r.promptDefault])).toEqual([
      [1, 'i1.prompt', 'i1.think', 'i1.answer', 'i1.summary', false],
      [2, 'i2.prompt', 'i2.think', 'i2.answer', 'i2.summary', true],
      [3, 'i3.prompt', 'i3.think', 'i3.answer', null, true],
    ]);
    expect(st.rows.map((r) => [r.promptTokens, r.reasoningTokens, r.postThinkTokens, r.summaryTokens])).toEqual([
      [w('i1.prompt'), w('i1.think'), w('i1.answer'), w('i1.summary')],
      [w('i2.prompt'), w('i2.think'), w('i2.answer'), w('i2.summary')],
      [w('i3.prompt'), w('i3.think'), w('i3.answer'), 0],
    ]);
    expect(st.totals.reasoning).toBe(w('i1.think') + w('i2.think') + w('i3.think'));
    // The mean summary is over the two iterations that have one.
    expect(st.means.summary).toBe((w('i1.summary') + w('i2.summary')) / 2);
  });

  it('reads answers, correctness and which later prompts carry each summary', () => {
    const st = iterationStats(fixtureSession('reasoning-trace-aime.json'), words);
    expect(st.rows.map((r) => [r.finalAnswer, r.correct, r.passedTo])).toEqual([
      ['182', false, [2, 3]],
      ['432', true, [3]],
      ['432', true, []],
    ]);
    expect(st.firstCorrect).toBe(2);
    expect(st.summarizer).toBe('backtracking');
  });

  it('leaves parts an iteration lacks at 0 and null', () => {
    const s = load('bare.json', JSON.stringify({ question: 'q', iterations: [{ reasoning: 'just thinking here' }] }));
    const st = iterationStats(s, words);
    expect(st.rows).toEqual([
      {
        iteration: 1,
        promptId: 'i1.prompt',
        promptDefault: true,
        thinkId: 'i1.think',
        answerId: null,
        summaryId: null,
        call: 0,
        contextIds: ['i1.prompt'],
        promptTokens: 1,
        reasoningTokens: 3,
        postThinkTokens: 0,
        summaryTokens: 0,
        finalAnswer: null,
        correct: null,
        passedTo: [],
      },
    ]);
    expect(st.firstCorrect).toBeNull();
    expect(st.means).toEqual({ prompt: 1, reasoning: 3, postThink: 0, summary: 0 });
  });
});
