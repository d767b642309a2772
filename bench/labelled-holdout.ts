// Scores the audit's current rules on the blind hold-out rows of the labelled set (split: holdout; see
// src/audit/__fixtures__/README.md), in total and per repository, and lists the rows it gets wrong.
//
//   npx tsx bench/labelled-holdout.ts [--misses]
import { readFileSync } from 'node:fs';
import { misses, scoreRows, scoreTable as table, type LabelledRow, type LabelledSession } from '../src/audit/labelled-set';

const dir = new URL('../src/audit/__fixtures__/', import.meta.url);
const rows: LabelledRow[] = readFileSync(new URL('labelled-audit.jsonl', dir), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LabelledRow)
  .filter((r) => r.split === 'holdout');
const sessions: Record<string, LabelledSession> = JSON.parse(readFileSync(new URL('labelled-sessions.json', dir), 'utf8'));

console.log(table(`hold-out, all (${rows.length} rows)`, scoreRows(rows, sessions)));
for (const repo of [...new Set(rows.map((r) => sessions[r.session]!.repo))]) {
  const mine = rows.filter((r) => sessions[r.session]!.repo === repo);
  console.log(table(`${repo} (${mine.length} rows)`, scoreRows(mine, sessions)));
}
if (process.argv.includes('--misses')) for (const m of misses(rows, sessions)) console.log(JSON.stringify(m));
