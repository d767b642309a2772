// The rows a session's instruction files (CLAUDE.md and what it imports, labelled-instructions.json) may hold: the
// candidates of session 50's blind relabel by the labelling rule's instruction-file clause (fixtures README). A purely
// textual test, no audit rule code: every lost row labelled `referenced` or `refetched`, and every invented row
// labelled `true`, of any split, whose value, its last path segment, or a call's name without `()` occurs in one of
// its session's instruction files as a whole token (no letter, digit, `_` or `-` on either side, and not the stem of
// a longer dotted name such as `foo` in `foo.ts`). A candidate is a row to read, not a row to relabel.
//
//   npx tsx bench/labelled-instruction-candidates.ts [--list]
//
// Prints the candidate count per split and list; `--list` adds one line per candidate (id, label, value, the matched
// form, the file and line number), which the judge reads. It never prints a row that is not a candidate.
import { pathToFileURL } from 'node:url';
import type { LabelledRow } from '../src/audit/labelled-set';
import type { InstructionFile } from '../src/model/types';
import { labelledRows } from './labelled-fixture';
import { labelledInstructionFiles } from './labelled-instructions';

/** The forms of a value looked for: as written, its last path segment, a call's name without `()`. */
export function formsOf(value: string): string[] {
  const v = value.trim();
  const out = [v];
  const bare = v.replace(/\(\)$/, '');
  if (bare !== v) out.push(bare);
  const seg = bare.replace(/\/+$/, '').split('/').pop() ?? '';
  if (seg !== bare) out.push(seg);
  return [...new Set(out)].filter((f) => f.length >= 2);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Does `form` occur in `text` as a whole token? */
export function tokenAt(text: string, form: string): number {
  const re = new RegExp(`(?<![A-Za-z0-9_\\-])${escape(form)}(?![A-Za-z0-9_\\-])(?!\\.[A-Za-z0-9_])`, 'g');
  const m = re.exec(text);
  return m ? m.index : -1;
}

export interface Candidate {
  row: LabelledRow;
  form: string;
  file: string;
  line: number;
  text: string;
}

/** The row's first match in the files (the value as written before its shorter forms), or null. */
export function matchRow(row: LabelledRow, files: readonly InstructionFile[]): Omit<Candidate, 'row'> | null {
  if (row.list === 'instruction') return null;
  for (const form of formsOf(row.value)) {
    for (const f of files) {
      const at = tokenAt(f.text, form);
      if (at < 0) continue;
      const line = f.text.slice(0, at).split('\n').length;
      return { form, file: f.path, line, text: f.text.split('\n')[line - 1]!.trim().slice(0, 200) };
    }
  }
  return null;
}

const isChecked = (r: LabelledRow) =>
  (r.list === 'lost' && (r.label === 'referenced' || r.label === 'refetched')) || (r.list === 'invented' && r.label === true);

export function candidates(rows: readonly LabelledRow[], filesOf: (key: string) => InstructionFile[]): Candidate[] {
  const cache = new Map<string, InstructionFile[]>();
  const out: Candidate[] = [];
  for (const row of rows) {
    if (!isChecked(row)) continue;
    if (!cache.has(row.session)) cache.set(row.session, filesOf(row.session));
    const m = matchRow(row, cache.get(row.session)!);
    if (m) out.push({ row, ...m });
  }
  return out;
}

function main(): void {
  const rows = labelledRows();
  const found = candidates(rows, labelledInstructionFiles);
  const checked = new Map<string, number>();
  for (const r of rows) if (isChecked(r)) checked.set(r.split, (checked.get(r.split) ?? 0) + 1);
  const tally = new Map<string, number>();
  for (const c of found) {
    const k = `${c.row.split}\t${c.row.list} ${String(c.row.label)}`;
    tally.set(k, (tally.get(k) ?? 0) + 1);
  }
  console.log('split\tlist label\tcandidates');
  for (const [k, n] of [...tally].sort()) console.log(`${k}\t${n}`);
  console.log(`${found.length} candidates of ${[...checked.values()].reduce((a, b) => a + b, 0)} rows checked (referenced/refetched/invented true)`);
  if (process.argv.includes('--list')) {
    for (const c of found) {
      const v = c.row.list === 'instruction' ? '' : c.row.value;
      console.log([c.row.id, c.row.split, c.row.session, c.row.list, String(c.row.label), JSON.stringify(v), JSON.stringify(c.form), `${c.file}:${c.line}`, c.text].join('\t'));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
