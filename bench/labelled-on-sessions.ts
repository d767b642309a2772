// Scores the labelled lost rows against the audit of the WHOLE real session each came from (auditSession, as the app,
// `inspect` and `check` run it), not against the row's excerpt (labelled-set.ts's lostVerdict). The excerpts keep only
// later items that hold the value as written, cut to lines around it: a later listing that prints the path relative to
// the working directory, or the tag that tells a harness's notice, is not in them, so the excerpt scorer can differ
// from what a user is shown. Reads each session at its recorded commit from a local mirror (`fetch` of the search
// tool: /work/.mirror/<owner>+<name>/repo); sessions not there are skipped and named.
//
//   npx tsx bench/labelled-on-sessions.ts [--split holdout3] [--parts|--study]  (--parts: study and score parts apart; --study: study part only)
//   npx tsx bench/labelled-on-sessions.ts --pool    (every hold-out row of a never-studied repository: what the panel states)
//   npx tsx bench/labelled-on-sessions.ts --pool --parts|--study   (the pool before its own split, session 45: its study
//     part HOLDOUT_POOL_STUDY and score part apart; --study: the study part alone, with --missed/--differ/--wrong)
//   --instructions: each session read with the CLAUDE.md files its project held then (labelled-instructions.json)
import { sessionContexts } from '../src/analysis/session-analysis';
import { auditSession } from '../src/audit/audit-session';
import { AUDIT_HOLDOUT } from '../src/audit/audit-trust';
import { HOLDOUT_POOL_STUDY, neverStudiedRows, poolBeforeItsSplit, studyPartOf } from '../src/audit/holdout-study';
import { lostVerdict, type LostLabel, type LostRow } from '../src/audit/labelled-set';
import { mirroredCompactedSession } from './labelled-session-file';
import { withLabelledInstructions } from './labelled-instructions';
import { pickRows, scoreOf, verdictsOf } from './labelled-invented';
import { labelledRows, labelledSessions } from './labelled-fixture';

const at = process.argv.indexOf('--split');
const pool = process.argv.includes('--pool');
// --dev: every row a rule writer may read: the dev and test halves and each hold-out's study part, pooled (--kinds:
// each kind's flags and misses there).
const dev = process.argv.includes('--dev');
const splits = (at >= 0 ? process.argv[at + 1]! : 'holdout3').split(',');
const sessions = labelledSessions();
const all = labelledRows();
const poolParts = pool && (process.argv.includes('--parts') || process.argv.includes('--study'));
const pooled = new Set((poolParts ? poolBeforeItsSplit : neverStudiedRows)(all, (k) => sessions[k]!.repo).map((r) => r.id));
const inStudy = (r: LostRow) => (pool ? HOLDOUT_POOL_STUDY.has(r.session) : (studyPartOf(r.split)?.has(r.session) ?? true));
const rows = all.filter((r): r is LostRow => r.list === 'lost' && r.label !== null && (pool ? pooled.has(r.id) : dev ? isStudied(r) : splits.includes(r.split)) && (!process.argv.includes('--study') || inStudy(r)));

function isStudied(r: LostRow): boolean {
  if (r.split === 'dev' || r.split === 'test' || HOLDOUT_POOL_STUDY.has(r.session)) return true;
  return studyPartOf(r.split)?.has(r.session) ?? false;
}

const verdicts = new Map<string, { whole: LostLabel; excerpt: LostLabel; why?: string }>();
for (const key of new Set(rows.map((r) => r.session))) {
  const s = sessions[key]!;
  const session = mirroredCompactedSession(key, s);
  if (!session) continue;
  const withFiles = withLabelledInstructions(key, session);
  const audits = auditSession(withFiles);
  // A compaction no model call saw the result of (Claude Code's microcompact just before a compact) and the next one
  // are one eviction as the model met it: a value the first left in the context the second may be the one to lose.
  const seen = new Set(sessionContexts(withFiles).calls.map((c) => c.compactionId));
  for (const row of rows.filter((r) => r.session === key)) {
    const audit = audits.find((a) => a.compaction === row.compaction);
    const names = (r: { value: string; spellings?: string[] }) => r.value === row.value || (r.spellings ?? []).includes(row.value);
    const listed = (a: (typeof audits)[number] | undefined): LostLabel => (!a ? 'none' : a.lostReferencedLater.some(names) ? 'referenced' : a.lostRefetchedLater.some(names) ? 'refetched' : 'none');
    const next = audit && !seen.has(audit.compactionId) ? audits.find((a) => a.compaction === row.compaction + 1) : undefined;
    const whole: LostLabel = listed(audit) !== 'none' ? listed(audit) : listed(next);
    // Where the session audit put the value when it lists it nowhere: kept (under any spelling), lost, or not a lost identifier at all.
    const inKept = audit?.kept.includes(row.value) || audit?.kept.some((k) => k.endsWith(`/${row.value}`) || row.value.endsWith(`/${k}`));
    const why = whole !== 'none' ? undefined : !audit ? 'no audit' : audit.lost.includes(row.value) ? 'lost, not needed' : inKept ? 'kept (another spelling)' : 'not among lost';
    verdicts.set(row.id, { whole, excerpt: lostVerdict(row, s), ...(why ? { why } : {}) });
  }
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${Math.round((n / d) * 100)}%`);
function table(name: string, part: LostRow[]): void {
  const scored = part.filter((r) => verdicts.has(r.id));
  console.log(`${name} (${scored.length} lost rows of ${new Set(scored.map((r) => r.session)).size} sessions):`);
  for (const by of ['whole', 'excerpt'] as const) {
    const line = (list: LostLabel | 'union') => {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const r of scored) {
        const said = verdicts.get(r.id)![by];
        const s = list === 'union' ? said !== 'none' : said === list;
        const right = list === 'union' ? r.label !== 'none' : r.label === list;
        if (s && right) tp++;
        else if (s) fp++;
        else if (right) fn++;
      }
      return `${list} P ${pct(tp, tp + fp)} R ${pct(tp, tp + fn)} (tp ${tp}, fp ${fp}, fn ${fn})`;
    };
    console.log(`  ${by === 'whole' ? 'session audit' : 'row excerpt  '}  ${line('referenced')}; ${line('refetched')}; ${line('union')}`);
  }
  // The rows were made lost by the value as written; the session audit reads the summary as holding some of them under
  // another spelling (a file name listed under its folder, a folder named by the files under it). Such a row counts
  // as a miss of the session audit, though the summary may well hold it: said apart, so the two recalls can be read.
  const keptMisses = scored.filter((r) => r.label !== 'none' && verdicts.get(r.id)!.why === 'kept (another spelling)').length;
  if (keptMisses > 0) console.log(`  of the session audit's misses, ${keptMisses} are rows it reads the summary as keeping under another spelling`);
}
if (poolParts) {
  table('the never-studied pool\'s study part (HOLDOUT_POOL_STUDY)', rows.filter((r) => HOLDOUT_POOL_STUDY.has(r.session)));
  if (process.argv.includes('--parts')) table('the never-studied pool\'s score part', rows.filter((r) => !HOLDOUT_POOL_STUDY.has(r.session)));
}
if (pool && !poolParts) {
  table('hold-out rows of never-studied repositories, pooled', rows);
  // What the panel and `check` state must be this score (audit-trust.ts): said, and failed on when it is not; with
  // --instructions, the figures stated for an audit that read the project's instruction files.
  const withFiles = process.argv.includes('--instructions');
  const stated: { [K in keyof typeof AUDIT_HOLDOUT.withInstructions]: number } = withFiles ? AUDIT_HOLDOUT.withInstructions : AUDIT_HOLDOUT;
  const name = withFiles ? 'AUDIT_HOLDOUT.withInstructions' : 'AUDIT_HOLDOUT';
  const scored = rows.filter((r) => verdicts.has(r.id));
  const flagged = scored.filter((r) => verdicts.get(r.id)!.whole !== 'none');
  const right = flagged.filter((r) => r.label !== 'none').length;
  const same = right === stated.neededRight && flagged.length === stated.neededFlags;
  console.log(`needed: ${right} of ${flagged.length} listed were needed; ${name} says ${stated.neededRight} of ${stated.neededFlags}: ${same ? 'matches' : 'does NOT match'}`);
  if (!same) process.exitCode = 1;
  // Each list apart, a flag counted right when its row was needed in either reading (what the sentence states per list).
  for (const [list, flags, needed] of [
    ['referenced', stated.referencedFlags, stated.referencedRight],
    ['refetched', stated.refetchedFlags, stated.refetchedRight],
  ] as const) {
    const listed = scored.filter((r) => verdicts.get(r.id)!.whole === list);
    const n = listed.filter((r) => r.label !== 'none').length;
    const ok = n === needed && listed.length === flags;
    console.log(`${list}: ${n} of ${listed.length} listed were needed; ${name} says ${needed} of ${flags}: ${ok ? 'matches' : 'does NOT match'}`);
    if (!ok) process.exitCode = 1;
  }
  // The invented figures the sentence states: the session audit on the pool's labelled invented rows.
  const inv = pickRows(['--pool']).rows;
  const { whole } = verdictsOf(inv);
  const s = scoreOf(inv, whole, 'invented');
  const ok = s.flags === stated.inventedFlags && s.right === stated.inventedRight;
  console.log(`invented: ${s.right} of ${s.flags} listed were invented; ${name} says ${stated.inventedRight} of ${stated.inventedFlags}: ${ok ? 'matches' : 'does NOT match'}`);
  if (!ok) process.exitCode = 1;
}
if (dev) table('studied rows (dev, test and the hold-outs\' study parts), pooled', rows);
if (dev && process.argv.includes('--kinds')) {
  // Each kind's flags on the studied rows: how many were needed (in either list), and how many needed rows were missed.
  const by = new Map<string, { flags: number; right: number; missed: number }>();
  for (const r of rows) {
    const v = verdicts.get(r.id);
    if (!v) continue;
    const k = by.get(r.kind) ?? { flags: 0, right: 0, missed: 0 };
    if (v.whole !== 'none') {
      k.flags++;
      if (r.label !== 'none') k.right++;
    } else if (r.label !== 'none') k.missed++;
    by.set(r.kind, k);
  }
  const listKind = process.argv[process.argv.indexOf('--kinds') + 1];
  if (listKind && !listKind.startsWith('--'))
    for (const r of rows) if (r.kind === listKind && verdicts.get(r.id) && verdicts.get(r.id)!.whole !== 'none') console.log(JSON.stringify({ id: r.id, label: r.label, session: verdicts.get(r.id)!.whole, value: r.value, why: r.why }));
  for (const [kind, k] of [...by].sort((a, b) => b[1].flags - a[1].flags)) console.log(`  ${kind.padEnd(10)} flags ${String(k.flags).padStart(3)}, needed ${pct(k.right, k.flags).padStart(4)} (${k.right}), missed ${k.missed}`);
}
for (const split of pool || dev ? [] : splits) {
  const mine = rows.filter((r) => r.split === split);
  const part = studyPartOf(split);
  // --study: the study part alone, so a rule writer never sees the score part's figure while working.
  if (part && process.argv.includes('--study')) {
    table(`${split} study part`, mine.filter((r) => part.has(r.session)));
    continue;
  }
  table(split, mine);
  if (part && process.argv.includes('--parts')) {
    table(`${split} study part`, mine.filter((r) => part.has(r.session)));
    table(`${split} score part`, mine.filter((r) => !part.has(r.session)));
  }
}
const differ = [...verdicts].filter(([, v]) => v.whole !== v.excerpt).length;
console.log(`${differ} of ${verdicts.size} rows get another verdict from the session audit than from their excerpt`);
if (process.argv.includes('--differ')) {
  const study = new Set(splits.flatMap((s) => [...(studyPartOf(s) ?? [])]));
  for (const r of rows) {
    const v = verdicts.get(r.id);
    if (v && v.whole !== v.excerpt && (studyPartOf(r.split) === undefined || study.has(r.session) || HOLDOUT_POOL_STUDY.has(r.session))) console.log(JSON.stringify({ id: r.id, label: r.label, session: v.whole, excerpt: v.excerpt, why: v.why, value: r.value }));
  }
}
if (process.argv.includes('--wrong')) {
  // The studied rows the session audit flags against their label (never a hold-out's score part).
  for (const r of rows) {
    const v = verdicts.get(r.id);
    const part = studyPartOf(r.split);
    if (v && v.whole !== 'none' && v.whole !== r.label && (!part || part.has(r.session) || HOLDOUT_POOL_STUDY.has(r.session))) console.log(JSON.stringify({ id: r.id, label: r.label, session: v.whole, excerpt: v.excerpt, kind: r.kind, value: r.value }));
  }
}
if (process.argv.includes('--missed')) {
  // The studied rows labelled needed that the session audit lists in neither list (never a pool or score-part row).
  for (const r of rows) {
    const v = verdicts.get(r.id);
    if (v && v.whole === 'none' && r.label !== 'none' && isStudied(r)) console.log(JSON.stringify({ id: r.id, session: r.session, c: r.compaction, label: r.label, excerpt: v.excerpt, why: v.why, kind: r.kind, value: r.value }));
  }
}
