// Prints docs/audit.md's table of every split as the row-excerpt scorer reads it today (the scores
// labelled-set.test.ts holds to floors), so the document is pasted from a run, never copied by hand.
//
//   npx tsx bench/labelled-splits-table.ts
import { HOLDOUT14_STUDY, HOLDOUT2_STUDY, HOLDOUT3_STUDY, HOLDOUT4_STUDY, HOLDOUT_STUDY, neverStudiedRows } from '../src/audit/holdout-study';
import { scoreRows, type LabelledRow, type Score } from '../src/audit/labelled-set';
import { labelledRows, labelledSessions } from './labelled-fixture';

const rows = labelledRows();
const sessions = labelledSessions();
const repoOf = (session: string) => sessions[session]!.repo;

const cell = (s: Score, of: 'precision' | 'recall'): string => {
  const flagged = s.truePositives + s.falsePositives;
  const labelled = s.truePositives + s.falseNegatives;
  const n = of === 'precision' ? flagged : labelled;
  if (n === 0) return of === 'precision' ? 'no flags' : '—';
  return `${Math.round((s.truePositives / n) * 100)}% (${s.truePositives}/${n})`;
};

const parts: { name: string; rows: LabelledRow[] }[] = [];
const split = (name: string) => rows.filter((r) => r.split === name);
const studied = (name: string, study: ReadonlySet<string>, label: string) => {
  parts.push({ name: `${label}, study part`, rows: split(name).filter((r) => study.has(r.session)) });
  parts.push({ name: `${label}, score part`, rows: split(name).filter((r) => !study.has(r.session)) });
};
parts.push({ name: 'dev', rows: split('dev') });
parts.push({ name: 'old test half (seen)', rows: split('test') });
studied('holdout', HOLDOUT_STUDY, 'hold-out 1');
studied('holdout2', HOLDOUT2_STUDY, 'hold-out 2');
studied('holdout3', HOLDOUT3_STUDY, 'hold-out 3');
studied('holdout4', HOLDOUT4_STUDY, 'hold-out 4');
parts.push({ name: 'hold-out 5 (blind)', rows: split('holdout5') });
parts.push({ name: 'hold-out 6 (blind)', rows: split('holdout6') });
parts.push({ name: 'hold-out 7 (blind)', rows: split('holdout7') });
parts.push({ name: 'hold-out 8 (blind)', rows: split('holdout8') });
parts.push({ name: 'hold-out 9 (blind)', rows: split('holdout9') });
parts.push({ name: 'hold-out 10 (blind)', rows: split('holdout10') });
parts.push({ name: 'hold-out 11 (blind)', rows: split('holdout11') });
parts.push({ name: 'hold-out 12 (blind)', rows: split('holdout12') });
parts.push({ name: 'hold-out 13 (blind)', rows: split('holdout13') });
studied('holdout14', HOLDOUT14_STUDY, 'hold-out 14');
parts.push({ name: 'hold-out 15 (blind)', rows: split('holdout15') });
parts.push({ name: 'hold-out 16 (blind)', rows: split('holdout16') });
parts.push({ name: 'hold-out 17 (blind)', rows: split('holdout17') });
parts.push({ name: 'hold-out 18 (blind)', rows: split('holdout18') });
parts.push({ name: 'hold-out 19 (blind)', rows: split('holdout19') });
parts.push({ name: 'hold-out 20 (blind)', rows: split('holdout20') });
parts.push({ name: 'hold-out 21 (blind)', rows: split('holdout21') });
parts.push({ name: '**never-studied pool** (what the panel states)', rows: neverStudiedRows(rows, repoOf) });

console.log('| part | sessions | "needed" P | R | invented P | R | instructions P | R |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const p of parts) {
  const s = scoreRows(p.rows, sessions);
  const n = new Set(p.rows.map((r) => r.session)).size;
  console.log(`| ${p.name} | ${n} | ${cell(s.neededUnion, 'precision')} | ${cell(s.neededUnion, 'recall')} | ${cell(s.invented, 'precision')} | ${cell(s.invented, 'recall')} | ${cell(s.inventedInstructions, 'precision')} | ${cell(s.inventedInstructions, 'recall')} |`);
}
