// Precision of the audit's "needed later" lists by EVIDENCE CHANNEL (where the later use that decided the verdict
// happens: a user message, a tool call's argument, content a call writes, fresh output, a re-fetch) and by KIND of
// thing (path, function, version, quantity, …), on the labelled rows of the splits named (by default every studied
// one: dev, test and the study parts of the hold-outs, never a score part). It tells which structural classes of
// evidence the lists can trust, so a rule can be written about a kind of evidence rather than about values seen.
//
//   npx tsx bench/audit-precision-by-evidence.ts [--split dev,test,holdout,holdout2,holdout3] [--all-parts] [--rows CHANNEL]
//
// Without --all-parts a hold-out contributes only its study part (src/audit/holdout-study.ts). --rows prints the
// flagged rows of one channel (id, label, said, value) for a look.
import { auditSummary } from '../src/audit/audit-summary';
import { studyPartOf } from '../src/audit/holdout-study';
import type { Identifier } from '../src/audit/identifiers';
import { laterInputOf, lostVerdict, type LabelledText, type LostRow } from '../src/audit/labelled-set';
import { takenAsArgument } from '../src/audit/later-use';
import { labelledRows, labelledSessions } from './labelled-fixture';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const splits = (arg('--split') ?? 'dev,test,holdout,holdout2,holdout3').split(',');
const allParts = process.argv.includes('--all-parts');
const sessions = labelledSessions();
const rows = labelledRows()
  .filter((r): r is LostRow => r.list === 'lost' && r.label !== null && splits.includes(r.split))
  .filter((r) => allParts || !studyPartOf(r.split) || studyPartOf(r.split)!.has(r.session));

/** The channel of one later item that a verdict rests on. */
function channelOf(id: Identifier, item: LabelledText, cwd: string | null): string {
  if (item.role === 'user') return 'user message';
  if (item.kind === 'tool_result') return 'tool result';
  if (item.kind !== 'tool_call') return `${item.role ?? '?'} ${item.kind ?? '?'}`;
  const t = item.target;
  if (!t) return 'call (no target)';
  const argument = t.file ?? t.target ?? '';
  if (takenAsArgument(id, argument, cwd)) return `call argument (${t.kind})`;
  return t.writes ? 'call content (writes)' : `call content (${t.kind})`;
}

interface Tally {
  tp: number;
  fp: number;
  /** Flagged and needed, but in the other list. */
  other: number;
}
const tallies = new Map<string, Tally>();
const add = (key: string, said: string, label: string) => {
  const t = tallies.get(key) ?? { tp: 0, fp: 0, other: 0 };
  if (said === label) t.tp++;
  else if (label === 'none') t.fp++;
  else t.other++;
  tallies.set(key, t);
};
const detail: { channel: string; id: string; label: string; said: string; value: string; kind: string }[] = [];
let missed = 0;
const missedBy = new Map<string, number>();

for (const row of rows) {
  const session = sessions[row.session]!;
  const said = lostVerdict(row, session);
  const cwd = session.cwd;
  const identifier: Identifier = { value: row.value, kind: row.kind, index: 0 };
  if (said === 'none') {
    if (row.label !== 'none') {
      missed++;
      // Where the label's evidence was: the first later item (user, call or result) holding the value's text.
      const at = row.later.find((l) => l.text.toLowerCase().includes(row.value.replace(/\(\)$/, '').toLowerCase()));
      const ch = at ? channelOf(identifier, at, cwd) : 'not found verbatim';
      missedBy.set(`${row.label} ← ${ch}`, (missedBy.get(`${row.label} ← ${ch}`) ?? 0) + 1);
    }
    continue;
  }
  const audit = auditSummary(laterInputOf(row, session));
  const names = (r: { value: string; spellings?: string[] }) => r.value === row.value || (r.spellings ?? []).includes(row.value);
  const index = (itemId: string | null) => (itemId === null ? -1 : Number(itemId.replace('later-', '')));
  let channel: string;
  if (said === 'referenced') {
    const ref = audit.lostReferencedLater.find(names)!;
    channel = ref.via === 'question' ? 'referenced: user question' : `referenced: ${channelOf(identifier, row.later[index(ref.itemId)]!, cwd)}`;
  } else {
    const ref = audit.lostRefetchedLater.find(names)!;
    const used = index(ref.usedIn);
    channel = `refetched: ${ref.via}, used in ${used < 0 ? (ref.usedIn === null ? 'the re-fetch itself' : 'a question') : channelOf(identifier, row.later[used]!, cwd)}`;
  }
  add(`channel  ${channel}`, said, row.label!);
  add(`kind     ${said}: ${row.kind}`, said, row.label!);
  add(`list     ${said}`, said, row.label!);
  add(`both     ${channel} × ${row.kind === 'path' ? 'path' : 'not a path'}`, said, row.label!);
  detail.push({ channel, id: row.id, label: row.label!, said, value: row.value, kind: row.kind });
}

const pct = (n: number, d: number) => (d === 0 ? '  —' : `${Math.round((n / d) * 100)}%`.padStart(4));
console.log(`${rows.length} labelled lost rows (${splits.join(', ')}${allParts ? ', all parts' : ', hold-outs: study parts only'}); ${missed} needed rows flagged by neither list`);
console.log('precision = right list / flagged; "other list" = needed, but labelled the other reading');
for (const [key, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
  const n = t.tp + t.fp + t.other;
  console.log(`${key.padEnd(78)} ${pct(t.tp, n)}  tp ${String(t.tp).padStart(3)}  fp ${String(t.fp).padStart(3)}  other list ${t.other}`);
}
console.log('\nneeded rows neither list flagged, by the label and the first later item holding the value verbatim:');
for (const [key, n] of [...missedBy].sort((a, b) => b[1] - a[1])) console.log(`  ${key.padEnd(60)} ${n}`);
const show = arg('--rows');
if (show) for (const d of detail.filter((x) => x.channel.includes(show))) console.log(JSON.stringify(d));
