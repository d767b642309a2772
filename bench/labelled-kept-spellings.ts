// Finds labelled lost rows whose file the compaction's summary names under another spelling — which the labelling
// rule (src/audit/__fixtures__/README.md) counts as kept, so `none` — but whose row holds no summary line to show it:
// the candidate script (bench/audit-candidates.ts) looked for the value as written only, so the labeller never saw the
// shorter spelling. A spelling counts when it is the path's last two or more segments (`database/session.py` for
// `/home/u/app/backend/src/infrastructure/database/session.py`), or its bare file name (with a known extension) when no
// other file of the session has that name. Reads each session at its recorded commit from a local mirror (/work/.mirror/<owner>+<name>/repo).
//
//   npx tsx bench/labelled-kept-spellings.ts [--split a,b] [--write]    (without --write: only lists what it finds)
import { writeFileSync } from 'node:fs';
import { auditInputFor, renderForAudit } from '../src/audit/audit-session';
import { extractIdentifiers, FILE_EXTENSIONS } from '../src/audit/identifiers';
import type { LabelledRow, LostRow } from '../src/audit/labelled-set';
import { mirroredCompactedSession } from './labelled-session-file';
import { LABELLED_ROWS_FILE, labelledLines, labelledSessions, rowJson } from './labelled-fixture';

const at = process.argv.indexOf('--split');
const splits = at >= 0 ? process.argv[at + 1]!.split(',') : null;
const file = LABELLED_ROWS_FILE;
const lines = labelledLines();
const sessions = labelledSessions();

const rows = lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as LabelledRow);
const wanted = rows.filter((r): r is LostRow => r.list === 'lost' && (r.label === 'referenced' || r.label === 'refetched') && r.kind === 'path' && !r.summary && (!splits || splits.includes(r.split)));

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const found = new Map<string, { spelling: string; lines: string }>();
for (const key of new Set(wanted.map((r) => r.session))) {
  const s = sessions[key]!;
  const session = mirroredCompactedSession(key, s);
  if (!session) continue;
  // Every file path the session names, slashes forward, to tell whether a bare file name is one file's.
  const paths = new Set<string>();
  for (const it of session.items) for (const id of extractIdentifiers(renderForAudit(it))) if (id.kind === 'path') paths.add(id.value.replace(/\\/g, '/'));
  for (const r of wanted.filter((x) => x.session === key)) {
    const event = session.compactions[r.compaction];
    const summary = event ? auditInputFor(session, event)?.summary : undefined;
    if (!summary) continue;
    const value = r.value.replace(/\\/g, '/');
    const segs = value.split('/').filter(Boolean);
    for (let k = segs.length - 1; k >= 1; k--) {
      const tail = segs.slice(-k).join('/');
      if (k === 1) {
        // A bare name: only a file's name (a known extension: not a folder's word, not a host), and only when no other
        // file of the session ends with it.
        if (!FILE_EXTENSIONS.has(tail.slice(tail.lastIndexOf('.') + 1).toLowerCase()) || !tail.includes('.')) break;
        const others = [...paths].filter((p) => (p === tail || p.endsWith(`/${tail}`)) && !value.endsWith(p) && !p.endsWith(value));
        if (others.length > 0) break;
      }
      const re = new RegExp(`(?<![\\w./-])${escape(tail)}(?![\\w/-]|\\.\\w)`);
      const held = summary.split('\n').filter((l) => re.test(l));
      if (held.length === 0) continue;
      found.set(r.id, { spelling: tail, lines: held.slice(0, 2).map((l) => l.trim().slice(0, 300)).join('\n') });
      break;
    }
  }
}

for (const r of wanted) {
  const f = found.get(r.id);
  if (f) console.log(`${r.id} (${r.split}, ${r.label}) ${r.value} — summary: \`${f.spelling}\``);
}
console.log(`${found.size} of ${wanted.length} needed path rows without a summary line: the summary names the file under another spelling`);

if (process.argv.includes('--write')) {
  const out = lines.map((l) => {
    if (!l.trim()) return l;
    const r = JSON.parse(l) as LabelledRow;
    const f = found.get(r.id);
    if (!f || r.list !== 'lost') return l;
    const was = r.label;
    r.summary = f.lines;
    r.label = 'none';
    r.why = `${r.why} — relabelled none (was ${was}) in session 43: the summary names this file as \`${f.spelling}\`, so it kept it under another spelling (a noise class of the labelling rule); the candidate row held no summary line, now in \`summary\``;
    return rowJson(r);
  });
  writeFileSync(file, out.join('\n'));
}
