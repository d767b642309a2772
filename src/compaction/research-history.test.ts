import { describe, expect, it } from 'vitest';
import { countWords } from '../cache/test-builders';
import type { Session } from '../model/types';
import { demoSession, fixtureSession } from '../research/test-support';
import { recordedPolicyIds } from './research-history';
import { rerunSession } from './rerun';

const recordedSummaries = (s: Session) => s.items.filter((it) => it.kind === 'summary');

/** No context holds a recorded summary, as an item or inside another item's text. */
function expectNoRecordedSummary(s: Session, contexts: { context: { id: string; text: string }[] }[]) {
  const summaries = recordedSummaries(s);
  expect(summaries.length).toBeGreaterThan(0);
  for (const [k, c] of contexts.entries()) {
    for (const it of c.context) {
      for (const sum of summaries) {
        expect(it.id, `call ${k + 1}`).not.toBe(sum.id);
        expect(it.text.includes(sum.text.trim()), `call ${k + 1}: ${it.id} restates ${sum.id}`).toBe(false);
      }
    }
  }
}

describe('researchHistory in rerunSession', () => {
  it('re-runs the Self-Sum demo every 4 calls with no recorded summary, opener or summary action left in any context', async () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = await rerunSession(s, { strategy: 'summarize-middle', trigger: { kind: 'turns', every: 4 }, count: countWords, rule: 'exact' });
    expect(r.events.length).toBeGreaterThan(2);
    expectNoRecordedSummary(s, r.calls);
    const ids = new Set(r.calls.flatMap((c) => c.context.map((it) => it.id)));
    for (const id of ['m22.call', 'm23', 'm25', 'm32.call', 'm33', 'm35']) expect(ids.has(id), id).toBe(false);
    // The re-run's own summaries are there instead.
    expect(r.calls.at(-1)!.context.some((it) => it.kind === 'summary' && it.id.startsWith('rerun.'))).toBe(true);
    expect(r.warnings.join(' ')).toContain('recorded 2 summaries');
  });

  it('puts the original turns back: without a compaction the last call holds every turn of every segment in order', async () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = await rerunSession(s, { strategy: 'summarize-middle', trigger: { kind: 'tokens', threshold: 1e9 }, count: countWords, rule: 'exact' });
    expect(r.events).toEqual([]);
    const policy = recordedPolicyIds(s);
    const lastOutput = s.items.findIndex((it) => it.id === 'm40.think');
    const expected = s.items.slice(0, lastOutput).filter((it) => !policy.has(it.id) && it.kind !== 'compaction').map((it) => it.id);
    expect(r.calls.at(-1)!.context.map((it) => it.id)).toEqual(expected);
    // The query and H¹'s turns, which the recorded policy replaced by s₁ in U¹, are in H³'s calls again.
    expect(expected).toEqual(expect.arrayContaining(['m1', 'm2.call', 'm21', 'm26.call', 'm31']));
  });

  it('re-runs an iterated-summarization trace on its attempts, not on the recorded summaries and the prompts restating them', async () => {
    const s = fixtureSession('reasoning-trace-aime.json');
    const r = await rerunSession(s, { strategy: 'iterated', params: { method: 'post-think', head: 1, tail: 1, unit: 'step' }, trigger: { kind: 'turns', every: 1 }, count: countWords, rule: 'exact' });
    expectNoRecordedSummary(s, r.calls);
    // Each later attempt is asked the question alone again, as before any summary.
    const question = s.items.find((it) => it.id === 'i1.prompt')!.text;
    for (const c of r.calls) for (const it of c.context.filter((x) => /^i\d\.prompt$/.test(x.id))) expect(it.text).toBe(question);
    const last = r.calls.at(-1)!.context;
    expect(last.map((it) => it.id)).toEqual(['i1.prompt', 'rerun.c2.summary', 'i3.prompt']);
    expect(last[1]!.text).toBe(`Here are summaries of your previous solution attempts:\n\nAttempt 1:\n${s.items.find((it) => it.id === 'i1.answer')!.text}\n\nAttempt 2:\n${s.items.find((it) => it.id === 'i2.answer')!.text}`);
  });

  it('leaves other formats alone', () => {
    expect(recordedPolicyIds({ ...demoSession('alfworld-self-sum.json'), format: 'sharegpt' }).size).toBe(0);
  });
});
