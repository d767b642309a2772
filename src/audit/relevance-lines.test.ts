import { describe, expect, it } from 'vitest';
import { everyLineHolding } from './relevance';

// The lines holding a value, read the straightforward way: what `everyLineHolding` finds from the value's occurrences.
const bySplit = (text: string, value: string, test: (l: string) => boolean): boolean => {
  const lines = text.split('\n').filter((l) => l.includes(value));
  return lines.length > 0 && lines.every(test);
};

describe('everyLineHolding', () => {
  const texts = ['', 'a', 'x.ts', 'x.ts\n', '\nx.ts', 'x.ts x.ts\nfoo x.ts\n\nbar', 'tests/a.ts:3: x.ts\nsrc/b.ts:4: x.ts', 'x.tsx.ts\nx.t\ns'];
  const values = ['', 'x.ts', 'x.t', 'ts\nx', 'nothing', 's'];
  const tests: ((l: string) => boolean)[] = [() => true, () => false, (l) => l.startsWith('tests/'), (l) => l.length > 4];
  it('agrees with splitting the text into lines', () => {
    for (const text of texts) for (const value of values) for (const test of tests) expect(everyLineHolding(text, value, test), JSON.stringify([text, value])).toBe(bySplit(text, value, test));
  });
  it('passes each line holding the value once, however often it holds it', () => {
    const seen: string[] = [];
    everyLineHolding('a b a\nc\na', 'a', (l) => (seen.push(l), true));
    expect(seen).toEqual(['a b a', 'a']);
  });
});
