// The instruction files a harness puts in every request unrecorded (the project's CLAUDE.md and its imports, as
// labelled-instructions.json lists them) are context the labelling rule counts (a value they hold is `none`), but a
// row's excerpt never carried them, so the excerpt scorer (labelled-set.ts) could not read them as the session audit
// does with `--instructions`. This script adds to each lost row of a session with such files the lines that hold its
// value as written (a call without its `()`; a path also relative to, or absolute under, the working directory), and
// the lines a row's `why` cites by `file:line` when the row was relabelled for them (session 50's relabel). It changes
// no label and reads no audit. `npx tsx bench/labelled-instruction-lines.ts [--write]` (prints counts only).
import { writeFileSync } from 'node:fs';
import type { LabelledRow, LostRow } from '../src/audit/labelled-set';
import { LABELLED_ROWS_FILE, labelledLines, labelledSessions, rowJson, spellings } from './labelled-fixture';
import { labelledInstructionFiles } from './labelled-instructions';

const lines = labelledLines();
const sessions = labelledSessions();
const rows = lines.map((l) => (l.trim() ? (JSON.parse(l) as LabelledRow) : null));


/** The `file:line` places a relabelled row's why cites (`CLAUDE.md:1075`, `.claude/CLAUDE.md:96/99`). */
export function citedLines(why: string, path: string): number[] {
  const out: number[] = [];
  const esc = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of why.matchAll(new RegExp(`(?<![\\w./-])${esc}:(\\d+(?:/\\d+)*)`, 'g'))) out.push(...m[1]!.split('/').map(Number));
  return out;
}

const MAX_LINES = 3;
const tally = new Map<string, number>();
const changed = new Set<number>();
const files = new Map<string, ReturnType<typeof labelledInstructionFiles>>();
rows.forEach((r, at) => {
  if (!r || r.list !== 'lost') return;
  const own = files.get(r.session) ?? files.set(r.session, labelledInstructionFiles(r.session)).get(r.session)!;
  if (own.length === 0) return;
  const cwd = sessions[r.session]?.cwd ?? null;
  const wanted = spellings(r.value, cwd);
  const relabelled = /labelled-instructions\.json/.test(r.why ?? '');
  const found: NonNullable<LostRow['instructions']> = [];
  for (const f of own) {
    const text = f.text.split('\n');
    const cited = relabelled ? citedLines(r.why ?? '', f.path).filter((n) => n >= 1 && n <= text.length) : [];
    const holding = text.flatMap((l, i) => (wanted.some((s) => l.includes(s)) ? [i + 1] : []));
    const picked = [...new Set([...cited, ...holding])].slice(0, MAX_LINES).map((n) => text[n - 1]!.trim().slice(0, 240));
    if (picked.length > 0) found.push({ path: f.path, lines: picked });
  }
  if (found.length === 0) return;
  // Counts only: the never-studied pool's rows are never printed.
  const k = `${r.split} ${r.label}${relabelled ? ' (relabelled)' : ''}`;
  tally.set(k, (tally.get(k) ?? 0) + 1);
  rows[at] = { ...r, instructions: found };
  changed.add(at);
});
for (const [k, n] of [...tally].sort()) console.log(`  ${k}: ${n}`);
const relabelledWithout = rows.filter((r, at) => r && r.list === 'lost' && /labelled-instructions\.json/.test(r.why ?? '') && !changed.has(at)).length;
console.log(`${changed.size} lost rows have their value in the project's instruction files; ${relabelledWithout} relabelled rows got no line`);
if (process.argv.includes('--write')) {
  // Only the completed rows are written again; every other line stays byte for byte.
  writeFileSync(LABELLED_ROWS_FILE, lines.map((l, i) => (changed.has(i) ? rowJson(rows[i]) : l)).join('\n'));
  console.log(`wrote ${LABELLED_ROWS_FILE}`);
}
