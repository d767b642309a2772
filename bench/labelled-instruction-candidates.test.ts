// bench/labelled-instruction-candidates.ts: the forms of a value it looks for and what counts as a whole token.
import { describe, expect, it } from 'vitest';
import { formsOf, matchRow, tokenAt } from './labelled-instruction-candidates';
import type { LabelledRow } from '../src/audit/labelled-set';

describe('formsOf', () => {
  it('adds the last path segment and a call name without its parentheses', () => {
    expect(formsOf('src/lib/db.ts')).toEqual(['src/lib/db.ts', 'db.ts']);
    expect(formsOf('runMigrations()')).toEqual(['runMigrations()', 'runMigrations']);
    expect(formsOf('org_123')).toEqual(['org_123']);
  });
});

describe('tokenAt', () => {
  it('finds a value bounded by punctuation or space', () => {
    expect(tokenAt('see `src/lib/db.ts` here', 'src/lib/db.ts')).toBe(5);
    expect(tokenAt('ends with db.ts.', 'db.ts')).toBe(10);
  });
  it('refuses a value inside a longer name or the stem of a dotted one', () => {
    expect(tokenAt('my_db.ts', 'db.ts')).toBe(-1);
    expect(tokenAt('auth-service', 'auth')).toBe(-1);
    expect(tokenAt('open config.json', 'config')).toBe(-1);
  });
});

describe('matchRow', () => {
  it('reports the file and line of the first form found', () => {
    const row = { id: 'x', split: 'dev', session: 's', compaction: 0, why: '', list: 'lost', value: 'app/db.ts', kind: 'path', label: 'referenced' } as unknown as LabelledRow;
    expect(matchRow(row, [{ path: 'CLAUDE.md', text: '# Notes\n- the pool lives in db.ts\n' }])).toEqual({
      form: 'db.ts',
      file: 'CLAUDE.md',
      line: 2,
      text: '- the pool lives in db.ts',
    });
  });
});
