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
import { canonicalUnit, parseDate, type DateParts } from './normalize';

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The stems documentation and examples use for "some file": they stand for any file and name none.
const PLACEHOLDER_STEM = /^(?:(?:my|your|some|an?|the)[-_]?)?(?:file(?:name)?|foo|bar|baz|qux|example|sample|placeholder|x{2,})\d?$/i;

/**
 * A file name that stands for any file: a placeholder stem with an extension and no folder (`file.txt`, `foo.py`,
 * `example.json`), or anything under the `path/to/` of documentation. It claims no file exists, so it is never invented.
 */
export function isPlaceholderFile(id: Identifier): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/[`'"]+$/, '');
  if (/(?:^|[\\/])path[\\/]to[\\/]/i.test(v)) return true;
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

const FILE_NAME = /^[\w-][\w.-]*\.[a-z][a-z0-9]{0,7}$/i;

/**
 * File names joined with slashes (`entity-model.md/entity-resolution.md`): a folder named like a file is rare, a list
 * of files is not. Backed when the sources hold each name as a whole token.
 */
export function fileListBacked(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path') return false;
  const parts = id.value.replace(/[`'"]+$/, '').split('/');
  if (parts.length < 2 || !parts.every((p) => FILE_NAME.test(p))) return false;
  return parts.every((p) => new RegExp(`(?<![\\w.-])${escapeRe(p.toLowerCase())}(?![\\w-]|\\.\\w)`).test(lower));
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
 * `Duration(seconds: 10)`, `7 days` by `timedelta(days=7)`. The same number with the same unit, written as code.
 */
export function measureInCode(id: Identifier, lower: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^~?(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(id.value.trim());
  if (!m) return false;
  const unit = CODE_UNITS[canonicalUnit(m[2]!) ?? ''];
  if (!unit) return false;
  const n = escapeRe(m[1]!);
  const times = `(?<![\\w.])${n}\\s*\\*\\s*(?:[a-z]+\\.)?(?:${unit})\\b`;
  const named = `\\b(?:${unit})\\s*[:=]\\s*${n}(?![\\w.])`;
  return new RegExp(`${times}|${named}`).test(lower);
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

// A line of `ls -l`: mode, links, owner, group, size in bytes, date, then the name.
const LISTING_LINE = /^[-dlcbps][-rwxsStT@+.]{9}\S*\s+\d+\s+\S+\s+\S+\s+(\d+)\s+\w{3}\s+\d+\s+[\d:]+\s+(.+)$/gm;

/**
 * A file's size in kilobytes or megabytes (`19KB`, `2.4 KB`) derived from the bytes a listing printed for a file the
 * summary names (`-rw-rw-r-- 1 rob rob 19479 Feb 26 15:13 index.html`): the bytes over 1000 or 1024 (per unit step),
 * rounded as the summary writes it.
 */
export function sizeOfListedFile(id: Identifier, summary: string, read: string): boolean {
  if (id.kind !== 'quantity') return false;
  const m = /^~?(\d+(?:\.\d+)?)\s*([KMG])i?B$/i.exec(id.value.trim());
  if (!m || !read.includes(' ')) return false;
  const decimals = (m[1]!.split('.')[1] ?? '').length;
  const stated = Number(m[1]).toFixed(decimals);
  const power = 'KMG'.indexOf(m[2]!.toUpperCase()) + 1;
  for (const line of read.matchAll(LISTING_LINE)) {
    const name = line[2]!.trim().split(/[\\/]/).pop();
    if (!name || !summary.includes(name)) continue;
    const bytes = Number(line[1]);
    if ([1000, 1024].some((base) => (bytes / base ** power).toFixed(decimals) === stated)) return true;
  }
  return false;
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
