// The labelled set as the bench scripts read it: the rows (one JSON object per line of labelled-audit.jsonl) and
// the sessions they were cut from (labelled-sessions.json). Scripts that rewrite rows keep the lines as read.
import { readFileSync } from 'node:fs';
import type { LabelledRow, LabelledSession } from '../src/audit/labelled-set';

const dir = new URL('../src/audit/__fixtures__/', import.meta.url);

/** The rows' file, for the scripts that write it back. */
export const LABELLED_ROWS_FILE = new URL('labelled-audit.jsonl', dir);

/** Every line of the rows' file, blank ones included, as a rewrite must keep them. */
export function labelledLines(): string[] {
  return readFileSync(LABELLED_ROWS_FILE, 'utf8').split('\n');
}

export function labelledRows(): LabelledRow[] {
  return labelledLines()
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LabelledRow);
}

export function labelledSessions(): Record<string, LabelledSession> {
  return JSON.parse(readFileSync(new URL('labelled-sessions.json', dir), 'utf8')) as Record<string, LabelledSession>;
}

/** The file's own spelling of a row (Python's `json.dumps(row, ensure_ascii=False)`: `, ` and `: ` between parts). */
export function rowJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(rowJson).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${rowJson(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

/** The spellings of a value a person accepts: as written; a path also relative to, or absolute under, the cwd. */
export function spellings(value: string, cwd: string | null): string[] {
  const out = [value.replace(/\(\)$/, '')];
  if (cwd && value.startsWith(`${cwd}/`)) out.push(value.slice(cwd.length + 1));
  else if (cwd && value.includes('/') && !value.startsWith('/') && !value.startsWith('~')) out.push(`${cwd}/${value}`);
  return out.filter((s) => s.length >= 3);
}
