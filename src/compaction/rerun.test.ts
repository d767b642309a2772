import { describe, expect, it } from 'vitest';
import { asst, call, calls, countWords, marker, summary, sys, user } from '../cache/test-builders';
import { loadText } from '../load/loader';
import { TRUNCATION_MARKER } from '../model/markers';
import { originalBaseline } from './baseline';
import { contextTokens } from './measure';
import { newItemsPerCall, rerunSession, type RerunProgress } from './rerun';
import { abortingSummarizer, courseTranscript, failingSummarizer, fixedSummarizer } from './test-support';

const base = { params: { head: 1, tail: 1, unit: 'user' }, trigger: { kind: 'turns', every: 2 }, count: countWords, rule: 'exact' } as const;
const ids = (items: { id: string }[]) => items.map((it) => it.id);

describe('rerunSession', () => {
  it('walks the original calls, compacts when the trigger fires and carries the compacted context forward', async () => {
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle' });
    expect(r.status).toBe('done');
    expect(r.summarizer).toBe('offline');
    expect(r.calls.map((c) => ids(c.context))).toEqual([
      ['s', 'u1'],
      ['s', 'u1', 'a1.call', 'r1.out'],
      ['s', 'u1', 'rerun.c2.summary', 'u2'],
      ['s', 'u1', 'rerun.c2.summary', 'u2', 'a3.call', 'r3.out'],
      ['s', 'u1', 'rerun.c4.summary', 'u3'],
    ]);
    // Call 1 fires but head + tail cover it, so the count runs on to call 2.
    expect(r.calls.map((c) => c.eventId)).toEqual([null, null, 'rerun-0', null, 'rerun-1']);
    expect(r.calls[1]!.trigger).toEqual({ fire: true, reason: '2 of every 2 calls' });
    expect(r.calls[4]!.originalIds).toEqual(['s', 'u1', 'a1.call', 'r1.out', 'a2', 'u2', 'a3.call', 'r3.out', 'a4', 'u3']);
  });

  it('inserts the recap as assistant after the head and folds it into the next one (never stacked)', async () => {
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle' });
    const [first, second] = r.events;
    expect(first).toMatchObject({ id: 'rerun-0', index: 0, callIndex: 2, strategy: 'summarize-middle', label: 'summarized', summaryKind: 'summary', replacedIds: ['a1.call', 'r1.out', 'a2'], foldedIds: [], fallback: null });
    expect(second).toMatchObject({ callIndex: 4, replacedIds: ['u2', 'a3.call', 'r3.out', 'a4'], foldedIds: ['rerun.c2.summary'] });
    expect(r.calls[2]!.context[2]).toMatchObject({ role: 'assistant', kind: 'summary' });
    for (const c of r.calls) expect(c.context.filter((it) => it.kind === 'summary').length).toBeLessThanOrEqual(1);
    // The second summary still holds what the first one kept.
    expect(second!.summaryText).toContain('db-prod-1:5432');
    expect(second!.summaryText!.match(/## Conversation Summary/g)).toHaveLength(1);
  });

  it('measures both sides on one basis: the session\'s own figures until the rerun departs from the recording', async () => {
    const session = courseTranscript();
    const r = await rerunSession(session, { ...base, strategy: 'summarize-middle' });
    const baseline = originalBaseline(session, { count: countWords, rule: 'exact' });
    // The original column is the session's facts (the header's and the CLI's figures).
    expect(r.original.totalInputTokens).toBe(baseline.facts.totalInputTokens);
    expect(r.original.peakTokens).toBe(baseline.facts.peakContextTokens);
    const c2 = r.calls[2]!;
    // Up to its first compaction the rerun sends what the recording sent: the same figure on both sides.
    expect(c2.tokensBefore).toBe(c2.original.tokens);
    expect(r.calls[1]!.rerun.tokens).toBe(r.calls[1]!.original.tokens);
    expect(r.events[0]!.tokensBefore).toBe(c2.tokensBefore);
    expect(r.events[0]!.tokensAfter).toBe(c2.rerun.tokens);
    expect(r.original.totalInputTokens).toBe(r.calls.reduce((n, c) => n + c.original.tokens, 0));
    expect(r.rerun.totalInputTokens).toBe(r.calls.reduce((n, c) => n + c.rerun.tokens, 0));
    expect(r.rerun.peakTokens).toBe(Math.max(...r.calls.map((c) => c.rerun.tokens)));
    expect(r.calls[4]!.rerun.prefixReusedNext).toBeNull();
  });

  it('audits each compaction: the offline summary keeps the host, port and ticket; a drop loses them and the later question needs them', async () => {
    const summarized = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle' });
    expect(summarized.events[0]!.audit.kept).toEqual(['config/db.yaml', 'db-prod-1', '5432', 'pool_size: 20', 'db-prod-1:5432', 'jobs/reconcile.py']);
    expect(summarized.events[0]!.audit.lost).toEqual([]);
    expect(summarized.rerun.identifiers).toMatchObject({ lost: 0, invented: 0, lostReferencedLater: 0 });

    const dropped = await rerunSession(courseTranscript(), { ...base, strategy: 'drop-oldest' });
    expect(dropped.events[0]!.summaryKind).toBe('marker');
    expect(dropped.events[0]!.audit.kept).toEqual([]);
    expect(dropped.events[0]!.audit.lostReferencedLater.filter((l) => l.itemId === 'u3').map((l) => l.value)).toEqual(['db-prod-1', '5432', 'db-prod-1:5432']);
    expect(dropped.rerun.identifiers.lostReferencedLaterValues).toContain('db-prod-1:5432');
  });

  it('audits a replayed compaction as a recorded one: what the replayed context still holds verbatim is not lost', async () => {
    // The user's kept turn repeats the host the dropped slice held: the model never stopped seeing it.
    const session = courseTranscript();
    session.items = session.items.map((it) => (it.id === 'u2' ? { ...it, text: 'Go ahead on db-prod-1, and keep pool_size as it is.' } : it));
    const dropped = await rerunSession(session, { ...base, strategy: 'drop-oldest' });
    const first = dropped.events[0]!;
    expect(first.replacedIds).toEqual(['a1.call', 'r1.out', 'a2']);
    expect(first.audit.lost).not.toContain('db-prod-1');
    expect(first.audit.lost).toContain('5432');
    expect(first.audit.lostReferencedLater.map((l) => l.value)).not.toContain('db-prod-1');
  });

  it('keeps the prefix through a static marker but breaks it at a regenerated recap (course unit 4)', async () => {
    const dropped = await rerunSession(courseTranscript(), { ...base, strategy: 'drop-oldest' });
    const headAndMarker = contextTokens(dropped.calls[3]!.context.slice(0, 3), countWords);
    expect(dropped.calls[3]!.context[2]!.text).toBe(TRUNCATION_MARKER);
    expect(dropped.calls[3]!.rerun.prefixReusedNext).toBeGreaterThanOrEqual(headAndMarker);

    const summarized = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle' });
    const headAndRecap = contextTokens(summarized.calls[3]!.context.slice(0, 3), countWords);
    expect(summarized.calls[3]!.rerun.prefixReusedNext).toBeLessThan(headAndRecap);
  });

  it('falls back to the marker with the reason when the summarizer fails, and finishes the run', async () => {
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle', summarizer: failingSummarizer('cors', 'the endpoint refused the cross-origin request') });
    expect(r.status).toBe('done');
    expect(r.events.map((e) => e.fallback)).toEqual([
      { failure: 'cors', reason: 'the endpoint refused the cross-origin request' },
      { failure: 'cors', reason: 'the endpoint refused the cross-origin request' },
    ]);
    expect(r.calls[4]!.context.map((it) => it.text)).toContain(TRUNCATION_MARKER);
    expect(r.rerun.fallbacks).toBe(2);
    expect(r.summarizer).toBe('failing');
  });

  it('stops with a clear status when cancelled and returns what it has', async () => {
    const controller = new AbortController();
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle', summarizer: abortingSummarizer(controller), signal: controller.signal });
    expect(r.status).toBe('cancelled');
    expect(r.statusReason).toBe('cancelled while compacting at call 3 of 5');
    expect(r.calls.map((c) => c.index)).toEqual([0, 1]);
    expect(r.events).toEqual([]);
    expect(r.original.calls).toBe(2);
    expect(r.calls[1]!.original.prefixReusedNext).toBeNull();
  });

  it('reports progress, streaming the summary text', async () => {
    const seen: RerunProgress[] = [];
    const text = '## Conversation Summary\n- **Facts:** db-prod-1:5432';
    await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle', summarizer: fixedSummarizer(text), onProgress: (p) => seen.push(p) });
    expect(seen.filter((p) => p.phase === 'call').map((p) => p.callIndex)).toEqual([0, 1, 2, 3, 4]);
    // The test summarizer streams the first half, then the whole text.
    expect(seen.filter((p) => p.phase === 'summarizing' && p.callIndex === 2)).toEqual([
      { phase: 'summarizing', callIndex: 2, calls: 5, text: text.slice(0, Math.ceil(text.length / 2)) },
      { phase: 'summarizing', callIndex: 2, calls: 5, text },
    ]);
    expect(seen[seen.length - 1]).toEqual({ phase: 'done', callIndex: 4, calls: 5 });
  });

  it('prices each prompt with the dated table or an override (reads, writes, uncached), and the summarizer by its model', async () => {
    const price = { input: 1, cacheWrite5m: 1.25, cacheWrite1h: 2, cacheRead: 0.1, output: 4 };
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle', price, summarizer: fixedSummarizer('## Conversation Summary\nx', 'gpt-4o-mini') });
    const expected = r.calls.reduce((n, c) => n + ((c.rerun.tokens - c.rerun.cached - c.rerun.written) * 1 + c.rerun.cached * 0.1 + c.rerun.written * 1.25) / 1e6, 0);
    expect(r.rerun.inputCost).toBeCloseTo(expected, 12);
    const calls_ = r.events.flatMap((e) => e.summarizerCalls);
    expect(r.rerun.summarizerPromptTokens).toBe(calls_.reduce((n, c) => n + c.promptTokens, 0));
    expect(r.rerun.summarizerCost).toBeCloseTo((r.rerun.summarizerPromptTokens * 0.15 + r.rerun.summarizerOutputTokens * 0.6) / 1e6, 12);
    // Default: the session model's price (gpt-4.1-mini: $0.40 per million input tokens, $0.10 cached; OpenAI bills no writes).
    const byModel = await rerunSession(courseTranscript(), { ...base, strategy: 'drop-oldest' });
    expect(byModel.original.writtenTokens).toBe(0);
    expect(byModel.original.inputCost).toBeCloseTo(((byModel.original.totalInputTokens - byModel.original.cachedTokens) * 0.4 + byModel.original.cachedTokens * 0.1) / 1e6, 12);
    expect(byModel.original.cachedTokens).toBeGreaterThan(0);
    expect(byModel.rerun.summarizerCost).toBe(0);
  });

  it('warns when a fraction trigger has no window, and fires with one', async () => {
    const none = await rerunSession(courseTranscript(), { ...base, strategy: 'drop-oldest', trigger: { kind: 'fraction', fraction: 0.5 } });
    expect(none.warnings).toEqual([]);
    expect(none.window).toBe(1_047_576);
    const noModel = await rerunSession({ ...courseTranscript(), model: null }, { ...base, strategy: 'drop-oldest', trigger: { kind: 'fraction', fraction: 0.5 } });
    expect(noModel.warnings).toEqual(['no context window known: the fraction trigger never fires (set a window)']);
    expect(noModel.events).toEqual([]);
    const small = await rerunSession(courseTranscript(), { ...base, strategy: 'drop-oldest', trigger: { kind: 'fraction', fraction: 0.5 }, window: 100 });
    const first = small.calls.findIndex((c) => c.measuredBefore >= 50);
    expect(first).toBeGreaterThan(0);
    expect(small.events[0]!.callIndex).toBe(first);
  });

  it('returns plain data a worker can clone', async () => {
    const r = await rerunSession(courseTranscript(), { ...base, strategy: 'summarize-middle' });
    expect(structuredClone(r)).toEqual(r);
  });

  it('re-runs iterated summarization over a reasoning trace, one block extended per attempt', async () => {
    const trace = {
      question: 'What is 6 times 7?',
      summarizer: 'answer-only',
      iterations: [{ output: '<think>6*7=42</think>The answer is \\boxed{42}.', summary: 'The answer is 42' }, { output: '<think>check: 7*6=42</think>\\boxed{42}', summary: 'The answer is 42' }, { output: '<think>ok</think>\\boxed{42}' }],
    };
    const [session] = loadText('trace.json', JSON.stringify(trace)).sessions;
    const r = await rerunSession(session!, { strategy: 'iterated', params: { method: 'answer-only', head: 1, tail: 1, unit: 'user' }, trigger: { kind: 'turns', every: 1 }, count: countWords, rule: 'exact' });
    const last = r.calls[r.calls.length - 1]!.context;
    expect(last.filter((it) => it.kind === 'summary').map((it) => it.text)).toEqual(['Here are summaries of your previous solution attempts:\n\nAttempt 1:\nThe answer is 42\n\nAttempt 2:\nThe answer is 42']);
    expect(last[0]!.text).toBe('What is 6 times 7?');
  });
});

describe('newItemsPerCall', () => {
  it('adds each item once, leaves out the original harness recaps after the first call, and skips replayed history at a compaction', () => {
    const s = sys('s', 'sys');
    const u1 = user('u1', 'one');
    const a1 = asst('a1', 'reply');
    const u2 = user('u2', 'two');
    const copy = user('u1-copy', 'one');
    const cs = calls(call([s, u1]), call([s, u1, a1, u2]), call([s, summary('sum', '## Conversation Summary'), marker('mk'), copy, user('u3', 'three')], { compactionId: 'c0' }));
    cs[0]!.output = [a1];
    expect(newItemsPerCall(cs).map((items) => items.map((it) => it.id))).toEqual([['s', 'u1'], ['a1', 'u2'], ['u3']]);
  });

  it('keeps a recap the model itself wrote in its previous output (Self-Sum)', () => {
    const own = summary('own', '<summary>so far</summary>');
    const cs = calls(call([user('q', 'task')], { output: [own] }), call([user('q', 'task'), own]));
    expect(newItemsPerCall(cs).map((items) => items.map((it) => it.id))).toEqual([['q'], ['own']]);
  });
});
