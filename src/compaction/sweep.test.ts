import { describe, expect, it } from 'vitest';
import { countWords } from '../cache/test-builders';
import { rerunSession } from './rerun';
import { gridCombinations, sweepSession } from './sweep';
import { abortingSummarizer, courseTranscript } from './test-support';

describe('gridCombinations', () => {
  it('crosses every value of every key, the last key fastest, skipping empty lists', () => {
    expect(gridCombinations({ tail: [1, 2], render: ['schema', 'xml'], none: [] })).toEqual([
      { tail: 1, render: 'schema' },
      { tail: 1, render: 'xml' },
      { tail: 2, render: 'schema' },
      { tail: 2, render: 'xml' },
    ]);
    expect(gridCombinations({})).toEqual([{}]);
  });
});

describe('sweepSession', () => {
  const triggers = [
    { kind: 'turns', every: 1 },
    { kind: 'turns', every: 2 },
    { kind: 'tokens', threshold: 40 },
  ] as const;

  it('runs tail 1..5 × three triggers and returns one row per run, each matching its own rerun', async () => {
    const session = courseTranscript();
    const sweep = await sweepSession(session, { strategy: 'summarize-middle', params: { unit: 'user' }, grid: { tail: [1, 2, 3, 4, 5] }, triggers: [...triggers], count: countWords, rule: 'exact' });
    expect(sweep.status).toBe('done');
    expect(sweep.rows).toHaveLength(15);
    expect(sweep.rows.map((r) => r.id).slice(0, 3)).toEqual(['run-0', 'run-1', 'run-2']);
    expect(sweep.rows.map((r) => `${r.gridParams['tail']}|${r.triggerLabel}`).slice(4, 7)).toEqual(['5|every call', '1|every 2 calls', '2|every 2 calls']);
    expect(sweep.results).toHaveLength(15);
    // Row 5: tail 1, every 2 calls — the same figures as a single rerun with those settings.
    const single = await rerunSession(session, { strategy: 'summarize-middle', params: { unit: 'user', tail: 1 }, trigger: triggers[1], count: countWords, rule: 'exact' });
    expect(sweep.rows[5]).toMatchObject({
      params: single.params,
      compactions: single.rerun.compactions,
      inputTokens: single.rerun.totalInputTokens,
      originalInputTokens: single.original.totalInputTokens,
      savedTokens: single.original.totalInputTokens - single.rerun.totalInputTokens,
      kept: single.rerun.identifiers.kept,
      lost: single.rerun.identifiers.lost,
    });
    expect(sweep.results[5]!.calls.map((c) => c.context.map((it) => it.id))).toEqual(single.calls.map((c) => c.context.map((it) => it.id)));
  });

  it('shows a longer drop-oldest tail sending more tokens and losing fewer identifiers', async () => {
    const sweep = await sweepSession(courseTranscript(), { strategy: 'drop-oldest', params: { unit: 'user' }, grid: { tail: [1, 2, 3] }, triggers: [triggers[0]], count: countWords, rule: 'exact' });
    expect(sweep.rows.map((r) => r.inputTokens)).toEqual([...sweep.rows.map((r) => r.inputTokens)].sort((a, b) => a - b));
    expect(sweep.rows[0]!.inputTokens).toBeLessThan(sweep.rows[2]!.inputTokens);
    expect(sweep.rows[0]!.lostReferencedLater).toBeGreaterThan(sweep.rows[2]!.lostReferencedLater);
  });

  it('leaves the full results out on request and stops when cancelled', async () => {
    const lean = await sweepSession(courseTranscript(), { strategy: 'drop-oldest', grid: { tail: [1, 2] }, triggers: [triggers[0]], count: countWords, keepResults: false });
    expect(lean.rows).toHaveLength(2);
    expect(lean.results).toEqual([]);

    const controller = new AbortController();
    const cancelled = await sweepSession(courseTranscript(), { strategy: 'summarize-middle', params: { unit: 'user' }, grid: { tail: [1, 2, 3] }, triggers: [triggers[0]], count: countWords, summarizer: abortingSummarizer(controller), signal: controller.signal });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.rows.map((r) => r.status)).toEqual(['cancelled']);
  });
});
