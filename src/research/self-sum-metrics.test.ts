import { describe, expect, it } from 'vitest';
import { selfSumSegments } from './self-sum-metrics';
import { demoSession, fixtureSession, itemText, load, words } from './test-support';

// The ALFWorld demo imitates the paper's SFT conversations: timing turn (`<action>summary</action>`), the
// Table 7 summary prompt, the summary, then U^(k) = query + summary as the next segment's first user turn.
describe('selfSumSegments', () => {
  it('splits the ALFWorld demo into H¹…H³ with steps, environment actions and tokens per segment', () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = selfSumSegments(s, words);
    expect(r.segments.map((g) => [g.index, g.openerId, g.firstStep, g.lastStep, g.steps, g.actionSteps, g.summaryId])).toEqual([
      [1, 'm1', 1, 12, 12, 10, 'm24.summary'],
      [2, 'm25', 13, 17, 5, 3, 'm34.summary'],
      [3, 'm35', 18, 20, 3, 3, null],
    ]);
    // A segment's tokens are its own items; the system prompt is counted apart.
    for (const g of r.segments) expect(g.tokens).toBe(g.itemIds.reduce((n, id) => n + words(itemText(s, id)), 0));
    expect(r.segments[0]!.itemIds).not.toContain('m0');
    expect(r.systemTokens).toBe(words(itemText(s, 'm0')));
    expect(r.queryId).toBe('m1');
  });

  it('times each summary at its timing step (the step the summary prompt names) and counts actions since the last one', () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = selfSumSegments(s, words);
    expect(r.summaries.map((x) => [x.k, x.itemId, x.segment, x.timingItemId, x.timingStep, x.contentStep, x.firedAtStep, x.stepsSinceLast, x.consecutive])).toEqual([
      [1, 'm24.summary', 1, 'm22.call', 11, 12, 11, 10, false],
      [2, 'm34.summary', 2, 'm32.call', 16, 17, 16, 3, false],
    ]);
    expect(r.summaries.map((x) => x.timingThoughtId)).toEqual(['m22.think', 'm32.think']);
    // The demo's summary prompts say "You are now at step 11" and "step 16".
    expect(itemText(s, 'm23')).toContain('You are now at step 11');
    expect(itemText(s, 'm33')).toContain('You are now at step 16');
  });

  it('gives the summary as the next segment received it, with where the summary sits in that turn', () => {
    const s = demoSession('alfworld-self-sum.json');
    const [first, second] = selfSumSegments(s, words).summaries;
    expect(first!.fed!.itemId).toBe('m25');
    expect(first!.fed!.tokens).toBe(words(itemText(s, 'm25')));
    const [from, to] = first!.fed!.span!;
    expect(itemText(s, 'm25').slice(from, to)).toBe(first!.text);
    expect(second!.fed!.itemId).toBe('m35');
    expect(second!.fed!.span).not.toBeNull();
    expect(first!.tokens).toBe(words(first!.text));
  });

  it('reads the ShareGPT SciWorld fixture: a summary without a timing turn fires at its own step', () => {
    const s = fixtureSession('self-sum-sciworld.json');
    const r = selfSumSegments(s, words);
    expect(r.segments.map((g) => [g.index, g.openerId, g.steps, g.actionSteps])).toEqual([
      [1, 'm0', 4, 2],
      [2, 'm7', 2, 1],
      [3, 'm11', 1, 1],
    ]);
    expect(r.summaries.map((x) => [x.itemId, x.timingStep, x.contentStep, x.firedAtStep, x.stepsSinceLast, x.consecutive, x.fed?.itemId])).toEqual([
      ['m6.summary', 3, 4, 3, 2, false, 'm7'],
      ['m10.summary', null, 6, 6, 1, false, 'm11'],
    ]);
    expect(r.summaries.map((x) => x.timingThoughtId)).toEqual(['m5.think', null]);
    expect(r.steps.map((x) => x.kind)).toEqual(['action', 'action', 'timing', 'summary', 'action', 'summary', 'action']);
  });

  it('flags a summary that follows the previous one with no environment action between', () => {
    const s = load(
      'consecutive.json',
      JSON.stringify({
        messages: [
          { role: 'user', content: 'Your task is to: heat an egg.' },
          { role: 'assistant', content: '<think>Go.</think><action>go to fridge 1</action>' },
          { role: 'user', content: 'You arrive at fridge 1.' },
          { role: 'assistant', content: '<think>Record.</think><action>summary</action>' },
          { role: 'assistant', content: '<summary>At fridge 1.</summary>' },
          { role: 'user', content: 'Your task is to: heat an egg. Summary: At fridge 1.' },
          { role: 'assistant', content: '<think>Again.</think><action>summary</action>' },
          { role: 'assistant', content: '<summary>Still at fridge 1.</summary>' },
          { role: 'user', content: 'Task: heat an egg. (summary withheld)' },
        ],
      }),
    );
    const r = selfSumSegments(s, words);
    expect(r.summaries.map((x) => [x.k, x.firedAtStep, x.stepsSinceLast, x.consecutive])).toEqual([
      [1, 2, 1, false],
      [2, 4, 0, true],
    ]);
    // The third segment's opener does not restate the summary: it is fed, but not verbatim.
    expect(r.summaries[1]!.fed).toMatchObject({ itemId: 'm8', span: null });
    expect(r.segments).toHaveLength(3);
  });

  it('takes token counts from an analysis view by item id', () => {
    const s = fixtureSession('self-sum-sciworld.json');
    const tokens = new Map(s.items.map((i) => [i.id, 10]));
    const r = selfSumSegments(s, { tokens });
    expect(r.segments.map((g) => g.tokens)).toEqual([100, 50, 40]);
    expect(r.summaries.map((x) => x.tokens)).toEqual([10, 10]);
    expect(r.systemTokens).toBe(10);
  });
});
