import { describe, expect, it } from 'vitest';
import { asst, countWords, item, user } from '../cache/test-builders';
import { SCHEMA_HEADER } from '../model/markers';
import type { Item } from '../model/types';
import { reasoningSummary } from './offline-reasoning-summary';
import { offlineSummarizer } from './offline-summarizer';
import { ITERATED_DEFAULTS, ITERATED_METHODS, iterated, type IteratedMethod } from './strategies/iterated';

const think = (id: string, text: string) => item(id, 'assistant', 'thinking', text);

// An AIME-style attempt that changes course twice, with a "125k" a course schema would list as an entity.
const REASONING = [
  'We need the remainder of 2^2025 modulo 1000.',
  'The powers of 2 modulo 1000 repeat with a long period, about 125k steps would be too many to list.',
  'Wait, that is the wrong way to go.',
  'Use the Chinese remainder theorem with moduli 8 and 125 instead.',
  'Mod 8 the power is 0.',
  'Mod 125, phi(125) = 100, so 2^2025 ≡ 2^25 ≡ 57.',
  'Try x = 57 + 125k with k = 1, so x = 182.',
  'Actually, 182 is not divisible by 8, so that k is wrong.',
  'Solve 57 + 125k ≡ 0 (mod 8): 1 + 5k ≡ 0, so k = 3 and x = 432.',
  'Check: 432 = 8 · 54, and 432 ≡ 57 (mod 125).',
].join(' ');
const POST_THINK = 'The remainder is \\boxed{432}.';

function trace(): Item[] {
  return [user('q', 'Find the remainder when 2^2025 is divided by 1000.'), think('t1', REASONING), asst('p1', POST_THINK), user('q2', 'Find the remainder when 2^2025 is divided by 1000.')];
}

async function summaryBy(method: IteratedMethod): Promise<string> {
  const out = await iterated(trace(), { ...ITERATED_DEFAULTS, method, head: 1, tail: 1, unit: 'user' }, { summarizer: offlineSummarizer, count: countWords });
  const text = out.recap!.text;
  return text.slice(text.indexOf('Attempt 1:\n') + 'Attempt 1:\n'.length);
}

describe('offline iterated summarizers', () => {
  it('give six different summaries of the same attempt, none in the course schema', async () => {
    const all = new Map<IteratedMethod, string>();
    for (const m of ITERATED_METHODS) all.set(m, await summaryBy(m));
    expect(new Set(all.values()).size).toBe(ITERATED_METHODS.length);
    for (const [m, text] of all) {
      expect(text.startsWith(SCHEMA_HEADER), m).toBe(false);
      expect(text, m).not.toMatch(/Entities|Decisions|Open Items/);
    }
  });

  it('backtracking keeps the moments the reasoning changed course, with what it turned to; base keeps the steps that gave results', async () => {
    const back = await summaryBy('backtracking');
    expect(back).toContain('It changed course 2 times:');
    expect(back).toContain('- Wait, that is the wrong way to go → Use the Chinese remainder theorem with moduli 8 and 125 instead');
    expect(back).toContain('- Actually, 182 is not divisible by 8, so that k is wrong → Solve 57 + 125k ≡ 0 (mod 8): 1 + 5k ≡ 0, so k = 3 and x = 432');
    expect(back).toContain('It ended with the answer 432.');
    const base = await summaryBy('base');
    expect(base).not.toContain('Wait');
    expect(base).not.toContain('Actually');
    expect(base).toContain('Mod 125, phi(125) = 100, so 2^2025 ≡ 2^25 ≡ 57');
    expect(base).toContain('It ended with the answer 432.');
    expect(base.startsWith('The attempt began: We need the remainder of 2^2025 modulo 1000.')).toBe(true);
  });

  it('post-think keeps the answer after the reasoning, answer-only the answer alone', async () => {
    expect(await summaryBy('post-think')).toBe(POST_THINK);
    expect(await summaryBy('answer-only')).toBe('The answer is 432');
  });

  it('first-k and last-k take the start and the end of the reasoning, even when it is shorter than k', async () => {
    const first = await summaryBy('first-k');
    const last = await summaryBy('last-k');
    expect(countWords(REASONING)).toBeLessThan(ITERATED_DEFAULTS.k);
    expect(REASONING.startsWith(first)).toBe(true);
    expect(REASONING.endsWith(last)).toBe(true);
    expect(first).not.toBe(last);
    // Each keeps at most half, so neither is the attempt itself.
    expect(countWords(first)).toBeLessThanOrEqual(countWords(REASONING) / 2);
    expect(countWords(last)).toBeLessThanOrEqual(countWords(REASONING) / 2);
    expect(first).toContain('125k steps');
    expect(last).toContain('432 ≡ 57 (mod 125)');
  });

  it('says so when an attempt never changed course', () => {
    const text = reasoningSummary([think('t', 'Compute 6 times 7. That is 42.'), asst('p', '\\boxed{42}')], 'backtracking');
    expect(text).toBe('The attempt began: Compute 6 times 7.\nIt never changed course.\nIt ended with the answer 42.');
  });

  it('keeps the course schema for a conversation summary', async () => {
    const r = await offlineSummarizer.summarize({ messages: [], slice: [user('u', 'Please deploy v2.14.3 to db-prod-1.'), asst('a', 'I will deploy v2.14.3 now.')], priorSummary: null });
    expect(r.ok && r.text.startsWith(SCHEMA_HEADER)).toBe(true);
  });
});
