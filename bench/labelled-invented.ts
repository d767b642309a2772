// Scores the labelled invented and invented-instruction rows against the audit of the WHOLE real session (auditSession,
// what the app, `inspect` and `check` show) and against each row's excerpt (labelled-set.ts), side by side. A row is
// flagged by the session audit when its compaction's `invented` holds the value (`inventedInstructions` a sentence
// that holds the row's, or is held by it). Reads the sessions from the local mirror, like labelled-on-sessions.ts.
//
//   npx tsx bench/labelled-invented.ts [--split dev,test | --studied | --pool] [--list]
//     --studied: dev, test, every hold-out's study part and the never-studied pool's (the rows a rule writer may read);
//     --pool: every hold-out row of a never-studied repository (what the panel states);
//     --list: the flags and misses row by row, and the session audit's flags no row labels (never for --pool).
import { auditSession, type CompactionAudit } from '../src/audit/audit-session';
import { HOLDOUT_POOL_STUDY, neverStudiedRows, studyPartOf } from '../src/audit/holdout-study';
import { instructionVerdict, inventedVerdict, type InstructionRow, type InventedRow, type LabelledRow } from '../src/audit/labelled-set';
import { mirroredCompactedSession } from './labelled-session-file';
import { withLabelledInstructions } from './labelled-instructions';
import { labelledRows, labelledSessions } from './labelled-fixture';

type Row = InventedRow | InstructionRow;
const sessions = labelledSessions();
const all = labelledRows();

/** The rows a rule writer may read: dev, test, the study part of each hold-out that has one and the never-studied pool's (session 45). */
export const isStudied = (r: LabelledRow): boolean => r.split === 'dev' || r.split === 'test' || !!studyPartOf(r.split)?.has(r.session) || HOLDOUT_POOL_STUDY.has(r.session);

const bare = (v: string) => v.replace(/[`'".,;:]+$/, '');
const unquote = (s: string) => s.replace(/^["“]|["”]$/g, '').trim();

export interface InventedScore {
  list: 'invented' | 'instruction';
  flags: number;
  right: number;
  labelledTrue: number;
  found: number;
}

/** Whole-session and excerpt verdicts of the rows (labelled ones only), with the session audits kept for --list. */
export function verdictsOf(rows: readonly Row[]): { whole: Map<string, boolean>; excerpt: Map<string, boolean>; audits: Map<string, CompactionAudit[]> } {
  const whole = new Map<string, boolean>();
  const excerpt = new Map<string, boolean>();
  const audits = new Map<string, CompactionAudit[]>();
  for (const key of new Set(rows.map((r) => r.session))) {
    const s = sessions[key]!;
    const session = mirroredCompactedSession(key, s);
    if (!session) continue;
    const mine = auditSession(withLabelledInstructions(key, session));
    audits.set(key, mine);
    for (const row of rows.filter((r) => r.session === key)) {
      const audit = mine.find((a) => a.compaction === row.compaction);
      if (row.list === 'invented') {
        whole.set(row.id, !!audit?.invented.some((v) => bare(v) === bare(row.value)));
        excerpt.set(row.id, inventedVerdict(row, s));
      } else {
        const s0 = unquote(row.sentence);
        whole.set(row.id, !!audit?.inventedInstructions.some((f) => f.sentence.includes(s0) || s0.includes(unquote(f.sentence))));
        excerpt.set(row.id, instructionVerdict(row, s));
      }
    }
  }
  return { whole, excerpt, audits };
}

export function scoreOf(rows: readonly Row[], said: Map<string, boolean>, list: 'invented' | 'instruction'): InventedScore {
  const mine = rows.filter((r) => r.list === list && said.has(r.id));
  const flagged = mine.filter((r) => said.get(r.id));
  return { list, flags: flagged.length, right: flagged.filter((r) => r.label === true).length, labelledTrue: mine.filter((r) => r.label === true).length, found: flagged.filter((r) => r.label === true).length };
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${Math.round((n / d) * 100)}%`);
const line = (s: InventedScore) => `${s.list.padEnd(11)} P ${pct(s.right, s.flags)} (${s.right}/${s.flags}) R ${pct(s.found, s.labelledTrue)} (${s.found}/${s.labelledTrue})`;

export function pickRows(argv: readonly string[]): { name: string; rows: Row[]; pool: boolean } {
  const labelled = all.filter((r): r is Row => r.list !== 'lost' && r.label !== null);
  if (argv.includes('--pool')) {
    const pooled = new Set(neverStudiedRows(all, (k) => sessions[k]!.repo).map((r) => r.id));
    return { name: 'hold-out rows of never-studied repositories, pooled', rows: labelled.filter((r) => pooled.has(r.id)), pool: true };
  }
  if (argv.includes('--studied')) return { name: 'studied rows (dev, test, the hold-outs\' study parts and the pool\'s)', rows: labelled.filter(isStudied), pool: false };
  const at = argv.indexOf('--split');
  const splits = (at >= 0 ? argv[at + 1]! : 'dev').split(',');
  return { name: splits.join(','), rows: labelled.filter((r) => splits.includes(r.split)), pool: false };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { name, rows, pool } = pickRows(process.argv);
  const { whole, excerpt, audits } = verdictsOf(rows);
  console.log(`${name}: ${rows.length} labelled rows, ${new Set(rows.filter((r) => whole.has(r.id)).map((r) => r.session)).size} sessions read`);
  for (const [by, said] of [
    ['session audit', whole],
    ['row excerpt  ', excerpt],
  ] as const)
    console.log(`  ${by}  ${line(scoreOf(rows, said, 'invented'))}; ${line(scoreOf(rows, said, 'instruction'))}`);
  if (process.argv.includes('--list') && !pool) {
    for (const r of rows) {
      if (!isStudied(r) || !whole.has(r.id)) continue;
      const w = whole.get(r.id)!;
      const e = excerpt.get(r.id)!;
      if (w || e || r.label) console.log(JSON.stringify({ id: r.id, label: r.label, session: w, excerpt: e, value: r.list === 'invented' ? r.value : r.sentence.slice(0, 80) }));
    }
    // What the session audit flags that no row labels: candidates made from an older extraction, or values the
    // candidate script's "contains as written" already backed.
    for (const [key, list] of audits) {
      const labelled = new Set(rows.filter((r) => r.session === key && r.list === 'invented').map((r) => `${r.compaction}\u0000${bare((r as InventedRow).value)}`));
      const allLabelled = new Set(all.filter((r) => r.session === key && r.list === 'invented').map((r) => `${r.compaction}\u0000${bare((r as InventedRow).value)}`));
      for (const a of list)
        for (const v of a.invented)
          if (!labelled.has(`${a.compaction}\u0000${bare(v)}`)) console.log(JSON.stringify({ unlabelled: key, compaction: a.compaction, value: v, nullRow: allLabelled.has(`${a.compaction}\u0000${bare(v)}`) }));
    }
  }
}
