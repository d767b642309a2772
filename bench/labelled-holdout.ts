// Scores the audit's current rules on the first hold-out rows of the labelled set (split: holdout; see
// src/audit/__fixtures__/README.md), in total, per repository and per part of session 41's split, and lists the
// rows it gets wrong in the part that is studied.
//
// Session 41 made the first hold-out seen, split by session before any miss was looked at: rules are written
// looking at the `study` part's misses only; the `score` part is only scored (docs/audit.md).
//
//   npx tsx bench/labelled-holdout.ts [--misses]
import { readFileSync } from 'node:fs';
import { HOLDOUT_STUDY } from '../src/audit/holdout-study';
import { misses, scoreRows, scoreTable as table, type LabelledRow, type LabelledSession } from '../src/audit/labelled-set';

const dir = new URL('../src/audit/__fixtures__/', import.meta.url);
const rows: LabelledRow[] = readFileSync(new URL('labelled-audit.jsonl', dir), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LabelledRow)
  .filter((r) => r.split === 'holdout');
const sessions: Record<string, LabelledSession> = JSON.parse(readFileSync(new URL('labelled-sessions.json', dir), 'utf8'));

const study = rows.filter((r) => HOLDOUT_STUDY.has(r.session));
const scored = rows.filter((r) => !HOLDOUT_STUDY.has(r.session));
console.log(table(`hold-out, all (${rows.length} rows)`, scoreRows(rows, sessions)));
console.log(table(`study part (${new Set(study.map((r) => r.session)).size} sessions, ${study.length} rows)`, scoreRows(study, sessions)));
console.log(table(`score part (${new Set(scored.map((r) => r.session)).size} sessions, ${scored.length} rows)`, scoreRows(scored, sessions)));
if (process.argv.includes('--repos'))
  for (const repo of [...new Set(rows.map((r) => sessions[r.session]!.repo))]) {
    const mine = rows.filter((r) => sessions[r.session]!.repo === repo);
    console.log(table(`${repo} (${mine.length} rows)`, scoreRows(mine, sessions)));
  }
// Misses of the study part only: the score part's rows are not to be looked at while rules are written.
if (process.argv.includes('--misses')) for (const m of misses(study, sessions)) console.log(JSON.stringify(m));
