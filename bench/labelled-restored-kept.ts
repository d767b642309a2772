// The files Claude Code reads again beside a summary once it has compacted (its post-compact file restoration, recorded
// from about 2.1.92 as `attachment` records of type `file` after the summary, and after a manual `/compact`'s echo),
// the plan it puts back (`plan_file_reference`) and the too-large files it names (`compact_file_reference`) are what
// the compaction kept beside its summary: the labelling rule's `kept`. The candidate script never looked there,
// so a lost row whose value such a file holds had no line telling the excerpt scorer why it is `none` (hold-out 9's
// labeller labelled 31 rows `none` for that reason). This script reads each Claude Code session's records plainly (no
// audit rule code; the loader only places each compaction's summary) and adds to each lost row the restored lines
// that hold its value as written, or, for a path, relative to or absolute under the working directory. It changes no
// label. `npx tsx bench/labelled-restored-kept.ts [--write]` (without --write: prints the rows it would complete).
import { writeFileSync } from 'node:fs';
import type { LabelledRow, LostRow } from '../src/audit/labelled-set';
import { loadText } from '../src/load/loader';
import { LABELLED_ROWS_FILE, labelledLines, labelledSessions, rowJson, spellings } from './labelled-fixture';
import { mirroredSessionFile } from './labelled-session-file';

const lines = labelledLines();
const sessions = labelledSessions();
const rows = lines.map((l) => (l.trim() ? (JSON.parse(l) as LabelledRow) : null));

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The text an attachment Claude Code writes beside a summary sends, as its renderer writes it: a file as a Read of its
 * path and the body, the plan's path and text, a too-large file's path (`compact_file_reference`).
 */
function restoredText(record: Json): string | null {
  const a = record['attachment'];
  if (record['type'] !== 'attachment' || !isObj(a)) return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  if (a['type'] === 'file') {
    const content = a['content'];
    const file = isObj(content) ? content['file'] : undefined;
    const body = isObj(file) ? file['content'] : undefined;
    return typeof body === 'string' ? `Read(${JSON.stringify({ file_path: str(a['filename']) })})\n${body}` : null;
  }
  if (a['type'] === 'plan_file_reference') return `A plan file exists from plan mode at: ${str(a['planFilePath'])}\n\n${str(a['planContent'])}`;
  if (a['type'] === 'compact_file_reference') return `Note: ${str(a['filename'])} was read before the last conversation was summarized`;
  return null;
}

/** A user record's text (a string or its text blocks). */
function userText(record: Json): string {
  const m = record['message'];
  const c = isObj(m) ? m['content'] : undefined;
  if (typeof c === 'string') return c;
  return Array.isArray(c) ? c.map((b) => (isObj(b) && typeof b['text'] === 'string' ? b['text'] : '')).join('\n') : '';
}

/**
 * What Claude Code put back after the summary on line `summaryLine` (1-based): the attachments above, until the
 * model's first reply or the person's next message; the harness's own records (isMeta, a `/compact` echo and its
 * stdout, other attachments) may come between.
 */
function restoredAfter(records: (Json | null)[], summaryLine: number): string[] {
  const out: string[] = [];
  for (let i = summaryLine; i < records.length; i++) {
    const r = records[i];
    if (!r) continue;
    if (r['type'] === 'assistant') break;
    const text = restoredText(r);
    if (text !== null) out.push(text);
    else if (r['type'] === 'user' && r['isMeta'] !== true) {
      const t = userText(r).trimStart();
      if (!/^<(?:command-name>\/compact<|local-command-stdout>|local-command-caveat>)/.test(t)) break;
    }
  }
  return out;
}


let completed = 0;
const tally = new Map<string, number>();
const changed = new Set<number>();
const bySession = new Map<string, { row: LostRow; at: number }[]>();
rows.forEach((r, at) => {
  if (!r || r.list !== 'lost' || (r.kept && r.kept.length > 0)) return;
  const s = sessions[r.session];
  if (!s || !/claude/i.test(s.harness)) return;
  bySession.set(r.session, [...(bySession.get(r.session) ?? []), { row: r, at }]);
});
for (const [key, list] of bySession) {
  const file = mirroredSessionFile(key, sessions[key]!);
  if (!file) continue;
  const records = file.text.split('\n').map((l) => {
    try {
      const v: unknown = JSON.parse(l);
      return isObj(v) ? v : null;
    } catch {
      return null;
    }
  });
  const session = loadText(file.path, file.text).sessions.find((x) => x.compactions.length > 0);
  if (!session) continue;
  const cwd = sessions[key]!.cwd ?? null;
  for (const { row, at } of list) {
    const event = session.compactions.find((c) => c.index === row.compaction);
    const summary = event?.summaryId ? session.items.find((i) => i.id === event.summaryId) : undefined;
    if (!summary?.source.line) continue;
    const restored = restoredAfter(records, summary.source.line);
    const kept = restored.flatMap((text) => text.split('\n').filter((l) => spellings(row.value, cwd).some((s) => l.includes(s))).slice(0, 2)).map((l) => l.trim().slice(0, 240));
    if (kept.length === 0) continue;
    completed++;
    // Counts only: the never-studied pool's rows are never printed.
    const k = `${row.split} ${row.label}`;
    tally.set(k, (tally.get(k) ?? 0) + 1);
    rows[at] = { ...row, kept: kept.slice(0, 3), keptFrom: 'restored' };
    changed.add(at);
  }
}
for (const [k, n] of [...tally].sort()) console.log(`  ${k}: ${n}`);
console.log(`${completed} lost rows have their value in what Claude Code put back beside the summary`);
if (process.argv.includes('--write')) {
  // Only the completed rows are written again; every other line stays byte for byte.
  writeFileSync(LABELLED_ROWS_FILE, lines.map((l, i) => (changed.has(i) ? rowJson(rows[i]) : l)).join('\n'));
  console.log(`wrote ${LABELLED_ROWS_FILE}`);
}
