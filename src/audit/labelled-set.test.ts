import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineSays, score, type LabelledRow } from './labelled-set';

const rows: LabelledRow[] = readFileSync(new URL('./__fixtures__/labelled-audit.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LabelledRow);

describe('the labelled audit set', () => {
  it('holds at least 200 hand-labelled rows, each naming its public source', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    for (const r of rows) {
      expect(r.from.repo, r.value).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(typeof r.label, r.value).toBe('boolean');
      expect(r.why.length, r.value).toBeGreaterThan(5);
    }
  });

  it('flags lost identifiers as needed later with precision of at least 90%', () => {
    const s = score(rows, 'lost-needed');
    console.info('lost and needed later', s);
    expect(s.truePositives).toBeGreaterThanOrEqual(10);
    expect(s.precision).toBeGreaterThanOrEqual(0.9);
    expect(s.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('flags invented identifiers with precision of at least 90%, the invented 2023 among them', () => {
    const s = score(rows, 'invented');
    console.info('invented', s);
    expect(s.truePositives).toBeGreaterThanOrEqual(1);
    expect(s.precision).toBeGreaterThanOrEqual(0.9);
    expect(engineSays(rows.find((r) => r.verdict === 'invented' && r.value === 'October 7, 2023')!)).toBe(true);
  });
});

describe('score', () => {
  it('counts a flag on a row labelled wrong against precision, and a missed right row against recall', () => {
    const row = (value: string, label: boolean, later: string): LabelledRow => ({
      value,
      kind: 'path',
      verdict: 'lost-needed',
      label,
      why: 'made up for the test',
      from: { repo: 'example/none', path: 'none' },
      sessionDays: [],
      evicted: { text: `opened ${value}` },
      later: [{ role: 'user', kind: 'message', text: later }],
    });
    const s = score([row('src/a/b.ts', true, 'fix src/a/b.ts'), row('src/a/c.ts', false, 'see src/a/c.ts'), row('src/a/d.ts', true, 'nothing')], 'lost-needed');
    expect(s).toEqual({ rows: 3, truePositives: 1, falsePositives: 1, falseNegatives: 1, precision: 0.5, recall: 0.5 });
  });
});
