// Scores the audit's flags judged by hand on unlabelled sessions of studied repositories (bench/flag-judgements.json,
// session 46): each list's precision on the judged flags as first judged, and on those the audit lists now (a flag a
// rule took away leaves the count; a flag the audit adds is not judged, and is counted apart). By half: A is the half
// rules were written looking at, B the half they were not. Needs the sessions' repositories under MIRROR
// (/work/.mirror/<owner>+<name>/repo). `npx tsx bench/flag-judgements.ts [--wrong] [--by-session] [--from sNN] [--instructions]`
// (--wrong: half A's wrong flags still listed; --by-session: each half also split by the session that judged it, 46 or
// 47; --from s38: only sessions s38 and later, the ones of repositories no other part of the study uses;
// --instructions: each session also audited with the instruction files its project held at its start
// (bench/flag-instructions.json, `npx tsx bench/labelled-instructions.ts --judged --write`), as a user who adds them
// would see it: a third column, and the judged flags the files take away, right and wrong, counted by half; with
// --wrong, each of half A's wrong flags says whether the files take it away, and half A's right flags they take away
// are printed too. Half B: counts only).
import { auditSession } from '../src/audit/audit-session';
import { AUDIT_HOLDOUT } from '../src/audit/audit-trust';
import { loadText } from '../src/load/loader';
import type { Session } from '../src/model/types';
import { flagJudgements, LISTS, type Judged } from './flag-judgements-file';
import { flagInstructionFiles } from './labelled-instructions';
import { mirroredFile } from './mirrored-file';

const j = flagJudgements();
const judges = (key: string, list: string) => j.sessions[key]?.lists?.includes(list) ?? true;
const fromArg = process.argv.indexOf('--from');
const from = fromArg >= 0 ? Number(process.argv[fromArg + 1]?.replace(/^s/, '')) : 0;
const inRange = (key: string) => Number(key.replace(/^s/, '')) >= from;
const instructions = process.argv.includes('--instructions');

/** Every value each list holds now, by session and compaction: `s01|0|invented` → values. */
type Listed = Map<string, Set<string>>;
function addListed(listed: Listed, key: string, session: Session): void {
  for (const a of auditSession(session)) {
    const add = (list: string, values: string[]) => {
      if (!judges(key, list)) return;
      const k = `${key}|${a.compaction}|${list}`;
      const set = listed.get(k) ?? new Set<string>();
      for (const v of values) set.add(v);
      listed.set(k, set);
    };
    add('lostReferencedLater', a.lostReferencedLater.map((r) => r.value));
    add('lostRefetchedLater', a.lostRefetchedLater.map((r) => r.value));
    add('invented', a.invented);
    add('inventedInstructions', a.inventedInstructions.map((r) => r.sentence));
  }
}
const listed: Listed = new Map();
/** The same with each session's instruction files (--instructions); a session with none is audited once. */
const listedWith: Listed = new Map();
let withFiles = 0;
for (const [key, s] of Object.entries(j.sessions)) {
  if (!inRange(key)) continue;
  const text = mirroredFile(s.repo, s.ref, s.path, key);
  if (text === null) continue;
  const files = instructions ? flagInstructionFiles(key) : [];
  if (files.length > 0) withFiles++;
  for (const session of loadText(s.path, text).sessions) {
    addListed(listed, key, session);
    if (instructions) addListed(listedWith, key, files.length > 0 ? { ...session, instructionFiles: files } : session);
  }
}

const isIn = (map: Listed) => (f: Judged) => map.get(`${f.session}|${f.compaction}|${f.list}`)?.has(f.value) ?? false;
const still = isIn(listed);
const stillWith = isIn(listedWith);
const pct = (r: number, n: number) => (n === 0 ? 'no flags' : `${Math.round((r / n) * 100)}% (${r}/${n})`);
const right = (fs: Judged[]) => fs.filter((f) => f.right).length;
console.log(`list                   half  judged, as first listed   judged, listed now${instructions ? '        judged, listed now with files' : ''}`);
const bySession = process.argv.includes('--by-session');
const judgedIn = (f: Judged) => j.sessions[f.session]?.judgedIn ?? 46;
const parts = bySession ? (['A', 'A46', 'A47', 'B', 'B46', 'B47', 'all'] as const) : (['A', 'B', 'all'] as const);
const inPart = (f: Judged, part: string) => !inRange(f.session) ? false : part === 'all' || (j.sessions[f.session]?.half === part[0] && (part.length === 1 || judgedIn(f) === Number(part.slice(1))));
for (const list of LISTS) {
  for (const half of parts) {
    const judged = j.flags.filter((f) => f.list === list && inPart(f, half));
    const now = judged.filter(still);
    const withFilesNow = instructions ? ` ${pct(right(now.filter(stillWith)), now.filter(stillWith).length)}` : '';
    console.log(`${list.padEnd(22)} ${half.padEnd(5)} ${pct(right(judged), judged.length).padEnd(25)} ${instructions ? pct(right(now), now.length).padEnd(25) : pct(right(now), now.length)}${withFilesNow}`);
  }
}
const judgedKeys = new Set(j.flags.map((f) => `${f.session}|${f.compaction}|${f.list}|${f.value}`));
const unjudgedIn = (map: Listed) => [...map].reduce((n, [k, values]) => n + [...values].filter((v) => !judgedKeys.has(`${k}|${v}`)).length, 0);
console.log(`${unjudgedIn(listed)} flags listed now were not judged (the sample left them out, or a rule added them)`);

// What the files change, judged flags listed now that they take away, right and wrong: counts only, for both halves.
// (A flag listed only with the files cannot be among the judged: the files only take evidence away from a list.)
if (instructions) {
  console.log(`\nwith each project's instruction files (${withFiles} sessions have some; bench/flag-instructions.json): judged flags listed now that the files take away`);
  for (const list of LISTS) {
    for (const half of parts) {
      const gone = j.flags.filter((f) => f.list === list && inPart(f, half) && still(f) && !stillWith(f));
      if (half === 'all' || gone.length > 0) console.log(`${list.padEnd(22)} ${half.padEnd(5)} ${gone.length - right(gone)} wrong, ${right(gone)} right`);
    }
  }
  console.log(`${unjudgedIn(listedWith)} flags listed with the files were not judged`);
  // Wrong flags judged as values the system prompt held (class `system-prompt`: the project's CLAUDE.md, auto memory):
  // how many the files take away, and how many are on sessions the lookup found no file for. Counts only.
  const hasFiles = new Set(Object.keys(j.sessions).filter((k) => inRange(k) && flagInstructionFiles(k).length > 0));
  for (const list of LISTS) {
    for (const half of ['A', 'B'] as const) {
      const held = j.flags.filter((f) => f.list === list && !f.right && f.class === 'system-prompt' && inPart(f, half));
      if (held.length === 0) continue;
      const now = held.filter(still);
      console.log(
        `wrong flags of values the system prompt held, ${list}, half ${half}: ${held.length} judged, ${now.length} listed now, ${now.filter((f) => !stillWith(f)).length} of them taken away by the files; ${now.filter((f) => !hasFiles.has(f.session)).length} on sessions with no file found`,
      );
    }
  }
}
// Half A only: half B is score-only, and printing its causes is how a rule gets written looking at it.
if (process.argv.includes('--wrong')) {
  for (const f of j.flags.filter((x) => !x.right && still(x) && j.sessions[x.session]?.half === 'A')) console.log(JSON.stringify(instructions ? { ...f, files: stillWith(f) ? 'keep' : 'take away' } : f));
  if (instructions) for (const f of j.flags.filter((x) => x.right && still(x) && !stillWith(x) && j.sessions[x.session]?.half === 'A')) console.log(`right, taken away by the files: ${JSON.stringify(f)}`);
}

// What the panel and `check` state of the instruction list (audit-trust.ts): half B, which no instruction rule was
// written looking at, as listed now. Said, and failed on when it is not. (Not with --from: that leaves sessions out.)
if (from === 0) {
  const b = j.flags.filter((f) => f.list === 'inventedInstructions' && j.sessions[f.session]!.half === 'B' && still(f));
  const right = b.filter((f) => f.right).length;
  const sessions = Object.keys(j.sessions).filter((k) => j.sessions[k]!.half === 'B' && judges(k, 'inventedInstructions')).length;
  const h = AUDIT_HOLDOUT;
  const same = right === h.instructionRight && b.length === h.instructionFlags && sessions === h.instructionSessions;
  console.log(`instructions, half B: ${right} of ${b.length} on ${sessions} sessions; AUDIT_HOLDOUT says ${h.instructionRight} of ${h.instructionFlags} on ${h.instructionSessions}: ${same ? 'matches' : 'does NOT match'}`);
  if (!same) process.exitCode = 1;
}
