import { describe, expect, it } from 'vitest';
import type { Identifier } from './identifiers';
import { ProjectScope } from './project-scope';
import { everyLineHolding, relevance } from './relevance';

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

describe('relevance of a date', () => {
  const scope = new ProjectScope([], '/repo');
  const date = (value: string): Identifier => ({ value, kind: 'date', index: 0 });
  it('leaves out a date every line holding it writes in a file name, and only that', () => {
    const listing = { text: './2024-05-23 - Idaho Press - notes.md\n./other.md', kind: 'tool_result' };
    expect(relevance(date('2024-05-23'), [listing], scope)).toBe('irrelevant');
    expect(relevance(date('2024-05-23'), [listing, { text: 'shipped on 2024-05-23\nsee ./2024-05-23 - x.md', kind: 'tool_result' }], scope)).toBe('relevant');
    // A date written across a line break is on no line: as when each text was split into its lines.
    expect(relevance(date('Oct\n7'), [{ text: 'due Oct\n7', kind: 'tool_result' }], scope)).toBe('irrelevant');
  });
});
