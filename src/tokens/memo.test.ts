import { describe, expect, it } from 'vitest';
import type { TokenCount } from './counter';
import { ContentMap, contentHash, sampleKey, TokenMemo } from './memo';

/** A fake count (one token per character) that records what it was asked. */
function spyCount() {
  const asked: string[] = [];
  return { asked, count: (t: string): TokenCount => (asked.push(t), { tokens: t.length, approximate: false }) };
}

/** Fresh copies, as JSON.parse gives for each call of a request log. */
const copy = (s: string) => JSON.parse(JSON.stringify(s)) as string;

describe('TokenMemo', () => {
  it('counts the prefix a request log repeats on every call once', () => {
    const system = 'You are a coding agent. '.repeat(40);
    const messages = [system, 'Fix the failing test in src/cache.ts', '{"ok":true,"port":5432}', 'Done: the port is 5432.'];
    const memo = new TokenMemo();
    const spy = spyCount();
    // Call i sends messages[0..i]; every call is parsed separately, so repeats are equal but distinct strings.
    for (let i = 0; i < messages.length; i++) for (const m of messages.slice(0, i + 1)) memo.count(copy(m), spy.count);
    expect(spy.asked).toEqual(messages);
    expect(memo.stats).toEqual({ hits: 6, misses: 4, entries: 4, chars: messages.join('').length });
  });

  it('returns the stored count on a hit and undefined on a miss', () => {
    const memo = new TokenMemo();
    expect(memo.lookup('abc')).toBeUndefined();
    memo.store('abc', { tokens: 1, approximate: true });
    expect(memo.lookup(copy('abc'))).toEqual({ tokens: 1, approximate: true });
    expect(memo.stats).toMatchObject({ hits: 1, misses: 1 });
    memo.clear();
    expect(memo.stats).toEqual({ hits: 0, misses: 0, entries: 0, chars: 0 });
  });

  it('tells apart long texts of the same length that differ only where the key does not sample', () => {
    const base = 'x'.repeat(10_000);
    // Same length, same ends; differs in one character between the sampled points.
    const texts = Array.from({ length: 12 }, (_, k) => `${base.slice(0, 5001 + k)}y${base.slice(5002 + k)}`);
    expect(new Set(texts.map(sampleKey)).size).toBe(1);
    const memo = new TokenMemo();
    texts.forEach((t, k) => memo.store(t, { tokens: k, approximate: false }));
    texts.forEach((t, k) => expect(memo.lookup(copy(t))).toEqual({ tokens: k, approximate: false }));
    expect(memo.lookup(base)).toBeUndefined();
    expect(memo.stats.entries).toBe(12);
  });
});

describe('ContentMap', () => {
  it('overwrites the value of a text already held without holding it twice', () => {
    const m = new ContentMap<number>();
    m.set('hello', 1);
    m.set(copy('hello'), 2);
    expect(m.get('hello')).toBe(2);
    expect([m.size, m.heldChars]).toEqual([1, 5]);
  });
});

describe('contentHash', () => {
  it('is stable and tells one-character edits apart', () => {
    expect(contentHash('db-prod-1:5432')).toBe(contentHash(copy('db-prod-1:5432')));
    expect(contentHash('db-prod-1:5432')).not.toBe(contentHash('db-prod-1:5433'));
    expect(Number.isSafeInteger(contentHash('anything'))).toBe(true);
  });
});
