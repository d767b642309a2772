// The full later evidence of each labelled lost row, read plainly from its real session file. The candidate script
// (bench/audit-candidates.ts) kept at most 8 later items per row and matched the value only as written, so a row's
// `later` can miss uses a person would count: a listing that prints the path relative to the working directory, the
// absolute path, the file's name alone, a later user message past the first 8 items. This script reads each
// session's JSONL records itself (Claude Code: a record's text blocks, tool calls' arguments and tool results), with
// no audit rule code: a record counts as evidence when one of its texts holds the value in a spelling a person would
// accept — as written; for a path, relative to the session's working directory and absolute under it, and its file
// name alone when the path has two or more segments and no other file of the session has that name. It prints, per
// row, the later records the row's excerpt lacks (line, role, kind, tool and argument, the lines around the value).
// The loader is used only to place each compaction (the line after which records are "later") and its evicted items
// (for `repeats`: a call that repeats a fetch the compaction removed).
//
//   npx tsx bench/labelled-later-evidence.ts [--pool | --not-pool] [--split a,b] [--write]
//
// --write adds the missing records to each grown row's `later` (each item `fromFile: true`, the row
// `laterFrom: "file"`); it changes no label.
import { writeFileSync } from 'node:fs';
import { loadText } from '../src/load/loader';
import { neverStudiedRows } from '../src/audit/holdout-study';
import type { LabelledRow, LabelledTarget, LabelledText, LostRow } from '../src/audit/labelled-set';
import { callTarget, targetKey, type CallTarget } from '../src/refetch/call-target';
import { mirroredSessionFile } from './labelled-session-file';
import { LABELLED_ROWS_FILE, labelledLines, labelledSessions, rowJson } from './labelled-fixture';

const file = LABELLED_ROWS_FILE;
const lines = labelledLines();
const sessions = labelledSessions();
const all = lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as LabelledRow);

const at = process.argv.indexOf('--split');
const splits = at >= 0 ? process.argv[at + 1]!.split(',') : null;
const pool = process.argv.includes('--pool');
const pooled = new Set(neverStudiedRows(all, (k) => sessions[k]!.repo).map((r) => r.id));
const others = process.argv.includes('--not-pool');
// A row completed once (`laterFrom`) is not read again: its added items would read as already there, all but the capped ones.
const wanted = all.filter(
  (r): r is LostRow =>
    r.list === 'lost' && !r.laterFrom && (pool ? pooled.has(r.id) : others ? !pooled.has(r.id) : true) && (!splits || splits.includes(r.split)),
);

/** One block of a record: what a person reading the file sees as one item. */
interface Block {
  line: number;
  role: 'user' | 'assistant' | 'tool' | 'other';
  kind: string;
  tool?: string;
  target?: CallTarget | null;
  /** The user-role text the harness wrote (isMeta, a notification, a reminder, a teammate's message). */
  harness?: boolean;
  /** Plain texts of the block (a tool call: every string of its arguments). */
  texts: string[];
  /** Printed only, never added to a row: a subagent's or the harness's record outside the conversation. */
  printOnly?: boolean;
}

const HARNESS_TEXT = /^\s*<(?:task-notification|system-reminder|local-command-stdout|local-command-stderr|local-command-caveat|teammate-message|user-prompt-submit-hook)\b|^Caveat: The messages below were generated|^\[Request interrupted/;

function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
  return out;
}

function resultText(c: unknown): string[] {
  if (typeof c === 'string') return [c];
  if (Array.isArray(c)) return c.flatMap((b) => (b && typeof b === 'object' && (b as { type?: string }).type === 'text' ? [String((b as { text: unknown }).text)] : []));
  return [];
}

/** The blocks of a Claude Code JSONL session file, each with its 1-based line. */
function blocksOf(text: string): { blocks: Block[]; summaryLines: Set<number> } {
  const blocks: Block[] = [];
  const summaryLines = new Set<number>();
  const calls = new Map<string, { tool: string; target: CallTarget | null }>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    const type = r['type'];
    if (r['isCompactSummary'] || (type === 'system' && /compact_boundary/.test(String(r['subtype'])))) {
      summaryLines.add(line);
      return;
    }
    if (type === 'summary' || type === 'file-history-snapshot') return;
    if (type !== 'user' && type !== 'assistant') {
      // System notices, hook and subagent progress, queued input, attachments: shown, never added.
      const texts = stringsOf(type === 'progress' ? r['data'] : (r['content'] ?? r['attachment'] ?? r['operation'] ?? ''));
      if (texts.length) blocks.push({ line, role: 'other', kind: String(type), texts, printOnly: true });
      return;
    }
    const msg = r['message'] as { content?: unknown } | undefined;
    const content = msg?.content;
    const meta = r['isMeta'] === true;
    const side = r['isSidechain'] === true;
    if (typeof content === 'string') {
      blocks.push({ line, role: type, kind: 'message', texts: [content], harness: type === 'user' && (meta || HARNESS_TEXT.test(content)), printOnly: side });
      return;
    }
    if (!Array.isArray(content)) return;
    for (const b of content as Record<string, unknown>[]) {
      const bt = b['type'];
      if (bt === 'text') {
        const t = String(b['text'] ?? '');
        blocks.push({ line, role: type, kind: 'message', texts: [t], harness: type === 'user' && (meta || HARNESS_TEXT.test(t)), printOnly: side });
      } else if (bt === 'thinking') {
        blocks.push({ line, role: 'assistant', kind: 'thinking', texts: [String(b['thinking'] ?? '')], printOnly: side });
      } else if (bt === 'tool_use') {
        const tool = String(b['name'] ?? '');
        const target = callTarget({ kind: 'tool_call', name: tool, text: JSON.stringify(b['input'] ?? {}) });
        calls.set(String(b['id']), { tool, target });
        blocks.push({ line, role: 'assistant', kind: 'tool_call', tool, target, texts: stringsOf(b['input']), printOnly: side });
      } else if (bt === 'tool_result') {
        const call = calls.get(String(b['tool_use_id']));
        blocks.push({ line, role: 'tool', kind: 'tool_result', tool: call?.tool, target: call?.target ?? null, texts: resultText(b['content']), printOnly: side });
      }
    }
  });
  return { blocks, summaryLines };
}

const FILE_NAME = /^[^.].*\.(?:[cm]?[jt]sx?|json[c5l]?|md|mdx|txt|ya?ml|toml|ini|cfg|conf|env|lock|py|pyi|rb|go|mod|sum|rs|ex|exs|heex|eex|erl|java|kt|kts|swift|m|mm|h|hh|hpp|c|cc|cpp|cs|csproj|sln|fs|scala|php|sh|bash|zsh|fish|ps1|bat|sql|graphql|proto|html?|css|scss|sass|less|vue|svelte|astro|xml|plist|gradle|dart|lua|r|jl|ipynb|csv|tsv|log|output|diff|patch|png|jpe?g|gif|svg|pdf|wasm|dockerfile|tf|nix|zig|hs|ml|clj|el|vim|rst|adoc|tex|service|sock|pid|db|sqlite|bak|tmp|out|bin|so|dylib|dll|exe|a|o)$/i;
const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const slash = (t: string) => t.replace(/\\/g, '/');
const PATHISH = /(?:~|\.{1,2})?(?:\/?[\w.@+-]+)(?:\/[\w.@+-]+)+/g;

/** Every path-like token of the session, slashes forward, `./` dropped, relative to the working directory when under it. */
function sessionPaths(blocks: Block[], cwd: string | null): Set<string> {
  const out = new Set<string>();
  for (const b of blocks) for (const t of b.texts) for (const m of slash(t).matchAll(PATHISH)) out.add(relative(m[0], cwd));
  return out;
}
function relative(p: string, cwd: string | null): string {
  let q = p.replace(/^\.\//, '');
  const c = cwd ? slash(cwd).replace(/\/$/, '') : null;
  if (c && q.startsWith(`${c}/`)) q = q.slice(c.length + 1);
  return q;
}

/** The spellings a person accepts for a value, each with a regex to find it as a whole token. */
function spellingsOf(row: LostRow, cwd: string | null, paths: Set<string>): { spelling: string; re: RegExp }[] {
  const value = row.value.replace(/\(\)$/, '');
  const out = new Set<string>([value]);
  if (row.kind === 'path') {
    const v = slash(value);
    const c = cwd ? slash(cwd).replace(/\/$/, '') : null;
    const rel = relative(v, cwd);
    out.add(v);
    // A folder keeps at least two segments (`tests` alone is a word, not the project's tests folder).
    if (rel !== v && rel !== '' && (rel.includes('/') || FILE_NAME.test(rel))) out.add(rel);
    if (c && !v.startsWith('/') && !v.startsWith('~') && !/^[A-Za-z]:/.test(v)) out.add(`${c}/${v.replace(/^\.\//, '')}`);
    const segs = rel.split('/').filter(Boolean);
    const base = segs[segs.length - 1] ?? '';
    // The file name alone: a name with a file extension (not a host's domain), when no other file of the session has it.
    if (segs.length >= 2 && FILE_NAME.test(base)) {
      const others = [...paths].filter((p) => (p === base || p.endsWith(`/${base}`)) && p !== base && !rel.endsWith(p) && !p.endsWith(rel));
      if (others.length === 0) out.add(base);
    }
  }
  const path = row.kind === 'path';
  // A function of one word (`Now()`) only in call form; a longer name (`loadWorkbook`, `set_slot`) also as a word.
  const callOnly = row.kind === 'function' && /\(\)$/.test(row.value) && /^[A-Za-z]?[a-z0-9]*$/.test(value.split(/[.:]/).pop() ?? '');
  return [...out].map((s) => ({
    spelling: callOnly ? `${s}(` : s,
    re: path
      ? new RegExp(`(?<![\\w.~@/-])${esc(s)}(?![\\w/-]|\\.\\w)`)
      : callOnly
        ? new RegExp(`(?<![\\w])${esc(s)}\\(`)
        : new RegExp(`(?<![\\w])${esc(s)}(?![\\w])`),
  }));
}

/** A text as matched: slashes forward, a leading `./` of a path dropped. */
const matchable = (line: string, path: boolean) => (path ? slash(line).replace(/(?<![\w.])\.\//g, '') : line);

/** Lines of a block that hold a spelling, each cut to a window around it (as the candidate script cuts them). */
function linesWith(b: Block, sp: { re: RegExp }[], path: boolean, max = 3): string {
  const out: string[] = [];
  for (const t of b.texts)
    for (const line of t.split('\n')) {
      const m = matchable(line, path);
      const hit = sp.map((s) => m.search(s.re)).filter((x) => x >= 0);
      if (hit.length === 0) continue;
      const at = Math.min(...hit);
      if (line.length <= 400) out.push(line);
      else {
        const from = Math.max(0, line.lastIndexOf(' ', Math.max(0, at - 150)));
        const to = line.indexOf(' ', at + 150);
        out.push(line.slice(from, to < 0 ? undefined : to).trim());
      }
      if (out.length >= max) return out.join('\n');
    }
  return out.join('\n');
}

const targetJson = (t: CallTarget | null | undefined): LabelledTarget | undefined =>
  t ? { tool: t.tool, ...(t.kind === 'file' ? { file: t.file } : { target: t.target }), ...(t.writes ? { writes: true } : {}), kind: t.kind } : undefined;

// What is added to a row: every user message and tool call (up to 16), and up to 4 other items (results, prose), in
// line order. Everything is printed.
const MAX_DECIDING = 16;
const MAX_OTHER = 4;

const added = new Map<string, LabelledText[]>();
let grown = 0;
let rowsRead = 0;
for (const key of new Set(wanted.map((r) => r.session))) {
  const s = sessions[key]!;
  if (s.harness !== 'claude-code') {
    console.warn(`${key}: ${s.harness} is not read by this script; skipped`);
    continue;
  }
  const f = mirroredSessionFile(key, s);
  if (!f) continue;
  const session = loadText(f.path, f.text).sessions.find((x) => x.compactions.length > 0);
  if (!session) continue;
  const { blocks, summaryLines } = blocksOf(f.text);
  const paths = sessionPaths(blocks, s.cwd);
  const lineOfItem = new Map(session.items.map((it) => [it.id, it.source.line ?? -1]));
  for (const r of wanted.filter((x) => x.session === key)) {
    const event = session.compactions[r.compaction];
    if (!event) continue;
    rowsRead++;
    const evictedLines = new Set(event.replacedIds.map((id) => lineOfItem.get(id) ?? -1));
    const cut = Math.max(event.summaryId ? (lineOfItem.get(event.summaryId) ?? -1) : -1, event.atItemId ? (lineOfItem.get(event.atItemId) ?? -1) : -1, ...evictedLines);
    const evictedKeys = new Set(blocks.filter((b) => evictedLines.has(b.line) && b.target).map((b) => targetKey(b.target!)));
    const sp = spellingsOf(r, s.cwd, paths);
    const isPath = r.kind === 'path';
    const have = new Set(r.later.map((x) => `${x.line}:${x.kind ?? 'message'}`));
    const lacking = blocks.filter((b) => b.line > cut && !summaryLines.has(b.line) && !have.has(`${b.line}:${b.kind}`) && b.texts.some((t) => t.split('\n').some((l) => sp.some((x) => x.re.test(matchable(l, isPath))))));
    if (lacking.length === 0) continue;
    const addable = lacking.filter((b) => !b.printOnly);
    if (addable.length > 0) grown++;
    console.log(`\n${r.id} (${r.split}, ${r.label}) ${r.value}  [spellings: ${sp.map((x) => x.spelling).join(' | ')}]  excerpt: ${r.later.length} items`);
    for (const b of lacking) {
      const tgt = b.target ? ` ${b.target.tool} ${b.target.kind === 'file' ? b.target.file : b.target.target}`.slice(0, 140) : b.tool ? ` ${b.tool}` : '';
      console.log(`  L${b.line} ${b.role}${b.harness ? '(harness)' : ''} ${b.kind}${tgt}${b.printOnly ? ' [not added]' : ''}: ${JSON.stringify(linesWith(b, sp, isPath, 2).slice(0, 240))}`);
    }
    const deciding = addable.filter((b) => (b.role === 'user' && !b.harness) || b.kind === 'tool_call').slice(0, MAX_DECIDING);
    const other = addable.filter((b) => !deciding.includes(b)).slice(0, MAX_OTHER);
    const chosen = [...deciding, ...other].sort((a, b) => a.line - b.line);
    added.set(
      r.id,
      chosen.map((b) => {
        const repeats = b.kind === 'tool_call' && b.target != null && evictedKeys.has(targetKey(b.target));
        const t = targetJson(b.target);
        return { ...(repeats ? { repeats: true } : {}), role: b.role, kind: b.kind, ...(t ? { target: t } : {}), line: b.line, ...(b.harness ? { harness: true } : {}), text: linesWith(b, sp, isPath), fromFile: true };
      }),
    );
  }
}
console.log(`\n${grown} of ${rowsRead} lost rows read have later evidence their excerpt lacks (${wanted.length} rows asked for)`);

if (process.argv.includes('--write')) {
  const respelled = lines.filter((l) => l.trim() && rowJson(JSON.parse(l)) !== l).length;
  if (respelled > 0) throw new Error(`labelled-audit.jsonl: ${respelled} rows would be rewritten in another spelling; not writing`);
  const out = lines.map((l) => {
    if (!l.trim()) return l;
    const r = JSON.parse(l) as LabelledRow;
    const more = added.get(r.id);
    if (!more || more.length === 0 || r.list !== 'lost') return l;
    r.later = [...r.later, ...more].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    r.laterFrom = 'file';
    return rowJson(r);
  });
  writeFileSync(file, out.join('\n'));
}
