// Marks the later items of the labelled audit set's lost rows that the harness, not a person, wrote into the user's
// turn (`harness: true`): a task notification, a Skill's injected instructions (`isMeta`), a system reminder. The
// candidate script (bench/audit-candidates.ts) kept only the lines around a mention, which drops the opening tag or
// the record's flag; scored without them such an excerpt reads as the user's words, where the audit of the real
// session (which sees the whole item) never counts it. Reads each session at its recorded commit from a local
// mirror (`fetch` of the search tool: /work/.mirror/<owner>+<name>/repo) and changes no label.
//
//   npx tsx bench/labelled-harness-flags.ts [--write]      (without --write: only says what it would mark)
import { writeFileSync } from 'node:fs';
import { loadText } from '../src/load/loader';
import { renderForAudit } from '../src/audit/audit-session';
import { isHarnessItem } from '../src/model/harness-messages';
import type { LabelledRow } from '../src/audit/labelled-set';
import { mirroredSessionFile } from './labelled-session-file';
import { LABELLED_ROWS_FILE, labelledLines, labelledSessions, rowJson } from './labelled-fixture';

const file = LABELLED_ROWS_FILE;
const lines = labelledLines();
const sessions = labelledSessions();

const wanted = new Set<string>();
for (const l of lines) {
  if (!l.trim()) continue;
  const r = JSON.parse(l) as LabelledRow;
  if (r.list === 'lost' && r.later.some((x) => x.role === 'user' && (x.kind ?? 'message') === 'message')) wanted.add(r.session);
}

/** Per session: line → is every user message item of that line the harness's (true), a person's (false)? */
const verdicts = new Map<string, Map<number, { harness: boolean; texts: string[] }[]>>();
for (const key of wanted) {
  const s = sessions[key]!;
  const file = mirroredSessionFile(key, s);
  if (!file) continue;
  const { path, text } = file;
  const byLine = new Map<number, { harness: boolean; texts: string[] }[]>();
  for (const session of loadText(path, text).sessions)
    for (const it of session.items) {
      if (it.role !== 'user' || it.kind !== 'message' || it.source.line == null) continue;
      const list = byLine.get(it.source.line) ?? [];
      list.push({ harness: isHarnessItem(it), texts: [renderForAudit(it)] });
      byLine.set(it.source.line, list);
    }
  verdicts.set(key, byLine);
}

const unchanged = lines.filter((l) => l.trim() && rowJson(JSON.parse(l)) !== l).length;
if (unchanged > 0) throw new Error(`labelled-audit.jsonl: ${unchanged} rows would be rewritten in another spelling; not writing`);

let marked = 0;
const out = lines.map((l) => {
  if (!l.trim()) return l;
  const r = JSON.parse(l) as LabelledRow;
  if (r.list !== 'lost' || !verdicts.has(r.session)) return l;
  const byLine = verdicts.get(r.session)!;
  let changed = false;
  for (const x of r.later) {
    if (x.role !== 'user' || (x.kind ?? 'message') !== 'message' || x.line === undefined) continue;
    // The item of that line whose text holds the excerpt (a record may hold several blocks).
    const first = x.text.split('\n')[0]!.slice(0, 80);
    const items = (byLine.get(x.line) ?? []).filter((i) => i.texts.some((t) => t.includes(first)));
    if (items.length > 0 && items.every((i) => i.harness) && !x.harness) {
      x.harness = true;
      changed = true;
      marked++;
      console.log(`${r.id} (${r.split}) line ${x.line}: ${JSON.stringify(x.text.slice(0, 90))}`);
    }
  }
  return changed ? rowJson(r) : l;
});
console.log(`${marked} later items marked as the harness's writing`);
if (process.argv.includes('--write')) writeFileSync(file, out.join('\n'));
