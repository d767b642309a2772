// Scores the audit's current rules on a hold-out of the labelled set (split `holdout` by default, or the one
// `--split` names, such as `holdout2` … `holdout4`; see src/audit/__fixtures__/README.md), in total and per repository, and lists
// the rows it gets wrong.
//
// Session 41 made the first hold-out (`holdout`) seen, and session 42 the second (`holdout2`), each split by session
// before any miss was looked at (src/audit/holdout-study.ts): for them the script also prints the study part and the score part apart, and lists
// the misses of the study part only — the score part's rows are not to be looked at while rules are written.
//
//   npx tsx bench/labelled-holdout.ts [--split holdout2|holdout3|holdout4] [--misses]
import { studyPartOf } from '../src/audit/holdout-study';
import { misses, scoreRows, scoreTable as table, type Split } from '../src/audit/labelled-set';
import { labelledRows, labelledSessions } from './labelled-fixture';

const at = process.argv.indexOf('--split');
const split = (at >= 0 ? process.argv[at + 1] : 'holdout') as Split;
const rows = labelledRows().filter((r) => r.split === split);
if (rows.length === 0) throw new Error(`labelled-audit.jsonl: no rows with split "${split}"`);
const sessions = labelledSessions();

console.log(table(`${split}, all (${rows.length} rows)`, scoreRows(rows, sessions)));
const part = studyPartOf(split);
const studied = part !== undefined;
const study = part ? rows.filter((r) => part.has(r.session)) : [];
if (part) {
  const scored = rows.filter((r) => !part.has(r.session));
  console.log(table(`study part (${new Set(study.map((r) => r.session)).size} sessions, ${study.length} rows)`, scoreRows(study, sessions)));
  console.log(table(`score part (${new Set(scored.map((r) => r.session)).size} sessions, ${scored.length} rows)`, scoreRows(scored, sessions)));
}
for (const repo of [...new Set(rows.map((r) => sessions[r.session]!.repo))]) {
  const mine = rows.filter((r) => sessions[r.session]!.repo === repo);
  console.log(table(`${repo} (${mine.length} rows)`, scoreRows(mine, sessions)));
}
if (process.argv.includes('--misses')) for (const m of misses(studied ? study : rows, sessions)) console.log(JSON.stringify(m));
