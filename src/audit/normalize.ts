// Matching rules for identifiers: when does a text contain an identifier found elsewhere, allowing for
// the ways a summary rewrites it (case, `v` prefixes, date formats, units, thousands separators,
// host and port written apart).
import { dateMatches as dateMatchValues, extractIdentifiers, quantityMatches, type ExtractOptions, type Identifier, type IdentifierKind } from './identifiers';

export interface DateParts {
  readonly year: number | null;
  readonly month: number | null;
  readonly day: number | null;
}

const MONTH_INDEX: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

/** `2025-10-07`, `2025-10-07T08:00Z`, `October 7, 2025`, `Oct 7 2025`, `7 October`, `2023`; null when not a date. */
export function parseDate(value: string): DateParts | null {
  let d = parsedDates.get(value);
  if (d === undefined) {
    if (parsedDates.size >= PARSED_DATES_MAX) parsedDates.clear();
    d = readDate(value);
    parsedDates.set(value, d);
  }
  return d;
}

/**
 * Each date's parts, by its text: an audit compares every date it checks with every date of the texts it looks in
 * (12k parses of 30 distinct dates on the bench's typical 3 MB session, ~10 % of its audit).
 */
const parsedDates = new Map<string, DateParts | null>();
const PARSED_DATES_MAX = 10_000;

function readDate(value: string): DateParts | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  if (/^\d{4}$/.test(value)) return { year: Number(value), month: null, day: null };
  const monthName = /\b([A-Za-z]{3})[A-Za-z]*\.?/.exec(value);
  const month = monthName ? MONTH_INDEX[monthName[1]!.toLowerCase()] : undefined;
  if (!month) return null;
  const nums = [...value.matchAll(/\d+/g)].map((m) => m[0]);
  const day = nums.find((n) => n.length <= 2);
  const year = nums.find((n) => n.length === 4);
  if (!day) return null;
  return { year: year ? Number(year) : null, month, day: Number(day) };
}

/**
 * Does date `a` (from the text being checked for) turn up as `b`? Same month and day, and the same year
 * unless one of them has none ("October 7" matches "2025-10-07"). A bare year matches any date in that year.
 */
export function datesMatch(a: DateParts, b: DateParts): boolean {
  if (a.month === null) return a.year !== null && a.year === b.year;
  if (a.month !== b.month || a.day !== b.day) return false;
  return a.year === null || b.year === null || a.year === b.year;
}

const UNIT_ALIASES: [RegExp, string][] = [
  [/^(?:ms|msecs?|milliseconds?)$/i, 'ms'],
  [/^(?:µs|us|microseconds?)$/i, 'us'],
  [/^(?:ns|nanoseconds?)$/i, 'ns'],
  [/^(?:s|secs?|seconds?)$/i, 's'],
  [/^(?:m|mins?|minutes?)$/, 'min'],
  [/^(?:mins?|minutes?)$/i, 'min'],
  [/^(?:h|hrs?|hours?)$/i, 'h'],
  [/^(?:d|days?)$/i, 'd'],
  [/^(?:w|wks?|weeks?)$/i, 'w'],
  [/^(?:mo|months?)$/i, 'mo'],
  [/^(?:y|yrs?|years?)$/i, 'y'],
  [/^(?:bytes?)$/i, 'b'],
  [/^(?:tokens?)$/i, 'tokens'],
  [/^(?:words?)$/i, 'words'],
  [/^(?:req\/s|rps)$/i, 'rps'],
  [/^k$/i, 'k'],
];

// Spellings of one unit, lower case: a measure is the same number under any of them (`8.66 s`, `8.66s`, `8.66 sec`;
// `16 GB`, `16G`; `13M` of `du -h` and `13MB`). Lower-case `m` is a minute or a megabyte, `k` a thousand or a kilobyte.
const UNIT_FAMILIES: readonly (readonly string[])[] = [
  ['ms', 'msec', 'msecs', 'millisecond', 'milliseconds'],
  ['us', 'µs', 'microsecond', 'microseconds'],
  ['ns', 'nanosecond', 'nanoseconds'],
  ['s', 'sec', 'secs', 'second', 'seconds'],
  ['m', 'min', 'mins', 'minute', 'minutes'],
  ['h', 'hr', 'hrs', 'hour', 'hours'],
  ['d', 'day', 'days'],
  ['w', 'wk', 'wks', 'week', 'weeks'],
  ['mo', 'month', 'months'],
  ['y', 'yr', 'yrs', 'year', 'years'],
  ['b', 'byte', 'bytes'],
  ['k', 'kb', 'kib', 'kilobyte', 'kilobytes'],
  ['m', 'mb', 'mib', 'megabyte', 'megabytes'],
  ['g', 'gb', 'gib', 'gigabyte', 'gigabytes'],
  ['t', 'tb', 'tib', 'terabyte', 'terabytes'],
  ['token', 'tokens'],
  ['word', 'words'],
];

/** Every spelling of the unit `unit` (any case) names, itself included; null when it is no unit. */
export function unitSpellings(unit: string): string[] | null {
  const u = unit.toLowerCase();
  const families = UNIT_FAMILIES.filter((f) => f.includes(u));
  return families.length === 0 ? null : [...new Set(families.flat())];
}

/** The canonical spelling of a unit (`seconds`, `secs` → `s`; `m` → `min`, but `M` stays), or null when it has none. */
export function canonicalUnit(unit: string): string | null {
  return UNIT_ALIASES.find(([re]) => re.test(unit))?.[1] ?? null;
}

/** Number with thousands separators removed and trailing zeros dropped: `1,024` → `1024`, `30.0` → `30`. */
export function normalizeNumber(raw: string): string {
  const plain = raw.replace(/,(?=\d{3}(?!\d))/g, '');
  return /^\d+\.\d+$/.test(plain) ? plain.replace(/\.?0+$/, '') : plain;
}

/** Canonical form of a quantity: `30s` and `30 seconds` → `30 s`; `pool_size: 20` → `pool_size=20`. */
export function quantityKey(value: string): string {
  let key = quantityKeys.get(value);
  if (key === undefined) {
    if (quantityKeys.size >= QUANTITY_KEYS_MAX) quantityKeys.clear();
    key = readQuantityKey(value);
    quantityKeys.set(value, key);
  }
  return key;
}

/**
 * Each quantity's key, by its text: the key index reads the quantities of every text of a session (5,114 on the 4
 * bench sessions, 175 distinct), and a key is a dozen small patterns.
 */
const quantityKeys = new Map<string, string>();
const QUANTITY_KEYS_MAX = 10_000;

function readQuantityKey(value: string): string {
  const setting = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?\s*[:=]?\s*([\d,.]+)$/.exec(value);
  if (setting) return `${settingName(setting[1]!)}=${normalizeNumber(setting[2]!)}`;
  const money = /^\$([\d,.]+)([kKMB]?)$/.exec(value);
  if (money) return `$${normalizeNumber(money[1]!)}${money[2]!.toUpperCase()}`;
  const q = /^([\d,.]+)\s*(.+)$/.exec(value);
  if (!q) return value.toLowerCase();
  const unit = q[2]!;
  const canon = canonicalUnit(unit) ?? (unit === 'M' ? 'M' : unit.toLowerCase());
  return `${normalizeNumber(q[1]!)} ${canon}`;
}

/** `pool_size`, `pool size`, `Pool-Size` all name one setting. */
const settingName = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');

/** Digits of a phone-like number, so `(510) 555-0136` and `510-555-0136` compare equal. */
const digitsOf = (s: string): string => s.replace(/\D/g, '');

const isPhone = (value: string): boolean => /[\s()-]/.test(value.replace(/^\+/, '')) && digitsOf(value).length >= 10;

/** Kinds that compare as one family: a ticket-shaped order id is the same code either way. */
const family = (kind: IdentifierKind): string => (kind === 'ticket' || kind === 'order-id' ? 'code' : kind);

/** Key that identifies the same fact however it is written; used to de-duplicate. */
export function canonicalKey(id: Identifier): string {
  const v = id.value;
  switch (id.kind) {
    case 'path':
      return `path:${v}`;
    case 'function':
      return `function:${v.replace(/\(\)$/, '')}`;
    case 'port':
      return `port:${Number(v)}`;
    case 'version':
      return `version:${v.replace(/^v/i, '').toLowerCase()}`;
    case 'url':
      return `url:${v.replace(/\/+$/, '').toLowerCase()}`;
    case 'number':
      return `number:${isPhone(v) ? digitsOf(v) : normalizeNumber(v)}`;
    case 'quantity':
      return `quantity:${quantityKey(v)}`;
    case 'date': {
      const d = parseDate(v);
      return d ? `date:${d.year ?? '*'}-${d.month ?? '*'}-${d.day ?? '*'}` : `date:${v.toLowerCase()}`;
    }
    default:
      return `${family(id.kind)}:${v.toLowerCase()}`;
  }
}

const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The text with its thousands separators removed, as `text.replace(/(?<=\d),(?=\d{3}(?!\d))/g, '')` reads them (a
 * comma between a digit and exactly three digits), by `indexOf` over the commas: the look-behind pattern was tried
 * at every position of every item. The same string when there is none. `audit-fast-paths.test.ts` compares the two.
 */
export function withoutThousands(text: string): string {
  let at = text.indexOf(',');
  let from = 0;
  let out = '';
  for (; at >= 0; at = text.indexOf(',', at + 1)) {
    const c = (k: number) => isAsciiDigit(text.charCodeAt(at + k));
    if (c(-1) && c(1) && c(2) && c(3) && !c(4)) {
      out += text.slice(from, at);
      from = at + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A text prepared for repeated identifier look-ups. Its own identifiers are extracted on first need. */
export interface Haystack {
  text: string;
  readonly lower: string;
  /** Text with thousands separators removed, for number look-ups. */
  readonly plainNumbers: string;
  readonly ids: Identifier[];
  /** `quantityKey` of each quantity among `ids`. */
  readonly quantityKeys: ReadonlySet<string>;
  /** `quantityKey` of each quantity the quantity passes match, claimed or not: holds every key of `quantityKeys`. */
  readonly quantityMatchKeys: ReadonlySet<string>;
  /** Each date the date passes match, claimed or not: holds every date among `ids`. */
  readonly dateMatches: readonly DateParts[];
}

/**
 * `options` reach the text's own identifiers (`extractIdentifiers`): the working directory, for paths under it with a
 * space. `known` is the text's lower case, when the caller made it already.
 */
export function haystack(text: string, options: ExtractOptions = {}, known?: string): Haystack {
  let lower: string | undefined = known;
  let plain: string | undefined;
  let ids: Identifier[] | undefined;
  let quantities: Set<string> | undefined;
  let quantityMatchKeys: ReadonlySet<string> | undefined;
  let dates: DateParts[] | undefined;
  return {
    text,
    get lower() {
      return (lower ??= text.toLowerCase());
    },
    get plainNumbers() {
      return (plain ??= withoutThousands(text));
    },
    get ids() {
      return (ids ??= extractIdentifiers(text, options));
    },
    get quantityKeys() {
      return (quantities ??= new Set(this.ids.filter((o) => o.kind === 'quantity').map((o) => quantityKey(o.value))));
    },
    get quantityMatchKeys() {
      // Once the identifiers are out, their quantities are the exact answer.
      return (quantityMatchKeys ??= ids ? this.quantityKeys : new Set(quantityMatches(text).map(quantityKey)));
    },
    get dateMatches() {
      // Once the identifiers are out, their dates are the exact answer.
      return (dates ??= (ids ? ids.filter((o) => o.kind === 'date').map((o) => o.value) : dateMatchValues(text))
        .map(parseDate)
        .filter((d): d is DateParts => d !== null));
    },
  };
}

// Character tests by code: `containsToken` runs for every identifier against many texts.
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWordish = (c: number): boolean => isAlnum(c) || c === 95;
const isDashOrDot = (c: number): boolean => c === 45 || c === 46;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Is `needle` in `text` as a whole token? Not glued to letters, digits or `_`, and not the tail or head of
 * a longer dashed/dotted name (`prod-1` is not in `db-prod-1`, `db-prod-1` is not in `db-prod-10`).
 * A leading `/` is allowed, so `config/db.yaml` is found inside `/app/config/db.yaml`.
 */
export function containsToken(text: string, needle: string, from = 0): boolean {
  if (!needle) return false;
  const checkLeft = isAlnum(needle.charCodeAt(0));
  const checkRight = isAlnum(needle.charCodeAt(needle.length - 1));
  for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, at + 1)) {
    // Out of range, charCodeAt gives NaN, which no test accepts: the text's edges are boundaries.
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + needle.length);
    const leftOk = !checkLeft || (!isWordish(before) && !(isDashOrDot(before) && isAlnum(text.charCodeAt(at - 2))));
    const rightOk = !checkRight || (!isWordish(after) && !(isDashOrDot(after) && isAlnum(text.charCodeAt(at + needle.length + 1))));
    if (leftOk && rightOk) return true;
  }
  return false;
}

/** `https://host:port` with no path (a trailing slash at most). */
export const isOrigin = (url: string): boolean => /^[a-z][a-z0-9+.-]*:\/\/[^/\s]+\/?$/i.test(url);

/**
 * The URL, possibly with a trailing slash, a query or a fragment (`…/auth/v1/token?grant_type=password` is a request
 * to the same endpoint), but not as the prefix of a longer URL (another path).
 */
const LONGER_PATH = /^(?:[\w%=&~+-]|[/.][\w%?#=&~+-])/;
const LONGER_REQUEST = /^(?:[\w%?#=&~+-]|[/.][\w%?#=&~+-])/;
function containsUrl(text: string, url: string): boolean {
  // A URL that already holds a query or fragment names that request: a longer query is another one.
  const longer = url.includes('?') || url.includes('#') ? LONGER_REQUEST : LONGER_PATH;
  for (let at = text.indexOf(url); at >= 0; at = text.indexOf(url, at + 1)) {
    const rest = text.slice(at + url.length, at + url.length + 2);
    if (!longer.test(rest)) return true;
  }
  return false;
}

/** A number as a whole token: not part of a longer number or decimal (`5432` is not in `54321` or `1.5432`). */
export function containsNumber(text: string, digits: string): boolean {
  // The pattern `(?<![\w]|\d[.,])digits(?![\w]|[.,]\d)`, by look-ups instead of a regex compiled per call.
  if (!digits) return pattern('(?<![\\w]|\\d[.,])(?![\\w]|[.,]\\d)').test(text);
  const isPoint = (c: number) => c === 44 || c === 46;
  for (let at = text.indexOf(digits); at >= 0; at = text.indexOf(digits, at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (isWordish(before) || (isPoint(before) && isDigit(text.charCodeAt(at - 2)))) continue;
    const after = text.charCodeAt(at + digits.length);
    if (isWordish(after) || (isPoint(after) && isDigit(text.charCodeAt(at + digits.length + 1)))) continue;
    return true;
  }
  return false;
}

/** Compiled patterns by source, so a look-up repeated over many texts compiles its pattern once. */
const compiled = new Map<string, RegExp>();
function pattern(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (!re) {
    if (compiled.size > 10_000) compiled.clear();
    re = new RegExp(source, flags);
    compiled.set(key, re);
  }
  return re;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How far before the first place of `key` (one of the identifier's required keys, see later-index.ts) in a
 * text `foundIn` may find the identifier: each occurrence of a path, token or call name holds the key, so none
 * starts more than its length, less the key's, before the key's first place. -1 for kinds matched otherwise
 * (look from the start). Offsets are the same in a text and its lower case unless the text holds `İ`.
 */
export function searchSlack(id: Identifier, key: string): number {
  let needle: string;
  switch (id.kind) {
    case 'path':
      needle = pathSuffix(id.value);
      break;
    case 'host':
    case 'email':
    case 'ticket':
    case 'order-id':
    case 'uuid':
    case 'hash':
      needle = id.value;
      break;
    case 'function': {
      // A call's name alone: `Mod.fun()` is also found by its last part, which holds other keys.
      const name = id.value.replace(/\(\)$/, '');
      if (name.includes('.')) return -1;
      needle = name;
      break;
    }
    default:
      return -1;
  }
  const lower = needle.toLowerCase();
  if (!lower.includes(key)) return -1;
  return Math.max(needle.length, lower.length) - key.length;
}

/**
 * Is the identifier `id` (found in some other text) present in `hay`, under the matching rules of its kind?
 * `from` (see `searchSlack`): no occurrence of a path, token or call name starts before it.
 */
export function foundIn(id: Identifier, hay: Haystack, from = 0): boolean {
  const v = id.value;
  switch (id.kind) {
    case 'host-port': {
      if (containsToken(hay.lower, v.toLowerCase())) return true;
      const cut = v.lastIndexOf(':');
      return containsToken(hay.lower, v.slice(0, cut).toLowerCase()) && containsNumber(hay.text, v.slice(cut + 1));
    }
    case 'port':
      return containsNumber(hay.text, String(Number(v)));
    case 'path':
      return containsToken(hay.text, pathSuffix(v), from);
    case 'url':
      return containsUrl(hay.lower, v.replace(/\/+$/, '').toLowerCase());
    case 'function': {
      const name = v.replace(/\(\)$/, '');
      const last = name.slice(name.lastIndexOf('.') + 1);
      // `from` bounds a name without a module (see `searchSlack`); a qualified one is looked for from the start.
      return containsName(hay.text, name, last === name ? from : 0) || (last !== name && /_|[a-z][A-Z]/.test(last) && containsName(hay.text, last));
    }
    case 'version': {
      const core = v.replace(/^v/i, '');
      return pattern(`(?<![\\w.])v?${escape(core)}(?![\\w]|[.-][\\w])`, 'i').test(hay.text);
    }
    case 'number': {
      if (isPhone(v)) return hay.ids.some((o) => o.kind === 'number' && digitsOf(o.value) === digitsOf(v)) || hay.text.includes(v);
      return containsNumber(hay.plainNumbers, normalizeNumber(v));
    }
    case 'date': {
      const d = parseDate(v);
      if (!d) return containsToken(hay.lower, v.toLowerCase());
      // The date passes alone first: extracting every identifier of the text is needed only when they match it.
      return hay.dateMatches.some((o) => datesMatch(d, o)) && hay.ids.some((o) => o.kind === 'date' && sameDateIn(d, o));
    }
    case 'quantity': {
      // The text look-up first: extracting the text's own quantities costs every identifier pass, and is
      // needed only when the quantity passes match one with this key.
      const setting = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?\s*[:=]?\s*([\d,.]+)$/.exec(v);
      if (setting ? settingIn(hay.plainNumbers, setting[1]!, normalizeNumber(setting[2]!)) : containsToken(hay.lower, v.toLowerCase())) return true;
      const key = quantityKey(v);
      return hay.quantityMatchKeys.has(key) && hay.quantityKeys.has(key);
    }
    default:
      return containsToken(hay.lower, v.toLowerCase(), from);
  }
}

function sameDateIn(d: DateParts, other: Identifier): boolean {
  const o = parseDate(other.value);
  return o !== null && datesMatch(d, o);
}

/**
 * `a/b/c/d.ts` is also kept as `c/d.ts` (a summary drops the checkout prefix), never as bare `d.ts`. Wherever a
 * longer suffix (`b/c/d.ts`) stands as a token, its last two segments do too, so only they need a look.
 */
function pathSuffix(path: string): string {
  const last = path.lastIndexOf('/');
  const second = last > 0 ? path.lastIndexOf('/', last - 1) : -1;
  return second < 0 ? path : path.slice(second + 1);
}

/**
 * Is `name` in `text` with no word character or `$` on either side? The pattern `(?<![\w$])name(?![\w$])`, by
 * `indexOf` and two character tests: the audit asks it for every lost call against many texts, and a pattern that
 * starts with a look-behind is tried at every position of the text.
 */
export function containsName(text: string, name: string, from = 0): boolean {
  if (!name) return pattern('(?<![\\w$])(?![\\w$])').test(text);
  for (let at = text.indexOf(name, from); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + name.length);
    if (!isWordish(before) && before !== 36 && !isWordish(after) && after !== 36) return true;
  }
  return false;
}

/** `pool_size 20`, `pool size is 20`, `pool-size=20`, `set pool_size to 20`: the setting, then its number within the same clause. */
function settingIn(text: string, name: string, num: string): boolean {
  const words = name.split('_').map(escape).join('[\\s_-]*');
  return pattern(`(?<![\\w])${words}(?![\\w])[^\\d\\n.;!?,]{0,16}?(?<![\\d.])${escape(num)}(?![\\w]|[.,]\\d)`, 'i').test(text);
}

/**
 * Does any source back a date that a summary states? A stated year must be backed by that same date with
 * that year, or by the month/day without a year plus the year somewhere in the sources. "October 7, 2023"
 * is unsupported when the sources only have October 7 in 2025 and 2026.
 */
export function dateSupported(value: string, sources: Haystack[]): boolean {
  const d = parseDate(value);
  if (!d) return sources.some((h) => containsToken(h.lower, value.toLowerCase()));
  const dates = sources.flatMap((h) => h.ids.filter((o) => o.kind === 'date').map((o) => parseDate(o.value)));
  const known = dates.filter((x): x is DateParts => x !== null);
  const yearSeen = (y: number) =>
    known.some((x) => x.year === y) || sources.some((h) => containsNumber(h.text, String(y)));
  if (d.month === null) return d.year !== null && yearSeen(d.year);
  const sameDay = known.filter((x) => x.month === d.month && x.day === d.day);
  if (d.year === null) return sameDay.length > 0;
  return sameDay.some((x) => x.year === d.year) || (sameDay.some((x) => x.year === null) && yearSeen(d.year));
}

const isPathChar = (c: number): boolean => isWordish(c) || c === 46 || c === 45 || c === 64 || c === 126 || c === 43;
const isSep = (c: number): boolean => c === 47 || c === 92;

/** The spellings a working directory takes: as written, with forward slashes, and Git Bash's `/c/…` for `C:\…`. */
function cwdForms(cwd: string): string[] {
  // Asked for every later path the audit checks, of one or two working directories a run.
  let forms = cwdFormsOf.get(cwd);
  if (!forms) {
    if (cwdFormsOf.size >= 64) cwdFormsOf.clear();
    cwdFormsOf.set(cwd, (forms = readCwdForms(cwd)));
  }
  return forms;
}
const cwdFormsOf = new Map<string, string[]>();

function readCwdForms(cwd: string): string[] {
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const fwd = trimmed.replace(/\\/g, '/');
  const forms = new Set([trimmed, fwd]);
  const drive = /^([A-Za-z]):\//.exec(fwd);
  if (drive) forms.add(`/${drive[1]!.toLowerCase()}${fwd.slice(2)}`);
  return [...forms];
}

/**
 * Is the path `path` in `text` as a whole path, not as part of a longer one: `lib/a.ex` is not in
 * `lib/a.ex/b` nor in `deps/x/lib/a.ex` (another folder's file), a directory `deps/x/` not in `deps/x/lib`, and a
 * bare `dsl.ex` not in `lib/ash/dsl.ex`. With the working directory, a relative path also stands as itself under
 * it (`/repo/lib/a.ex` for `lib/a.ex`, `C:\\repo\\a.md` for `a.md`); without it, a path with a directory may stand
 * under a longer prefix, as `foundIn` reads it.
 */
export function containsWholePath(text: string, path: string, from = 0, cwd: string | null = null): boolean {
  const bare = !/[\\/]/.test(path);
  const anchored = /^(?:[~/\\]|[A-Za-z]:[\\/])/.test(path);
  // An absolute path under the working directory is also written relative to it (`cmd/x/a.go` in a Grep's output for
  // `/repo/cmd/x/a.go`): the same file, as a tool run in the working directory prints it.
  if (anchored && cwd) {
    for (const c of cwdForms(cwd)) {
      const sep = path.charAt(c.length);
      if (path.length > c.length + 1 && (sep === '/' || sep === '\\') && path.startsWith(c)) {
        const rel = path.slice(c.length + 1);
        if (/[\\/]/.test(rel) && containsWholePath(text, rel, Math.max(0, from - c.length - 1), cwd)) return true;
      }
    }
  }
  // Without a working directory to resolve against, a relative path with a folder is matched by its tail.
  const loose = !cwd && !bare && !anchored;
  const needle = loose ? pathSuffix(path) : path;
  const dirEnd = needle.endsWith('/') || needle.endsWith('\\');
  const cwds = cwd ? cwdForms(cwd) : [];
  for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const end = at + needle.length;
    const after = text.charCodeAt(end);
    if (dirEnd ? isPathChar(after) : isSep(after) || isWordish(after) || (isDashOrDot(after) && isAlnum(text.charCodeAt(end + 1)))) continue;
    if (isPathChar(before)) continue;
    // `find -name "route.ts"`, `--include=*.ts`: a pattern to search with, not that file.
    if (SEARCH_PATTERN.test(text.slice(Math.max(0, at - 24), at))) continue;
    // A bare file name is the file a longer path ends with (`typographyStore.ts` in `/repo/stores/typographyStore.ts`);
    // relevance.ts leaves out names several files share.
    if (isSep(before) && !loose && !bare) {
      // `./lib/a.ex` is `lib/a.ex`; `/repo/lib/a.ex` is too when `/repo` is the working directory.
      const dotSlash = text.charCodeAt(at - 2) === 46 && !isPathChar(text.charCodeAt(at - 3));
      const underCwd = !anchored && cwds.some((c) => at - 1 >= c.length && text.slice(at - 1 - c.length, at - 1) === c && !isPathChar(text.charCodeAt(at - 2 - c.length)));
      if (!dotSlash && !underCwd) continue;
    }
    return true;
  }
  return false;
}

/**
 * Is the relative path `path` in `text` as the tail of a path, by whole segments (`MonoDreams/Component/Transform.cs`
 * or the path itself for `Component/Transform.cs`), not inside a longer segment and not followed by more of a path?
 */
export function containsPathTail(text: string, path: string, cwd: string | null = null): boolean {
  const cwds = cwd ? cwdForms(cwd) : [];
  for (let at = text.indexOf(path); at >= 0; at = text.indexOf(path, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const end = at + path.length;
    const after = text.charCodeAt(end);
    if (isSep(after) || isWordish(after) || (isDashOrDot(after) && isAlnum(text.charCodeAt(end + 1)))) continue;
    if (isPathChar(before)) continue;
    if (SEARCH_PATTERN.test(text.slice(Math.max(0, at - 24), at))) continue;
    // The end of a URL's path (`https://host/auth/.well-known/jwks.json`) is a request to a server, not a file.
    let start = at;
    while (start > 0 && (isPathChar(text.charCodeAt(start - 1)) || isSep(text.charCodeAt(start - 1)) || text.charCodeAt(start - 1) === 58)) start--;
    if (text.slice(start, at).includes('://')) continue;
    // A longer path from the home folder or the root that is not under the working directory is another folder's
    // (`~/.local/share/lore/patterns/data/` for the project's `patterns/data/`), not the tail of one below it.
    const head = text.slice(start, at);
    if (cwd && /^[~/]/.test(head) && !cwds.some((c) => head === `${c}/` || head.startsWith(`${c}/`))) continue;
    return true;
  }
  return false;
}

const SEARCH_PATTERN = /(?:-i?(?:name|path|regex)|--include|--exclude|--glob|-g)(?:=|\s+)["']?\**$/;

/**
 * A name made of several words (`getSession`, `ChatEmptyState`, `load_workbook`) names one function wherever it
 * stands as a word: imported, passed, rendered as `<ChatEmptyState`, or in a stack trace. A one-word name (`clear`,
 * `now`) is a function only in call form.
 */
export const isCompoundName = (name: string): boolean => name.length >= 8 && (/[a-z][A-Z]/.test(name) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(name));

/** `name(`, or Elixir's `name/1`: a call of the function, not a word that happens to share its name. */
const CALL_AFTER = /^\s*\(|^\/\d/;

/**
 * Is the function `value` (`fun()`, `Mod.fun()`) called in `text`? Only in call form, and not on another module:
 * `Other.fun(` is another function of the same name; `obj.fun(` (a variable) and a bare `fun(` are this one.
 */
export function callFormIn(text: string, value: string): boolean {
  const name = value.replace(/\(\)$/, '');
  const wordForm = isCompoundName(name.slice(name.lastIndexOf('.') + 1));
  const cut = name.lastIndexOf('.');
  const last = name.slice(cut + 1);
  const qual = cut < 0 ? '' : name.slice(0, cut);
  if (!last) return false;
  for (let at = text.indexOf(last); at >= 0; at = text.indexOf(last, at + 1)) {
    const b = text.charCodeAt(at - 1);
    if (isWordish(b) || b === 36) continue;
    const rest = text.slice(at + last.length, at + last.length + 3);
    if (isWordish(rest.charCodeAt(0)) || rest.charCodeAt(0) === 36 || (!CALL_AFTER.test(rest) && !wordForm)) continue;
    if (b !== 46) return true;
    const q = /[A-Za-z_$][\w$.]*$/.exec(text.slice(Math.max(0, at - 120), at - 1))?.[0] ?? '';
    if (!q) return true;
    if (qual) {
      if (q === qual || q.endsWith(`.${qual}`) || qual.endsWith(`.${q}`)) return true;
    } else if (!/^[A-Z]/.test(q)) return true;
  }
  return false;
}

/** A port only as `:5432` or `port 5432` (`PORT=5432`, `--port 5432`, `ports 8230-8239`), never as any number. */
export function portIn(text: string, port: string): boolean {
  const n = escape(String(Number(port)));
  return pattern(`:${n}(?![\\d:])|\\bports?\\b[^\\d\\n]{0,12}(?<!\\d)${n}(?!\\d)`, 'i').test(text);
}

/**
 * Does a later text refer to `id` (found in an evicted text) as the same thing: `foundIn`, and for a path the
 * whole path relative to the working directory (see `containsWholePath`), for a function a call of it (see
 * `callFormIn`), for a port a port (see `portIn`).
 */
export function referencedIn(id: Identifier, hay: Haystack, from = 0, cwd: string | null = null): boolean {
  // A URL that is only an origin (scheme, host, port) names a server: a later URL on that server uses it.
  if (id.kind === 'url' && isOrigin(id.value) && hay.lower.includes(`${id.value.replace(/\/+$/, '').toLowerCase()}/`)) return true;
  if (!foundIn(id, hay, from)) return false;
  switch (id.kind) {
    case 'path': {
      // `from` bounds where the path's last two segments may start (`searchSlack`, as `foundIn` reads it); the whole
      // path, which is matched here, starts up to its head's length earlier.
      const head = Math.max(id.value.length, id.value.toLowerCase().length) - pathSuffix(id.value).length;
      return containsWholePath(hay.text, id.value, Math.max(0, from - head), cwd);
    }
    case 'function':
      return callFormIn(hay.text, id.value);
    case 'port':
      return portIn(hay.text, id.value);
    case 'version':
      return versionIn(hay.text, id.value);
    default:
      return true;
  }
}

/**
 * A version standing as itself, not as a segment of a path (`ruby/4.0.0/lib/…`, `installs/ruby/4.0.0`,
 * `gems/activejob-8.1.2/lib/…`): a folder named after a release is a place, and a later path through it does not use
 * the release. (A source's path still backs a summary's version: `foundIn` reads it there.) A list of versions
 * (`8.1.2/8.1.3`) still names the first.
 */
export function versionIn(text: string, version: string): boolean {
  const core = version.replace(/^v/i, '');
  return pattern(`(?<![\\w.\\\\/])v?${escape(core)}(?![\\w]|[.-][\\w]|[\\\\/][A-Za-z_.])`, 'i').test(text);
}

/**
 * Does a tool call take the path as an argument in full: the path itself (or, relative to the working
 * directory, its absolute spelling), not a longer path that ends with it.
 */
export function exactPathIn(text: string, path: string, cwd: string | null = null): boolean {
  const forms = [path];
  if (cwd && !/^(?:[~/\\]|[A-Za-z]:[\\/])/.test(path)) for (const c of cwdForms(cwd)) forms.push(`${c}/${path}`, `${c}\\${path}`);
  return forms.some((f) => {
    for (let at = text.indexOf(f); at >= 0; at = text.indexOf(f, at + 1)) {
      const b = text.charCodeAt(at - 1);
      const a = text.charCodeAt(at + f.length);
      if (!isPathChar(b) && !isSep(b) && !isPathChar(a) && !isSep(a)) return true;
    }
    return false;
  });
}
