import { describe, expect, it } from 'vitest';
import { asst, countWords, item, user } from '../../cache/test-builders';
import type { Item } from '../../model/types';
import { ITERATED_BACKTRACKING_PROMPT, ITERATED_SYSTEM_PROMPT, TRUNCATION_MARKER } from '../prompts';
import { failingSummarizer, fixedSummarizer } from '../test-support';
import { attemptOf, finalAnswer, firstTokens, ITERATED_DEFAULTS, iterated, lastTokens, type IteratedParams } from './iterated';

const think = (id: string, text: string) => item(id, 'assistant', 'thinking', text);
const QUESTION = 'Find the number of ordered pairs (x, y) with x + y = 10.';

// Reasoning-trace shape: question, attempt (thinking + post-think answer), the next prompt.
function twoAttempts(): Item[] {
  return [
    user('q', QUESTION),
    think('t1', 'Try x from 0 to 10. Wait, negative values? No, nonnegative only. So 11 pairs.'),
    asst('p1', 'There are 11 pairs, so the answer is \\boxed{11}.'),
    user('q2', 'Evaluate your previous attempt.'),
  ];
}

const params = (p: Partial<IteratedParams>): IteratedParams => ({ ...ITERATED_DEFAULTS, head: 1, tail: 1, unit: 'user', ...p });

describe('iterated summarizers', () => {
  it('post-think keeps the answer after the reasoning as the attempt summary, in the Figure 7 block', async () => {
    const out = await iterated(twoAttempts(), params({ method: 'post-think' }), { summarizer: fixedSummarizer('unused'), count: countWords, idPrefix: 'x' });
    expect(out.context.map((it) => it.id)).toEqual(['q', 'x.summary', 'q2']);
    expect(out.recap).toMatchObject({ kind: 'summary', role: 'assistant', meta: { method: 'post-think', iteratedAttempts: 1 } });
    expect(out.recap!.text).toBe('Here are summaries of your previous solution attempts:\n\nAttempt 1:\nThere are 11 pairs, so the answer is \\boxed{11}.');
    expect(out.replacedIds).toEqual(['t1', 'p1']);
  });

  it('answer-only states the boxed answer', async () => {
    const out = await iterated(twoAttempts(), params({ method: 'answer-only' }), { summarizer: fixedSummarizer('unused'), count: countWords });
    expect(out.recap!.text.endsWith('Attempt 1:\nThe answer is 11')).toBe(true);
  });

  it('last-k and first-k keep k tokens from the end or the start of the reasoning', async () => {
    const last = await iterated(twoAttempts(), params({ method: 'last-k', k: 3 }), { summarizer: fixedSummarizer('unused'), count: countWords });
    expect(last.recap!.text.endsWith('Attempt 1:\nSo 11 pairs.')).toBe(true);
    const first = await iterated(twoAttempts(), params({ method: 'first-k', k: 3 }), { summarizer: fixedSummarizer('unused'), count: countWords });
    expect(first.recap!.text.endsWith('Attempt 1:\nTry x from')).toBe(true);
  });

  it('backtracking sends the paper prompt with the question and the whole attempt', async () => {
    const summarizer = fixedSummarizer('## Conversation Summary\nCounted 11 pairs after ruling out negatives.');
    const out = await iterated(twoAttempts(), params({ method: 'backtracking' }), { summarizer, count: countWords });
    const req = summarizer.requests[0]!;
    expect(req.messages[0]).toEqual({ role: 'system', content: ITERATED_SYSTEM_PROMPT });
    expect(req.messages[1]!.content).toBe(
      ITERATED_BACKTRACKING_PROMPT.replace('{question}', QUESTION).replace(
        '{reasoning}',
        '<think>\nTry x from 0 to 10. Wait, negative values? No, nonnegative only. So 11 pairs.\n</think>\nThere are 11 pairs, so the answer is \\boxed{11}.',
      ),
    );
    expect(req.slice.map((it) => it.id)).toEqual(['t1', 'p1']);
    expect(out.recap!.text).toContain('Attempt 1:\n## Conversation Summary\nCounted 11 pairs');
    expect(out.summarizerCalls).toHaveLength(1);
  });

  it('base uses the Figure 4 prompt', async () => {
    const summarizer = fixedSummarizer('## Conversation Summary\nok');
    await iterated(twoAttempts(), params({ method: 'base' }), { summarizer, count: countWords });
    expect(summarizer.requests[0]!.messages[1]!.content.startsWith('Summarize the following attempted solution to the problem:\n\nPROBLEM:\n')).toBe(true);
  });

  it('extends the one block with the next attempt instead of stacking a second summary', async () => {
    const deps = { summarizer: fixedSummarizer('unused'), count: countWords };
    const first = await iterated(twoAttempts(), params({ method: 'answer-only' }), { ...deps, idPrefix: 'c1' });
    const next = [...first.context, think('t2', 'Recount: 11.'), asst('p2', 'Still \\boxed{11}.'), user('q3', 'Evaluate again.')];
    const second = await iterated(next, params({ method: 'answer-only' }), { ...deps, idPrefix: 'c2' });
    expect(second.context.map((it) => it.id)).toEqual(['q', 'c2.summary', 'q3']);
    expect(second.foldedIds).toEqual(['c1.summary']);
    expect(second.recap!.text).toBe('Here are summaries of your previous solution attempts:\n\nAttempt 1:\nThe answer is 11\n\nAttempt 2:\nThe answer is 11');
    expect(second.recap!.meta?.['iteratedAttempts']).toBe(2);
  });

  it('falls back to the marker when the summarizer fails', async () => {
    const out = await iterated(twoAttempts(), params({ method: 'base' }), { summarizer: failingSummarizer('http', 'HTTP 500'), count: countWords });
    expect(out.recap!.text).toBe(TRUNCATION_MARKER);
    expect(out.fallback).toEqual({ failure: 'http', reason: 'HTTP 500' });
  });
});

describe('attempt helpers', () => {
  it('splits raw output at </think> when no thinking item exists', () => {
    const a = attemptOf([asst('o', '<think>compute 2+2</think>\nThe answer is <answer>4</answer>')]);
    expect(a.reasoning).toBe('compute 2+2');
    expect(a.postThink).toBe('The answer is <answer>4</answer>');
    expect(finalAnswer(a)).toBe('4');
  });

  it('reads nested braces in \\boxed{} and cuts whole words by token count', () => {
    expect(finalAnswer(attemptOf([asst('o', 'so \\boxed{\\frac{1}{2}} it is')]))).toBe('\\frac{1}{2}');
    expect(firstTokens('a b c d e', 2, countWords)).toBe('a b');
    expect(lastTokens('a b c d e', 2, countWords)).toBe('d e');
    expect(lastTokens('a b', 5, countWords)).toBe('a b');
  });
});
