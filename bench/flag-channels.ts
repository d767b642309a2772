// The channel of later evidence behind each judged lost-list flag of bench/flag-judgements.json: which part of the item
// the audit says used the identifier. A referenced flag's item is a user message ("user message", or "user question"
// when the audit matched a question of its kind) or a tool call: "call argument" (the value is the call's file, path,
// command, pattern, glob, url or query argument, or inside it), "call content (writes)" (inside what a Write, Edit,
// MultiEdit or NotebookEdit writes), "call content" (elsewhere in the call's input: a Task or generate_code prompt, an
// Edit's old_string, a Bash heredoc). A refetched flag reads "refetch → <channel of the item that then used it>" (or
// "reprint → …"), just "refetch" when the repeated fetch itself names it. Computed from the audit as it runs now, so a
// flag a rule took away since it was judged reads "not listed now". Then each list's precision by half and channel.
// `npx tsx bench/flag-channels.ts [--from s50] [--to s59] [--write]` (--write: set each judged flag's `later` in the
// file, only for the sessions in range). Needs the sessions' repositories under MIRROR (/work/.mirror/<owner>+<name>/repo).
import { readFileSync, writeFileSync } from 'node:fs';
import { auditSession } from '../src/audit/audit-session';
import { loadText } from '../src/load/loader';
import { mirroredFile } from './mirrored-file';
import type { Item } from '../src/model/types';

interface Judged {
  session: string;
  compaction: number;
  list: string;
  value: string;
  right: boolean;
  class?: string;
  why: string;
  later?: string;
}
interface Judgements {
  about: string;
  sessions: Record<string, { repo: string; ref: string; path: string; half: 'A' | 'B' }>;
  flags: Judged[];
}

const FILE = new URL('./flag-judgements.json', import.meta.url);
const j = JSON.parse(readFileSync(FILE, 'utf8')) as Judgements;
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]?.replace(/^s/, '')) : null;
};
const from = arg('--from') ?? 0;
const to = arg('--to') ?? Number.MAX_SAFE_INTEGER;
const inRange = (key: string) => {
  const n = Number(key.replace(/^s/, ''));
  return n >= from && n <= to;
};
const LOST = ['lostReferencedLater', 'lostRefetchedLater'];

/** The fields of a tool call's input that name what the call acts on. */
const ARGUMENT_FIELDS = ['file_path', 'path', 'notebook_path', 'command', 'pattern', 'glob', 'url', 'query'];
/** The fields holding what a file-writing call writes. */
const WRITTEN_FIELDS = ['content', 'new_string', 'new_source'];
const WRITERS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Spellings to look for: the value, its other spellings, its call form without the parentheses (`f(` for `f()`), and
 * for a path its tails of two or more segments (a call names `notes/philosophy.md` relative to the working directory).
 */
function needles(value: string, spellings: readonly string[]): string[] {
  const out = [value, ...spellings];
  if (value.endsWith('()')) out.push(value.slice(0, -1), value.slice(0, -2));
  const parts = value.replace(/\/$/, '').split('/');
  for (let i = 1; i <= parts.length - 2; i++) if (parts[i] !== '') out.push(parts.slice(i).join('/'));
  return out;
}
const holds = (text: string, ns: readonly string[]) => ns.some((n) => n !== '' && text.includes(n));

/** Whether every occurrence of the value in a shell command lies inside a heredoc's body. */
function onlyInHeredoc(command: string, ns: readonly string[]): boolean {
  const bodies: [number, number][] = [];
  const re = /<<-?\s*['"]?(\w+)['"]?[^\n]*\n/g;
  for (let m = re.exec(command); m; m = re.exec(command)) {
    const start = m.index + m[0].length;
    const end = command.indexOf(`\n${m[1]}`, start);
    bodies.push([start, end < 0 ? command.length : end]);
  }
  if (bodies.length === 0) return false;
  for (const n of ns) {
    if (n === '') continue;
    for (let i = command.indexOf(n); i >= 0; i = command.indexOf(n, i + 1)) if (!bodies.some(([a, b]) => i >= a && i < b)) return false;
  }
  return true;
}

function callChannel(item: Item, ns: readonly string[]): string {
  let input: unknown;
  try {
    input = JSON.parse(item.text);
  } catch {
    return holds(item.text, ns) ? 'call content' : 'call (value not found)';
  }
  const fields = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));
  for (const f of ARGUMENT_FIELDS) {
    const v = fields[f];
    if (typeof v !== 'string' || !holds(v, ns)) continue;
    if (f === 'command' && onlyInHeredoc(v, ns)) continue;
    return 'call argument';
  }
  if (WRITERS.has(item.name ?? '')) {
    const written = [...WRITTEN_FIELDS.map((f) => fields[f]), ...(Array.isArray(fields['edits']) ? fields['edits'].map((e) => (e as Record<string, unknown>)['new_string']) : [])];
    if (written.some((v) => holds(text(v), ns))) return 'call content (writes)';
  }
  return holds(item.text, ns) ? 'call content' : 'call (value not found)';
}

function channel(item: Item | undefined, value: string, spellings: readonly string[], via: string): string {
  if (!item) return 'item not found';
  const ns = needles(value, spellings);
  if (item.kind === 'message' && item.role === 'user') return via === 'question' ? 'user question' : 'user message';
  if (item.kind === 'tool_call') return callChannel(item, ns);
  if (item.kind === 'tool_result') return 'tool output';
  return `${item.kind}/${item.role}`;
}

/** Each in-range flag's channel now: `sNN|compaction|list|value` → channel. */
const channels = new Map<string, string>();
for (const [key, s] of Object.entries(j.sessions)) {
  if (!inRange(key) || !j.flags.some((f) => f.session === key && LOST.includes(f.list))) continue;
  const text = mirroredFile(s.repo, s.ref, s.path, key);
  if (text === null) continue;
  for (const session of loadText(s.path, text).sessions) {
    const byId = new Map(session.items.map((it) => [it.id, it]));
    for (const a of auditSession(session)) {
      for (const r of a.lostReferencedLater) channels.set(`${key}|${a.compaction}|lostReferencedLater|${r.value}`, channel(byId.get(r.itemId), r.value, r.spellings ?? [], r.via));
      for (const r of a.lostRefetchedLater) {
        const used = r.usedIn === null ? null : channel(byId.get(r.usedIn), r.value, r.spellings ?? [], 'mention');
        channels.set(`${key}|${a.compaction}|lostRefetchedLater|${r.value}`, used === null ? r.via : `${r.via} → ${used}`);
      }
    }
  }
}

const judged = j.flags.filter((f) => inRange(f.session) && LOST.includes(f.list));
for (const f of judged) {
  const c = channels.get(`${f.session}|${f.compaction}|${f.list}|${f.value}`) ?? 'not listed now';
  console.log(`${f.session} ${f.compaction} ${f.list.padEnd(19)} ${(f.right ? 'right' : 'wrong').padEnd(5)} ${c.padEnd(38)} ${f.value}`);
  if (process.argv.includes('--write') && c !== 'not listed now') f.later = c;
}

// Precision by list, half and channel (the channel as judged flags carry it now).
const pct = (r: number, n: number) => `${Math.round((r / n) * 100)}% (${r}/${n})`;
console.log('\nlist                 half  channel                                 right');
for (const list of LOST) {
  for (const half of ['A', 'B', 'all']) {
    const fs = judged.filter((f) => f.list === list && (half === 'all' || j.sessions[f.session]?.half === half));
    const by = new Map<string, Judged[]>();
    for (const f of fs) {
      const c = channels.get(`${f.session}|${f.compaction}|${f.list}|${f.value}`) ?? 'not listed now';
      by.set(c, [...(by.get(c) ?? []), f]);
    }
    for (const [c, xs] of [...by].sort((x, y) => x[0].localeCompare(y[0]))) console.log(`${list.padEnd(20)} ${half.padEnd(5)} ${c.padEnd(39)} ${pct(xs.filter((x) => x.right).length, xs.length)}`);
  }
}
if (process.argv.includes('--write')) writeFileSync(FILE, JSON.stringify(j, null, 1) + '\n');
