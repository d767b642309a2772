import { auditSession } from '../src/audit/audit-session';
import { labelledRows, labelledSessions } from './labelled-fixture';
import { mirroredCompactedSession } from './labelled-session-file';
const ids = process.argv.slice(2);
const sessions = labelledSessions();
const rows = labelledRows().filter((r: any) => ids.includes(r.id)) as any[];
for (const key of new Set(rows.map((r) => r.session))) {
  const s = mirroredCompactedSession(key, sessions[key]!)!;
  const audits = auditSession(s);
  console.log(key, 'cwd', (sessions as any)[key].cwd, 'compactions', s.compactions.length);
  for (const r of rows.filter((x) => x.session === key)) {
    const a = audits.find((x) => x.compaction === r.compaction)!;
    const base = r.value.split('/').filter(Boolean).pop();
    console.log('\n==', r.id, r.value, r.label, '| why:', r.why);
    console.log(' kept matching:', a.kept.filter((k: string) => k.includes(base)));
    console.log(' lost matching:', a.lost.filter((k: string) => k.includes(base)));
    const ev = s.compactions[r.compaction]!;
    const it = s.items.find((x: any) => x.id === ev.summaryId) as any;
    const sum: string = typeof it?.text === 'string' ? it.text : JSON.stringify(it?.content ?? it ?? '');
    let i = sum.indexOf(base); while (i >= 0) { console.log(' summary:', JSON.stringify(sum.slice(Math.max(0, i - 100), i + 60))); i = sum.indexOf(base, i + 1); }
  }
}
if (process.env.SUMCTX) {
  const r = rows[0]; const s = mirroredCompactedSession(r.session, sessions[r.session]!)!; const ev = s.compactions[r.compaction]!;
  const it = s.items.find((x: any) => x.id === ev.summaryId) as any; const t: string = it.text; const i = t.indexOf(process.env.SUMCTX);
  console.log(t.slice(Math.max(0, i - 1500), i + 800));
}
