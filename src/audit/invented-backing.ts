// Why a person would say the summary did not invent a value that no text it read holds as written. Each rule is one
// cause, written from the studied rows' false invented flags (session 45; docs/audit.md, "Kept under another
// spelling" and "What the transcript cannot show"):
//   - the value names no thing: a documentation placeholder (`file.txt`, `path/to/foo.py`);
//   - it is a list written with slashes, not a path: of words the sources name in another inflection (`unit-test` for
//     "unit tests"), or of file names the sources each hold (`entity-model.md/entity-resolution.md`);
//   - it is the summary's quote of what it read, one word respelled (the user's typo corrected);
//   - it is derived from what it read: a span of days between a date the summary states beside it and a date the
//     summarizer read or the session's day; a file's size in KB from the bytes a listing printed (session 46);
//   - it is the next step: a file planned in a folder the agent made for it (session 46).
import { dateMatches, type Identifier } from './identifiers';
import { canonicalUnit, containsName, parseDate, unitSpellings, withoutThousands, type DateParts } from './normalize';

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The stems documentation and examples use for "some file": they stand for any file and name none.
const PLACEHOLDER_STEM = /^(?:(?:my|your|some|an?|the)[-_]?)?(?:file(?:name)?|foo|bar|baz|qux|example|sample|placeholder|x{2,})\d?$/i;

/**
 * A file name that stands for any file: a placeholder stem with an extension and no folder (`file.txt`, `foo.py`,
 * `example.json`), or anything under the `path/to/` of documentation or a metasyntactic folder (`foo/mod.rs`). It
 * claims no file exists, so it is never invented.
 */
export function isPlaceholderFile(id: Identifier): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/[`'"]+$/, '');
  if (/(?:^|[\\/])path[\\/]to[\\/]/i.test(v)) return true;
  // A metasyntactic folder (`foo/mod.rs` for "a module `foo.rs` becomes `foo/mod.rs`") names a pattern, not a folder.
  if (/(?:^|[\\/])(?:foo|bar|baz|qux)[\\/]/i.test(v)) return true;
  const m = /^([\w-]+)\.[a-z0-9]{1,8}$/i.exec(v);
  return !!m && PLACEHOLDER_STEM.test(m[1]!);
}

/** A word as a list names it: case, `-`, `_` and spaces alike, and a trailing plural `s` dropped. */
const wordForm = (w: string): string => w.toLowerCase().replace(/[-_\s]+/g, ' ').replace(/(?<=\w{3})(?:es|s)$/, '');

/**
 * Words written with slashes between them (`meaningful/weak/modeling/unit-test`): backed when the sources name each
 * word in any of its plain forms (`unit tests`, `unit_test`, `Modeling`). `isWordList` (audit-summary.ts) decides
 * the value is such a list.
 */
export function wordsNamed(words: readonly string[], lower: string): boolean {
  return words.every((w) => {
    const parts = wordForm(w).split(' ').filter(Boolean);
    if (parts.length === 0) return false;
    const re = new RegExp(`(?<![\\w.-])${parts.map((p) => `${escapeRe(p)}(?:e?s)?`).join('[-_\\s]+')}(?![\\w-])`);
    return re.test(lower);
  });
}

/**
 * Words joined with slashes that the sources each hold as a quoted string (`internal/candidate/both` for a field's
 * choices `('internal', …), ('candidate', …), ('both', …)`): the values of one setting, listed, whatever the first word
 * is (`internal/` is also a Go folder). A path's segments are not each a string of their own.
 */
export function quotedValuesListed(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path') return false;
  const parts = id.value.replace(/[`'"]+$/, '').toLowerCase().split('/');
  if (parts.length < 2 || !parts.every((p) => /^[a-z][\w-]*$/.test(p))) return false;
  return parts.every((p) => new RegExp(`(["'\`])${escapeRe(p)}\\1`).test(lower));
}

const FILE_NAME = /^[\w-][\w.-]*\.[a-z][a-z0-9]{0,7}$/i;
const EXTENSION_ONLY = /^\.[a-z][a-z0-9]{0,7}$/i;

/**
 * File names joined with slashes (`entity-model.md/entity-resolution.md`): a folder named like a file is rare, a list
 * of files is not. A file holds no file, so where two file names stand in a row the slashes join a list, whatever
 * else it holds (`ui.rs/main.rs/tests`, `pull-models.sh/.bat`). Backed when the sources name each item: a file name
 * as a whole token, an extension alone as the name before it with that extension (`pull-models.bat`), a word as
 * `wordsNamed` reads it (`tests`).
 */
export function fileListBacked(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path') return false;
  const parts = id.value.replace(/[`'"]+$/, '').split('/');
  if (parts.length < 2) return false;
  const fileLike = (p: string) => FILE_NAME.test(p) || EXTENSION_ONLY.test(p);
  if (!parts.every((p) => FILE_NAME.test(p)) && !parts.some((p, k) => k > 0 && fileLike(parts[k - 1]!) && fileLike(p))) return false;
  const token = (name: string) => new RegExp(`(?<![\\w.-])${escapeRe(name.toLowerCase())}(?![\\w-]|\\.\\w)`).test(lower);
  let previous = '';
  return parts.every((p) => {
    if (EXTENSION_ONLY.test(p)) return previous !== '' && token(`${previous.slice(0, previous.lastIndexOf('.'))}${p}`);
    if (FILE_NAME.test(p)) {
      previous = p;
      return token(p);
    }
    return /^[A-Za-z][\w-]*$/.test(p) && wordsNamed([p], lower);
  });
}

/** Levenshtein distance of two short strings, stopping once it passes `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

const QUOTE = /"([^"\n]{12,})"|“([^”\n]{12,})”/g;

/**
 * Is the value the summary's quote of a text it read with one word respelled? The summary quotes a passage (between
 * double quotes) that the sources hold word for word except at the value, where they hold a word at most two
 * letters away (`dispatch_compress.md` in a quote of "… a dispact_compress.md file …"). A quote that puts another
 * name in the passage's place is a misquote, not this.
 */
export function respelledInQuote(id: Identifier, summary: string, lower: string): boolean {
  const value = id.value.replace(/[`'"]+$/, '');
  if (value.length < 5) return false;
  for (const m of summary.matchAll(QUOTE)) {
    const quote = (m[1] ?? m[2]!).toLowerCase();
    const at = quote.indexOf(value.toLowerCase());
    if (at < 0) continue;
    const before = quote.slice(0, at).trim();
    const after = quote.slice(at + value.length).trim();
    // Enough of the passage on either side to be the same passage: four words at least.
    if (`${before} ${after}`.split(/\s+/).filter((w) => /\w/.test(w)).length < 4) continue;
    const ws = (s: string) => s.split(/\s+/).filter(Boolean).map(escapeRe).join('\\s+');
    const re = new RegExp(`${ws(before)}\\s*([^\\s"]+?)\\s*${ws(after)}`, 'g');
    for (const hit of lower.matchAll(re)) {
      const word = hit[1]!;
      const d = editDistance(word, value.toLowerCase(), 2);
      if (d > 0 && d <= 2) return true;
    }
  }
  return false;
}

const DAY_MS = 86_400_000;
const dayNumber = (d: DateParts, year: number): number | null => (d.month === null || d.day === null ? null : Date.UTC(d.year ?? year, d.month - 1, d.day) / DAY_MS);

/**
 * A span of days or weeks (`7 days`, `2 weeks`) the summary states beside a date (`7 days stale (April 3)`): derived,
 * not invented, when it is the distance from that date to a date the summarizer read or a day of the session. The
 * date must stand on the summary's line; a span alone says nothing of where it was counted from. `read`: the texts the
 * summarizer read, as written (month names keep their case).
 */
export function daySpanDerived(id: Identifier, summary: string, read: string, sessionDays: Iterable<string> = []): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^~?(\d+)\s*(d|days?|w|wks?|weeks?)$/i.exec(id.value.trim());
  if (!m) return false;
  const span = Number(m[1]) * (/^w/i.test(m[2]!) ? 7 : 1);
  const lines = summary.split('\n').filter((l) => l.includes(id.value));
  const anchors = lines.flatMap((l) => dateMatches(l).map(parseDate)).filter((d): d is DateParts => d?.month != null && d.day != null);
  if (anchors.length === 0) return false;
  const others: DateParts[] = [...dateMatches(read).map(parseDate), ...[...sessionDays].map(parseDate)].filter((d): d is DateParts => d?.month != null && d.day != null);
  // Without any year read, a fixed common year: a verdict must not depend on the day it is given.
  const yearOf = others.find((d) => d.year !== null)?.year ?? anchors.find((d) => d.year !== null)?.year ?? 2001;
  return anchors.some((a) =>
    others.some((o) => {
      const year = o.year ?? a.year ?? yearOf;
      const x = dayNumber(a, a.year ?? year);
      const y = dayNumber(o, year);
      return x !== null && y !== null && Math.abs(x - y) === span;
    }),
  );
}

// A unit (by its canonical spelling, normalize.ts) as code names it: a constant to multiply by (`time.Minute`,
// `Duration.hours`) or an argument's name (`Duration(seconds: 10)`, `timedelta(days=7)`, `{ minutes: 5 }`).
const CODE_UNITS: Readonly<Record<string, string>> = {
  ms: 'milliseconds?|millis(?:econd)?',
  s: 'seconds?',
  min: 'minutes?',
  h: 'hours?',
  d: 'days?',
  w: 'weeks?',
};

/**
 * A measure the code the summarizer read sets in its own spelling: `30min` by `30 * time.Minute`, `10 seconds` by
 * `Duration(seconds: 10)`, `7 days` by `timedelta(days=7)`, `72h` by `EXPIRY_HOURS = 72`, `8 weeks` by a range of 8 counted in weeks
 * (`(0..<8).reversed().compactMap { weeksAgo in`). The same number with the same unit, written as code.
 */
export function measureInCode(id: Identifier, lower: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^~?(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(id.value.trim());
  if (!m) return false;
  const unit = CODE_UNITS[canonicalUnit(m[2]!) ?? ''];
  if (!unit) return false;
  const n = escapeRe(m[1]!);
  const times = `(?<![\\w.])${n}\\s*\\*\\s*(?:[a-z]+\\.)?(?:${unit})\\b`;
  // The unit's name may end a longer name (`_DEFAULT_EXPIRY_HOURS = 72`, `timeout_seconds=30`): a constant in that unit.
  const named = `(?<![a-z0-9])(?:${unit})\\s*[:=]\\s*${n}(?![\\w.])`;
  // A count the code makes of the unit: a range of the number whose line then names the unit (`(0..<8)… weeksAgo`,
  // `range(7)` over `days`, `1...8`).
  const counted = `(?:(?<![\\w.])[01]\\s*\\.\\.[.<=]?\\s*${n}|\\brange\\(\\s*${n}\\s*\\))(?![\\w.])[^\\n;]{0,80}?\\b(?:${unit})`;
  return new RegExp(`${times}|${named}|${counted}`).test(lower);
}

/**
 * A file named after a type the sources name (`NewOpenAIWorkoutComposerTests.swift` for the class
 * `NewOpenAIWorkoutComposerTests`): in Swift, Java, Kotlin, C# and component code one type a file is the convention.
 * Only a bare name whose stem is a type's name (two capitals at least), with an extension a file of the sources has.
 */
export function namedAfterType(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path') return false;
  const m = /^([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)\.([a-z]{1,6})$/.exec(id.value.replace(/[`'"]+$/, ''));
  if (!m) return false;
  const stem = m[1]!.toLowerCase();
  return new RegExp(`(?<![\\w.-])${escapeRe(stem)}(?![\\w-]|\\.\\w)`).test(lower) && new RegExp(`[\\w-]\\.${m[2]}(?![\\w])`).test(lower);
}

// Folders every project has: a path that starts with one names no one place once folders are left out of it.
const COMMON_FOLDER = /^(?:src|lib|app|apps|test|tests|spec|docs|config|packages|cmd|internal|pkg|scripts|public|assets|components|utils)$/;

/**
 * A path with folders left out (`clickhouse/index.ts` for `packages/clickhouse/src/index.ts`): backed by the one path
 * the sources hold with the same segments in order, the first a whole folder name and the last the same file, and
 * any folders between them. Only a relative path whose file has an extension and whose first folder is not one every
 * project has (`src/index.ts` is not `src/foo/index.ts`); two such paths in the sources name no one file.
 */
export function foldersElided(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/[`'"]+$/, '').toLowerCase();
  if (/^[/\\~.]/.test(v) || !/\.[a-z0-9]{1,8}$/.test(v)) return false;
  const segs = v.split('/');
  if (segs.length < 2 || COMMON_FOLDER.test(segs[0]!) || segs.some((s) => s === '' || s === '...' || s === '…')) return false;
  const re = new RegExp(`(?<![\\w.-])${segs.map(escapeRe).join(`/(?:[^/\\s'"\`]+/)*`)}(?![\\w-]|\\.\\w)`, 'g');
  const found = new Set([...lower.matchAll(re)].map((m) => m[0]));
  return found.size === 1;
}

/**
 * A file planned in a folder the agent made for it (`registry/cursor/block.json` after `mkdir -p registry/cursor`),
 * of a name the sources give such files (`block.json`): the summary names the next step, not a file it made up.
 */
export function plannedInMadeFolder(id: Identifier, read: string): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/[`'"]+$/, '');
  const cut = v.lastIndexOf('/');
  if (cut <= 0 || !read.includes('mkdir')) return false;
  const folder = escapeRe(v.slice(0, cut).replace(/^\.\//, ''));
  const name = v.slice(cut + 1);
  if (!/\.[A-Za-z0-9]{1,8}$/.test(name)) return false;
  const made = new RegExp(`\\bmkdir\\s+(?:-\\w+\\s+)*(?:[^\\s;&|]+\\s+)*(?:\\.\\/)?${folder}\\/?(?![\\w./-])`).test(read);
  return made && new RegExp(`(?<![\\w.-])${escapeRe(name)}(?![\\w-])`).test(read);
}

// ---------------------------------------------------------------------------------------------------------------------
// Word pieces: one rule for the spellings a person reads as the same identifier.

/** One piece of an identifier: a run of letters, of digits, a unit after a number, a placeholder, or an elision. */
interface Piece {
  readonly kind: 'letters' | 'digits' | 'unit' | 'any' | 'gap';
  readonly text: string;
  /** For digits: the identifier separated it from the digits before by `.` or `,` (one number). */
  readonly decimal?: boolean;
}

// A piece that stands for any value: `X` (`InputState.X.JustPressed()`), `Xxx`, `N`, `YYYY-MM-DD`. By its case as written.
const PLACEHOLDER_PIECE = /^(?:[XN]|X[Xx]+|x{3,}|Y{2,4}|M{2}|D{2}|H{2})$/;
const PIECE = /(\.{3}|…)|(\u{E000})|([\p{L}\p{M}]+)|([0-9]+)/gu;
// A segment that stands for any value: a route's parameter (`[id]`, `{id}`, `${convId}`, `:id`, `<id>`) or a glob.
const PARAMETER = /^(?:\[[^\]/]+\]|\{[^}/]+\}|\$\{[^}/]+\}|:[a-z_]\w*|<[^>/]+>|\*{1,2})$/i;

/**
 * A path or URL with its parameter segments marked as any value, when at least two of its segments are literal
 * (`/chat/[agentId]/log`; `/chat/[id]` alone names too little to stand for `/chat/7`).
 */
function withParameters(value: string): string {
  const segs = value.split('/');
  if (!segs.some((g) => PARAMETER.test(g)) || segs.filter((g) => g !== '' && !PARAMETER.test(g)).length < 2) return value;
  return segs.map((g) => (PARAMETER.test(g) ? '\u{E000}' : g)).join('/');
}

/** The pieces of `value` as written: maximal runs of letters or of digits; a letter run right after a number a unit. */
function piecesOf(value: string): Piece[] {
  const out: Piece[] = [];
  let end = 0;
  for (const m of value.matchAll(PIECE)) {
    const between = value.slice(end, m.index);
    end = m.index + m[0].length;
    const prev = out[out.length - 1];
    if (m[1]) {
      if (prev?.kind !== 'gap') out.push({ kind: 'gap', text: '' });
    } else if (m[2]) {
      out.push({ kind: 'any', text: '' });
    } else if (m[3]) {
      if (prev?.kind === 'digits' && /^ ?$/.test(between) && unitSpellings(m[3])) out.push({ kind: 'unit', text: m[3].toLowerCase() });
      else out.push({ kind: PLACEHOLDER_PIECE.test(m[3]) ? 'any' : 'letters', text: m[3].toLowerCase() });
    } else {
      out.push({ kind: 'digits', text: m[4]!, decimal: prev?.kind === 'digits' && /^[.,]$/.test(between) });
    }
  }
  while (out[0]?.kind === 'gap') out.shift();
  while (out[out.length - 1]?.kind === 'gap') out.pop();
  return out;
}

const SEP = '[^\\p{L}\\p{M}\\p{N}\\n]';
const LETTER = '[\\p{L}\\p{M}]';

/** The pattern of the pieces after the first one, each with the separators a spelling may put before it. */
function piecesPattern(pieces: readonly Piece[]): string {
  let out = '';
  pieces.forEach((p, i) => {
    const prev = pieces[i - 1];
    if (prev) {
      if (p.kind === 'gap' || prev.kind === 'gap') out += `${SEP}{0,3}`;
      else if (p.kind === 'unit') out += '[ \\t]?';
      // A comma between numbers is a decimal comma or a list's (`new(245,246,248)` is `new(245, 246, 248)`).
      else if (p.kind === 'digits' && prev.kind === 'digits') out += p.decimal ? '(?:\\.|,[ \\t]?)' : `${SEP}{1,3}`;
      else if ((p.kind === 'digits') !== (prev.kind === 'digits')) out += `${SEP}{0,3}`;
      else out += `${SEP}{1,3}`;
    }
    if (i === 0) return;
    if (p.kind === 'gap') out += '[^\\s\'"`]*?';
    else if (p.kind === 'any') out += '[^\\s/\\\\\'"`]+?';
    else if (p.kind === 'unit') out += `(?:${unitSpellings(p.text)!.map(escapeRe).join('|')})`;
    else out += escapeRe(p.text);
  });
  const last = pieces[pieces.length - 1]!;
  return out + (last.kind === 'digits' ? '(?![0-9]|[.,][0-9])' : `(?!${LETTER})`);
}

/** Each text's thousands separators removed, for the one text a compaction's identifiers are all looked up in. */
let plainOf: { text: string; plain: string } | null = null;
const plainText = (lower: string): string => (plainOf?.text === lower ? plainOf.plain : (plainOf = { text: lower, plain: withoutThousands(lower) }).plain);

/** Do the pieces stand in `text` in order, each after the one before with only separators between them? */
function piecesIn(pieces: readonly Piece[], text: string, tilde: boolean): boolean {
  const first = pieces[0];
  if (!first || (first.kind !== 'letters' && first.kind !== 'digits')) return false;
  // The longest literal piece first: most identifiers are invented or found by it.
  const literal = pieces.filter((p) => p.kind === 'letters' || p.kind === 'digits').reduce((a, b) => (b.text.length > a.text.length ? b : a));
  if (!text.includes(literal.text)) return false;
  const rest = new RegExp(piecesPattern(pieces), 'uy');
  // What may not stand right before the first piece: a letter before letters, a digit or a number's point before digits.
  const glued = first.kind === 'letters' ? LETTER_BEFORE : NUMBER_BEFORE;
  for (let at = text.indexOf(first.text); at >= 0; at = text.indexOf(first.text, at + 1)) {
    const before = text.slice(Math.max(0, at - 3), at);
    if (glued.test(before) || (tilde && !TILDE_BEFORE.test(before))) continue;
    rest.lastIndex = at + first.text.length;
    if (rest.test(text)) return true;
  }
  return false;
}
const LETTER_BEFORE = new RegExp(`${LETTER}$`, 'u');
const NUMBER_BEFORE = /(?:[0-9]|[0-9][.,])$/;
const TILDE_BEFORE = new RegExp(`~${SEP}{1,2}$`, 'u');

// A home folder as a path starts with it: what `~` stands for.
const HOME = /^(?:\/home\/[^/\s]+|\/Users\/[^/\s]+|[A-Za-z]:[\\/]Users[\\/][^\\/\s]+)(?=[\\/])/i;
const LOOPBACK_NAME = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)\b/i;

/**
 * Is the identifier in `lower` (the lowercased texts the summarizer read) under a spelling a person reads as the same?
 * Its word pieces (runs of letters, of digits) in the same order, each after the one before with at most a few
 * separators between them (`/`, `\`, `-`, `_`, `.`, spaces): `C:\Users\a\x.md` is `/c/Users/a/x.md`, `8.66s` is
 * `8.66 s`, `Block.json` is `block.json`. A unit is any of its spellings (`13M` is `13MB`), `...` stands for any part
 * of one token, a placeholder piece (`X`, `Xxx`, `YYYY`) for any piece. The path may start at the working directory
 * (`/repo/NOTES.md` as `NOTES.md`), at a home folder written `~`, or at its last two segments; a loopback host may be
 * any of its names. Anything else is invented: a piece missing, or the pieces scattered.
 */
export function piecesBacked(id: Identifier, lower: string, cwd: string | null = null): boolean {
  let v = id.value.replace(/[`'"]+$/, '').replace(/\(\)$/, '');
  if (id.kind === 'url' || id.kind === 'path') v = v.replace(/\/?(?:\*+|\$\d+)$/, '') || v;
  const text = plainText(lower);
  if (id.kind === 'url' || id.kind === 'path') v = withParameters(v);
  const variants: { value: string; tilde: boolean }[] = [{ value: withoutThousands(v), tilde: false }];
  // Numbers joined by commas may be a list, not one number with thousands separators (`245,246,248`).
  if (variants[0]!.value !== v) variants.push({ value: v, tilde: false });
  if (id.kind === 'path') {
    const fwd = v.replace(/\\/g, '/');
    const root = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (root && fwd.toLowerCase().startsWith(`${root.toLowerCase()}/`)) variants.push({ value: fwd.slice(root.length + 1), tilde: false });
    const home = HOME.exec(v);
    if (home) variants.push({ value: v.slice(home[0].length), tilde: true });
    const segs = fwd.replace(/\/+$/, '').split('/').filter(Boolean);
    if (segs.length > 2) variants.push({ value: segs.slice(-2).join('/'), tilde: false });
  }
  if ((id.kind === 'url' || id.kind === 'host-port' || id.kind === 'host') && LOOPBACK_NAME.test(v))
    for (const name of ['localhost', '127.0.0.1', '0.0.0.0']) variants.push({ value: v.replace(LOOPBACK_NAME, name), tilde: false });
  return variants.some(({ value, tilde }) => piecesIn(piecesOf(value), text, tilde));
}

/**
 * A setting the summary writes as `name=value` (`max_qa_retries=2`) that the code the summarizer read sets through a
 * constant: the name given the constant (`max_qa_retries: int = _MAX_RETRIES`) and the constant the value
 * (`_MAX_RETRIES = 2`). The same setting, composed from two lines of what was read. Digit separators (`30_000`) and
 * thousands commas are the same number.
 */
export function assignedThroughName(id: Identifier, lower: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^([a-z_][\w.-]*)\s*[=:]\s*(-?\d[\d_,]*(?:\.\d+)?)$/i.exec(id.value.trim());
  if (!m) return false;
  const key = escapeRe(m[1]!.toLowerCase());
  const value = m[2]!.replace(/[_,]/g, '');
  const named = new RegExp(`(?<![\\w.])${key}\\s*(?::\\s*[\\w\\[\\]., |]+?\\s*)?[=:]\\s*([a-z_][\\w.]*)(?![\\w(])`, 'g');
  for (const hit of lower.matchAll(named)) {
    const constant = escapeRe(hit[1]!);
    const set = new RegExp(`(?<![\\w.])${constant}\\s*(?::\\s*[^=\\n]+?)?=\\s*(-?\\d[\\d_,]*(?:\\.\\d+)?)(?![\\w.])`, 'g');
    for (const v of lower.matchAll(set)) if (v[1]!.replace(/[_,]/g, '') === value) return true;
  }
  return false;
}

const TERM = String.raw`\d[\d,]*(?:\.\d+)?`;
const EQUATION = new RegExp(String.raw`(?<![\w.])(${TERM})\s*([-+*/×−])\s*(${TERM})\s*=\s*(${TERM})(?![\w]|\.\d)`, 'g');

/**
 * A number the summary's own arithmetic gives (`10001315 - 10000000 = 1315` after reading the ID and the
 * occurrence 1315): a term of an equation on the summary's line that holds, whose other two terms the summarizer read.
 * Derived from what it read, shown with its working, not invented.
 */
export function arithmeticDerived(id: Identifier, summary: string, lower: string): boolean {
  if (id.kind !== 'number' && id.kind !== 'quantity') return false;
  const value = id.value.replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(value)) return false;
  const num = (t: string) => Number(t.replace(/,/g, ''));
  const read = (t: string) => new RegExp(`(?<![\\d.])${escapeRe(t.replace(/,/g, ''))}(?![\\d]|\\.\\d)`).test(plainText(lower));
  for (const line of summary.split('\n')) {
    if (!line.includes(id.value)) continue;
    for (const m of line.matchAll(EQUATION)) {
      const [a, op, b, c] = [m[1]!, m[2]!, m[3]!, m[4]!];
      const x = num(a);
      const y = num(b);
      const got = op === '+' ? x + y : op === '*' || op === '×' ? x * y : op === '/' ? x / y : x - y;
      const decimals = c.split('.')[1]?.length ?? 0;
      if (Math.abs(got - num(c)) > 0.5 * 10 ** -decimals) continue;
      const terms = [a, b, c];
      const at = terms.findIndex((t) => t.replace(/,/g, '') === value);
      if (at >= 0 && terms.every((t, k) => k === at || read(t))) return true;
    }
  }
  return false;
}

const SIZE = /^~?(\d+(?:\.\d+)?)\s*(k|kb|kib|m|mb|mib|g|gb|gib)$/i;
const FILE_TOKEN = /[\w.@+-]*[\w-]\.[a-z0-9]{1,8}\b/gi;

/**
 * A file's size the summary states beside its name (`index.html (19KB)`), derived from the byte count a listing the
 * summarizer read prints on that file's line (`-rw-r--r-- 1 rob rob 19479 Feb 26 index.html`): the count in kilo-,
 * mega- or gigabytes of 1000 or 1024, within one step of the stated precision (a listing's `-h` rounds up, a person
 * rounds to nearest). `read`: the texts the summarizer read.
 */
export function sizeFromListing(id: Identifier, summary: string, read: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = SIZE.exec(id.value.trim());
  if (!m) return false;
  const stated = Number(m[1]);
  const step = 10 ** -(m[1]!.split('.')[1]?.length ?? 0);
  const power = { k: 1, m: 2, g: 3 }[m[2]!.charAt(0).toLowerCase() as 'k' | 'm' | 'g'];
  // The file named nearest before the size on the summary's line (`main.go (14KB)`).
  const names = new Set<string>();
  for (const line of summary.split('\n')) {
    for (let at = line.indexOf(id.value); at >= 0; at = line.indexOf(id.value, at + 1)) {
      const before = [...line.slice(Math.max(0, at - 80), at).matchAll(FILE_TOKEN)].pop()?.[0];
      if (before) names.add(before.toLowerCase());
    }
  }
  if (names.size === 0) return false;
  const lines = read.toLowerCase().split('\n');
  return [...names].some((name) =>
    lines.some((line) => {
      if (!containsName(line, name)) return false;
      return [...line.matchAll(/(?<![\w.:-])(\d{3,})(?![\w.:-])/g)].some(([, n]) =>
        [1000, 1024].some((base) => Math.abs(Number(n) / base ** power - stated) < step),
      );
    }),
  );
}

/**
 * An abbreviated hash (`ea5ee39`, git's short form; the head of a checksum) backed by a longer hash the summarizer
 * read that begins with it (`ea5ee3964bef2dcbb0e0d14c81b84ed7` of an `md5sum`): a short form of what it read.
 */
export function hashPrefixBacked(id: Identifier, lower: string): boolean {
  const v = id.value.toLowerCase();
  // Hex digits of both sorts, whatever kind the value was read as (`server: ea5ee39…` reads as a host).
  if (!/^[0-9a-f]{7,}$/.test(v) || !/[0-9]/.test(v) || !/[a-f]/.test(v)) return false;
  return new RegExp(`(?<![0-9a-z])${v}[0-9a-f]+(?![0-9a-z])`).test(lower);
}

/**
 * A whole measure (`16818s`) backed by the same measure with a fraction the summarizer read (`16818.959s`, a run's
 * timing), in any spelling of its unit: the summary dropped the fraction or rounded it to the nearest whole.
 */
export function measureRounded(id: Identifier, lower: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^(\d+)\s*([a-zµ]+)$/i.exec(id.value.trim());
  const units = m ? unitSpellings(m[2]!) : null;
  if (!m || !units) return false;
  const whole = Number(m[1]);
  const re = new RegExp(`(?<![\\d.])(${m[1]}|${whole - 1})\\.(\\d+)[ \\t]?(?:${units.map(escapeRe).join('|')})(?![\\p{L}])`, 'gu');
  for (const hit of lower.matchAll(re)) {
    const n = Number(`${hit[1]}.${hit[2]}`);
    if (Math.trunc(n) === whole || Math.round(n) === whole) return true;
  }
  return false;
}

const SCALES: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/**
 * A count written with a thousands suffix (`70k`, `1.5M`) backed by the number the summarizer read written out
 * (`70,000 tokens`, `69,250` for `69k`): the same count rounded to that scale. The number must be as large as the
 * scale, so `70k` is not backed by a `70`.
 */
export function scaledCountBacked(id: Identifier, lower: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^(\d+(?:\.\d+)?)\s*([kmb])$/i.exec(id.value.trim());
  if (!m) return false;
  const scale = SCALES[m[2]!.toLowerCase()]!;
  const shown = Number(m[1]);
  const decimals = m[1]!.includes('.') ? m[1]!.split('.')[1]!.length : 0;
  for (const hit of lower.matchAll(/(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)|(?<![\d.,])\d{4,}(?![\d,]|\.\d)/g)) {
    const n = Number(hit[0].replace(/,/g, ''));
    if (n >= scale && Number((n / scale).toFixed(decimals)) === shown) return true;
  }
  return false;
}
