// Finds the load-bearing identifiers in a text: the things a later turn dereferences and a prose
// summary tends to round off (course unit "Summarizing Evicted Turns").

export type IdentifierKind =
  | 'path'
  | 'host-port'
  | 'host'
  | 'port'
  | 'url'
  | 'email'
  | 'ticket'
  | 'order-id'
  | 'uuid'
  | 'hash'
  | 'date'
  | 'version'
  | 'quantity'
  | 'function'
  | 'number';

export interface Identifier {
  /**
   * As written in the text, except that function names end in `()`, order ids drop a leading `#`, and a shell's
   * escaped spaces in a path read back (`Cursor\ Projects` → `Cursor Projects`).
   */
  value: string;
  kind: IdentifierKind;
  /** Character offset of `value` in the text it came from. */
  index: number;
}

// Each pass claims the characters it matched, so later (looser) passes cannot re-read them:
// a URL's path is not also a path, a date's year is not also a number.
type Pass = (text: string, emit: Emit) => void;
/**
 * Records an identifier unless its span is taken; `part` identifiers sit inside their parent's span. `span` is the
 * length of the text it stands for when that differs from the value's (a path whose escaped spaces are read back).
 */
type Emit = (value: string, kind: IdentifierKind, index: number, part?: boolean, span?: number) => boolean;

export interface ExtractOptions {
  /** The session's working directory: when its name holds a space, a path under it is read whole (see `spacedPaths`). */
  cwd?: string | null;
}

const MONTHS = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';

/** File extensions that make a bare `name.ext` a path, and keep `name.ext:42` from reading as host:port. */
export const FILE_EXTENSIONS = new Set(
  ('ts tsx js jsx mjs cjs json jsonl json5 yaml yml toml ini cfg conf env lock md mdx rst txt log csv tsv xml html htm css scss ' +
    'py pyi ipynb rb go rs java kt kts scala swift c h cc cpp hpp cs php pl sh bash zsh fish ps1 bat sql graphql proto tf ' +
    'hcl dockerfile gradle vue svelte lua r jl ex exs erl hs ml dart zig nix pem crt pdf png jpg jpeg gif svg wasm so dll exe bin tar gz tgz zip')
    .split(' '),
);

const TLDS = new Set(
  ('com net org io dev ai app co cloud internal local localhost invalid example test edu gov mil info biz me us uk de fr eu ca au jp cn in ' +
    'ch nl se no es it pl ru br tech xyz site online svc corp lan home arpa').split(' '),
);

// `UTF-8`, `SHA-256`, `GPT-4` look like tickets but are names of standards and models.
const CODE_STOPLIST = new Set(
  'UTF UCS SHA MD GPT ISO IEC HTTP HTTPS TLS SSL AES RSA ES ECMA IPV IP TCP UDP COVID WCAG UTC GMT PEP ARM AMD MP PCI DDR LTE USB HDMI WPA RFC CWE'.split(' '),
);

const ORDER_PREFIXES = new Set('RMA ORD ORDER INV PO SO SN'.split(' '));

function each(re: RegExp, text: string, fn: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    fn(m);
    if (m[0].length === 0) re.lastIndex++;
  }
}

/**
 * `each` on the lines of `text` that hold a match of `needs` (a global pattern led by a character, which V8 finds
 * several times faster than a pattern led by a look-behind, tried at every position). For a pattern whose matches and
 * look-arounds never reach over a line break, and whose every match the pass emits holds a match of `needs`: the
 * matches `fn` gets are then those it would get on the whole text, in order, with their index in it. A match the pass
 * does not emit claims nothing, so the lines left unread change nothing.
 */
function eachOnLines(re: RegExp, needs: RegExp, text: string, fn: (m: RegExpExecArray) => void): void {
  needs.lastIndex = 0;
  for (let hit = needs.exec(text); hit; hit = needs.exec(text)) {
    const start = text.lastIndexOf('\n', hit.index) + 1;
    let end = text.indexOf('\n', hit.index);
    if (end < 0) end = text.length;
    // `each` written out: a closure per line and a call per match cost more than the line's scan.
    const line = text.slice(start, end);
    re.lastIndex = 0;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const empty = m[0].length === 0;
      m.index += start;
      fn(m);
      if (empty) re.lastIndex++;
    }
    needs.lastIndex = end;
  }
}

/** Characters `trimTrailing` may take off the end: most matches end in none, and return at once. */
const TRAILING = new Set([...'.,;:!?\'"`)]'].map((c) => c.charCodeAt(0)));

const trimTrailing = (s: string): string => {
  if (!TRAILING.has(s.charCodeAt(s.length - 1))) return s;
  let out = s.replace(/[.,;:!?'"`]+$/, '');
  // A closing bracket belongs to the URL/path only when it opened inside it (markdown links).
  while (/[)\]]$/.test(out)) {
    const close = out.endsWith(')') ? ')' : ']';
    const open = close === ')' ? '(' : '[';
    if (out.split(open).length >= out.split(close).length) break;
    out = out.slice(0, -1).replace(/[.,;:!?'"`]+$/, '');
  }
  return out;
};

// Markdown's bold or italics closing right after a URL (`**▶ https://x/q/R2**`): two or more `*` or `_` ending it are
// the emphasis, not the URL (a single `*`, a glob, stays).
const EMPHASIS_END = /(?:\*{2,}|_{2,})$/;

const urls: Pass = (text, emit) =>
  each(/\b(?:https?|wss?|ftp|file|s3|gs):\/\/[^\s<>"'`{}|\\^]+/gi, text, (m) => {
    // Cut where a placeholder opens (`https://${host}/q/${sid}`, `/users/{id}`, `{{ base }}`): a template, no address.
    if (text.charCodeAt(m.index + m[0].length) === 123) return;
    const url = trimTrailing(m[0]);
    emit(EMPHASIS_END.test(url) ? trimTrailing(url.replace(EMPHASIS_END, '')) : url, 'url', m.index);
  });

const emails: Pass = (text, emit) =>
  each(/(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g, text, (m) => {
    emit(m[0], 'email', m.index);
  });

const uuids: Pass = (text, emit) =>
  each(/(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])/gi, text, (m) => {
    emit(m[0], 'uuid', m.index);
  });

/** Does a file extension follow at `end` (`2026-04-01.csv`, `April 01 2026.msg`)? The date is then part of a file name. */
const gluedToExtension = (text: string, end: number): boolean => text.charCodeAt(end) === 46 && /[A-Za-z]/.test(text[end + 1] ?? '');

const isoDates: Pass = (text, emit) =>
  each(
    /(?<![\w./-])(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w/]|-\d)/g,
    text,
    (m) => {
      const month = Number(m[2]);
      const day = Number(m[3]);
      if (month >= 1 && month <= 12 && day >= 1 && day <= 31 && !gluedToExtension(text, m.index + m[0].length)) emit(m[0], 'date', m.index);
    },
  );

// `Oct 14:04` in a listing is a time of day after the month, not the 14th.
const MONTH_FIRST = new RegExp(`\\b(?:${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?!\\d|:\\d)(?:,?\\s+(\\d{4})(?!\\d))?`, 'g');
const DAY_FIRST = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:${MONTHS})\\.?(?:,?\\s+(\\d{4})(?!\\d))?\\b`, 'g');

const namedDates: Pass = (text, emit) => {
  for (const re of [MONTH_FIRST, DAY_FIRST]) {
    each(re, text, (m) => {
      const day = Number(m[1]);
      if (day >= 1 && day <= 31 && !gluedToExtension(text, m.index + m[0].length)) emit(m[0].replace(/,$/, ''), 'date', m.index);
    });
  }
};

const isIPv4 = (s: string): boolean => /^(?:\d{1,3}\.){3}\d{1,3}$/.test(s) && s.split('.').every((p) => Number(p) <= 255);

/** A token that reads as a host name: an IPv4 address, `localhost`, a dotted name with a TLD, or a dashed name with a digit. */
export function looksLikeHost(host: string): boolean {
  if (isIPv4(host)) return true;
  if (!/[a-z]/i.test(host)) return false;
  if (/^localhost$/i.test(host)) return true;
  const labels = host.split('.');
  if (labels.length > 1) {
    const last = labels[labels.length - 1]!.toLowerCase();
    return /^[a-z]{2,}$/.test(last) && !FILE_EXTENSIONS.has(last);
  }
  return /-/.test(host) && /\d/.test(host);
}

const HOST = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*';

// Each look-ahead right after a look-behind holds for every match of its pattern (`host:port` has a `:` and a
// digit after its host characters, a function chain a `(`, …): it only spares the engine hopeless starts.
// For dotted hosts it also skips hosts without a dot, which the pass drops anyway.
const HOST_PORT = new RegExp(`(?<![\\w./:@-])(?=[A-Za-z0-9.-]*:\\d)(${HOST}):(\\d{2,5})(?![\\w:]|\\.\\d)`, 'g');
// The label is a word of its own: `mcp-servers-nix.lib` holds no label `server` before a host `s-nix.lib`.
const LABELLED_HOST = new RegExp(`\\b(?:host(?:name)?|server)\\b["']?[ \\t]{0,3}(?:[:=]|\\bis\\b)?[ \\t]{0,3}["'\`]?(${HOST})`, 'gi');
const DOTTED_HOST = new RegExp(`(?<![\\w.@/-])(?=[A-Za-z0-9-]*\\.[A-Za-z0-9])${HOST}(?![\\w@-]|\\.[A-Za-z0-9])`, 'g');

// `db-prod-1:5432` is kept whole and also split, so a summary that writes host and port apart still keeps them.
const hostPorts: Pass = (text, emit) =>
  eachOnLines(HOST_PORT, HOST_PORT_LINES, text, (m) => {
    const host = m[1]!;
    const port = Number(m[2]);
    if (!looksLikeHost(host) || port < 1 || port > 65535) return;
    if (emit(m[0], 'host-port', m.index)) {
      emit(host, 'host', m.index, true);
      emit(m[2]!, 'port', m.index + host.length + 1, true);
    }
  });

const labelledHosts: Pass = (text, emit) =>
  each(LABELLED_HOST, text, (m) => {
    const host = m[1]!;
    if (looksLikeHost(host) || (/[-.\d]/.test(host) && /[a-z]/i.test(host) && !/^\d/.test(host))) {
      emit(host, 'host', m.index + m[0].length - host.length);
    }
  });

const labelledPorts: Pass = (text, emit) =>
  each(/\bport["']?[ \t]{0,3}(?:[:=]|\bis\b|\bnumber\b)?[ \t]{0,3}["'`]?(\d{2,5})(?![\w.]|\.\d)/gi, text, (m) => {
    const port = m[1]!;
    if (Number(port) >= 1 && Number(port) <= 65535) emit(port, 'port', m.index + m[0].length - port.length);
  });

const hosts: Pass = (text, emit) =>
  eachOnLines(DOTTED_HOST, HOST_LINES, text, (m) => {
    const host = m[0];
    if (!host.includes('.')) return;
    const last = host.slice(host.lastIndexOf('.') + 1).toLowerCase();
    // `AshComputer.Info` is an Elixir module, not a domain: domains are written in lower case.
    const lowerCase = !/[A-Z]/.test(host);
    if (isIPv4(host) || (lowerCase && TLDS.has(last) && /[a-z]/.test(host.slice(0, host.lastIndexOf('.'))))) emit(host, 'host', m.index);
  });

const PATH_CHARS = '[\\w.@~+-]';

const DIR_NAMES = new Set(
  ('src lib app apps test tests spec specs docs doc bin pkg cmd internal config configs components assets public static ' +
    'scripts include build dist out node_modules vendor deps priv web api core utils util packages modules services ' +
    'handlers models views controllers routes migrations fixtures tmp var etc usr home opt').split(' '),
);

// A segment may be a bracketed route parameter (`app/[org]/join/page.tsx`, Next.js and SvelteKit routes).
const SEGMENT = `(?:${PATH_CHARS}|\\[[\\w.-]+\\])`;
const SLASHED_PATH = new RegExp(`(?<![\\w<:/.~\\\\@+-])(?=${SEGMENT}*/)(?:~|\\.{1,2})?/?(?:${SEGMENT}+/)+${SEGMENT}*`, 'g');

/**
 * What `read` makes of a match, remembered by its text: the same paths and calls recur across a session's texts
 * (the 4 bench sessions' evicted texts: 7,009 slashed paths, 614 distinct), and reading one is a dozen small patterns.
 */
function memo<T extends object | string | null>(known: Map<string, T>, match: string, read: (match: string) => T): T {
  const was = known.get(match);
  if (was !== undefined) return was;
  if (known.size >= 20_000) known.clear();
  const value = read(match);
  known.set(match, value);
  return value;
}
const SLASHED_READ = new Map<string, string | null>();

/** The path a slashed-path match stands for, or null when it reads as words (`and/or`, `Read/Glob/Grep`). */
function slashedPath(match: string): string | null {
  const raw = trimTrailing(match);
  const body = raw.replace(/^(?:~|\.{1,2})?\//, '');
  if (!body || /^[\d/.]+$/.test(body) || raw.includes('//')) return null;
  const segments = body.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const ext = last.includes('.') ? last.slice(last.lastIndexOf('.') + 1).toLowerCase() : '';
  const anchored = /^(?:~|\.{1,2})?\//.test(raw);
  const strong = anchored || segments.length >= 3 || FILE_EXTENSIONS.has(ext) || (raw.endsWith('/') && segments.length >= 2);
  if (!strong || !/[A-Za-z]/.test(body)) return null;
  // Lists written with slashes: `.ex/.exs`, `.json/.jsonl`, `Read/Glob/Grep`.
  if (segments.every((seg) => /^\.[a-z0-9]{1,6}$/i.test(seg))) return null;
  if (!anchored && segments.every((seg) => /^[A-Z][a-z]+$/.test(seg))) return null;
  if (!anchored && segments.some((seg) => seg.startsWith('-'))) return null;
  // `issues/tasks/epics`, `open/closed/blocked` are word lists; `src/components/ui` is a path. Without an
  // extension, anchor or trailing slash, a path needs a segment that only code would write.
  if (!anchored && !FILE_EXTENSIONS.has(ext) && !raw.endsWith('/') && !segments.some((seg) => /[_.\d-]/.test(seg) || DIR_NAMES.has(seg))) {
    return null;
  }
  if (anchored && segments.length === 1 && !FILE_EXTENSIONS.has(ext) && !raw.startsWith('~') && !raw.startsWith('.')) {
    // `/etc` is a path, `/s` in `req /s` or `/think` in prose is not: one bare segment needs 3+ letters.
    if (!/^[a-z][\w.-]{2,}$/i.test(last)) return null;
  }
  return raw;
}

// Bare file names with a known extension (see `paths`).
const FILE_NAME = /(?<![\w.@/\\%}-])(?=[\w-]+\.)[\w-]+(?:\.[\w-]+)*\.([A-Za-z0-9]{1,10})(?![\w-]|\.[A-Za-z0-9]|\()/g;

const paths: Pass = (text, emit) => {
  // Slashed paths: absolute, relative (./ ../ ~/), or with two slashes, an extension or a trailing slash,
  // so that `and/or`, `TCP/IP`, `req/s` stay words.
  // Starts only at a token boundary (no path character before it), so a long run like `a@a@a@…` is
  // scanned once, not once per character.
  eachOnLines(SLASHED_PATH, SLASH_LINES, text, (m) => {
    // A path a glob or a template's slot cuts inside a name (`DerivedData/FitToday-*`, `docs/skills/wfc-{name}.md`,
    // `logs/run-${id}.txt`) is the head of a pattern: it names no one file or folder. A whole folder before the glob
    // (`/etc/nginx/sites-enabled/*`) is that folder, whose files it lists.
    const next = text.charCodeAt(m.index + m[0].length);
    if ((next === 42 || next === 123 || next === 36) && !m[0].endsWith('/')) return;
    const raw = memo(SLASHED_READ, m[0], slashedPath);
    if (raw !== null) emit(raw, 'path', m.index);
  });
  if (text.includes('\\')) each(/(?<![\w\\])[A-Za-z]:\\(?:[^\\\s:*?"<>|`]+\\)*[^\\\s:*?"<>|`]+/g, text, (m) => {
    emit(trimTrailing(m[0]), 'path', m.index);
  });
  // Bare file names with a known extension (`db.yaml`, `README.md`), but not `Node.js`-style product names.
  // Not before `(`: `response.json()`, `NextResponse.json(` are calls, not files. Not after a format verb's `%` or a
  // template slot's `}`: `agent-%s.jsonl`, `{id}-log.txt` are templates of names, and their tails name no file.
  eachOnLines(FILE_NAME, FILE_NAME_LINES, text, (m) => {
    const ext = m[1]!.toLowerCase();
    if (!FILE_EXTENSIONS.has(ext)) return;
    const stem = m[0].slice(0, -(ext.length + 1));
    if (ext === 'js' && /^[A-Z][a-z]+$/.test(stem)) return;
    if (/^\d+$/.test(stem)) return;
    // An extension written capitalised after a lower-case name (`repo.Log`, `resp.Json`) is a member of a value in
    // Go, C# or Java prose, not a file: files write their extension in lower or upper case.
    if (/^[A-Z][a-z]+$/.test(m[1]!) && /^[a-z]/.test(stem)) return;
    emit(m[0], 'path', m.index);
  });
};

// Paths with a space (`/Users/x/Cursor Projects/app/a.ts`, `~/Library/Mobile Documents/…`). In prose a space ends a
// path; these are read whole only where the text marks both ends: a quoted string or code span that is one path, the
// line a tool result frames a path in, a path under a working directory whose name holds a space, a shell's escaped
// spaces. Each needs a space inside, so a text without one reads as it did.

/** An absolute path, one from the home folder, or one relative to `.`/`..`: a rooted one has two segments at least. */
const ANCHORED_PATH = /^(?:[A-Za-z]:[\\/]|~[\\/]|\.{1,2}[\\/]|\/[^/\s][^/]*\/)/;
/** What a quoted string holds when it is a command or a sentence rather than one path: an option, an operator, a clause break. */
const NOT_ONE_PATH = /\s-{1,2}[A-Za-z]|&&|\|\||\$\(|[:;,]\s|\s[|>]|\s$|^\s/;

/** Is `s` one path holding a space: segments of path characters, none of them starting or ending with a space or a sentence? */
function isSpacedPath(s: string, anchored: boolean): boolean {
  if (!s.includes(' ') || s.length > MAX_IDENTIFIER_LENGTH || NOT_ONE_PATH.test(s) || /[\n\t"'`*?<>|{}]/.test(s)) return false;
  if (anchored && !ANCHORED_PATH.test(s)) return false;
  const segments = s.replace(/^(?:[A-Za-z]:|~|\.{1,2})?[\\/]/, '').replace(/[\\/]$/, '').split(/[\\/]/);
  // A segment is a file or folder name: no empty one (`//` is a URL's), no space at its edges, a few words at most.
  return segments.every((seg) => /^[^\s\\/](?:[^\\/]*[^\s\\/])?$/.test(seg) && seg.split(' ').length <= 4) && /[A-Za-z]/.test(s);
}

// A quoted string (or markdown code span) that begins at a token's start, ends before a token's end, and holds one
// path: a shell argument (`cd "/Users/x/Cursor Projects/app"`), a JSON string (`"file_path":"/Users/…/a.ts"`).
// The quote comes first in the pattern, so the engine skips ahead to the quotes; a value starts at an anchor (`/`, `~/`,
// `./`, a drive) unless a property names it a path.
const QUOTED = /(["'`])(?<![\w\\].)((?:[A-Za-z]:|~|\.{1,2})?[\\/][^"'`\n]{2,300})\1(?![\w])/g;
const PATH_VALUE = /"[\w-]*(?:path|file|dir|folder)[\w-]*"\s*:\s*"([^"\n]{3,300})"(?![\w])/gi;
// Claude Code frames the path of a file its Edit or Write tool changed with fixed words, to the end of the line.
const FRAMED = /^(?:The file (\S.*?) has been updated\b|File created successfully at: (\S.*?)\s*$)/gm;
// A shell's escaped space (`Cursor\ Projects/app`): segments joined by `/`, with `\ ` inside names.
const ESCAPED = /(?<![\w\\/.~@+-])(?:~|\.{1,2})?\/?(?:(?:[\w.@~+-]|\\ )+\/)+(?:[\w.@~+-]|\\ )*/g;

function spacedPaths(text: string, emit: Emit, cwd: string | null): void {
  if (!text.includes(' ')) return;
  if (text.includes('The file ') || text.includes('File created successfully at: ')) {
    each(FRAMED, text, (m) => {
      const path = m[1] ?? m[2]!;
      if (isSpacedPath(path, true)) emit(path, 'path', m.index + m[0].indexOf(path));
    });
  }
  if (text.includes('"') || text.includes("'") || text.includes('`')) {
    each(QUOTED, text, (m) => {
      if (isSpacedPath(m[2]!, true)) emit(m[2]!, 'path', m.index + 1);
      // The closing quote may open the next string (`"cat "/a b/c.ts""` once JSON's `\"` is read back).
      QUOTED.lastIndex = m.index + m[0].length - 1;
    });
    // Relative, a JSON path property's value names a file by its folder or its extension.
    if (text.includes('":')) {
      each(PATH_VALUE, text, (m) => {
        const value = m[1]!;
        const named = /[\\/]/.test(value) || FILE_EXTENSIONS.has(value.slice(value.lastIndexOf('.') + 1).toLowerCase());
        if (named && isSpacedPath(value, false)) emit(value, 'path', m.index + m[0].length - value.length - 1);
      });
    }
  }
  if (cwd && /\s/.test(cwd)) underSpacedCwd(text, emit, cwd);
  if (text.includes('\\ ')) {
    each(ESCAPED, text, (m) => {
      const raw = trimTrailing(m[0]);
      if (!raw.includes('\\ ')) return;
      const value = raw.replace(/\\ /g, ' ');
      if (isSpacedPath(value, false) && /[\\/]/.test(value)) emit(value, 'path', m.index, false, raw.length);
    });
  }
}

/** The working directory whose name holds a space, where it stands in the text, and the path that goes on below it. */
const REST = /^\/(?:[\w.@~+-]|\[[\w.-]+\])+(?:\/(?:[\w.@~+-]|\[[\w.-]+\])+)*\/?/;
const WINDOWS_REST = /^\\(?:[\w.@~+-]|\[[\w.-]+\])+(?:\\(?:[\w.@~+-]|\[[\w.-]+\])+)*\\?/;

function underSpacedCwd(text: string, emit: Emit, cwd: string): void {
  const root = cwd.replace(/[\\/]+$/, '');
  for (const form of new Set([root, root.replace(/\\/g, '/')])) {
    const windows = form.includes('\\');
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      const before = text.charCodeAt(at - 1);
      // Not inside a longer path or word (`/Volumes/x/Users/x/My Proj`).
      if (at > 0 && /[\w.@~+\\/-]/.test(String.fromCharCode(before))) continue;
      let end = at + form.length;
      const sep = text.charAt(end);
      // Below it, the path goes on in the directory's own separator (a `\` after `/Users/…` is an escape, not a folder).
      const rest = (windows ? WINDOWS_REST : REST).exec(text.slice(end, end + MAX_IDENTIFIER_LENGTH));
      if (rest) end += rest[0].length;
      // A name going on past the directory's (`My Project2` for `My Project`) is another folder.
      else if (/[\w.@~+-]/.test(sep)) continue;
      const path = trimTrailing(text.slice(at, end));
      if (path.length >= form.length) emit(path, 'path', at);
    }
  }
}

// Calls on library objects (`els.forEach(`, `document.getElementById(`, `Enum.map(`) fill any code a tool
// printed; they are not the project's own functions, which are what a later turn reaches for.
const BUILTIN_METHODS = new Set(
  ('forEach querySelector querySelectorAll getElementById getElementsByClassName getElementsByTagName addEventListener ' +
    'removeEventListener dispatchEvent setTimeout setInterval clearTimeout clearInterval requestAnimationFrame toString ' +
    'toLowerCase toUpperCase toFixed indexOf lastIndexOf startsWith endsWith hasOwnProperty isArray parseInt parseFloat ' +
    'isNaN getAttribute setAttribute removeAttribute hasAttribute appendChild removeChild insertBefore createElement ' +
    'scrollIntoView getBoundingClientRect preventDefault stopPropagation getSelection getRangeAt intersectsNode closest ' +
    'localeCompare padStart padEnd trimStart trimEnd replaceAll flatMap findIndex fromEntries is_nil to_string __init__ ' +
    'isinstance getattr setattr hasattr')
    .split(' '),
);
const LIBRARY_RECEIVERS = new Set(
  ('document window console Math JSON Object Array Promise Number Date Reflect Symbol Enum Map MapSet List Keyword Kernel ' +
    'String Integer Float Regex IO Logger Stream Access Tuple os sys re json np pd path fs hljs')
    .split(' '),
);

/**
 * `name()` always; `name(` when the name has an underscore or camelCase, which plain words don't.
 * `Module.func(` keeps its module; `obj.method(` on a variable keeps only the method name.
 */
const functions: Pass = (text, emit) =>
  eachOnLines(/(?<![\w$.])(?=[\w$.]*\()([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\((\))?/g, CALL_LINES, text, (m) => {
    const call = memo(CALL_READ, m[0], callName);
    if (call !== null) emit(call.value, 'function', m.index + call.offset);
  });
const CALL_READ = new Map<string, { value: string; offset: number } | null>();

/** A call match (`chain(` or `chain()`) as a function identifier and where in the match its name starts, or null. */
function callName(match: string): { value: string; offset: number } | null {
  const empty = match.endsWith('()');
  const chain = match.slice(0, empty ? -2 : -1);
  const cut = chain.lastIndexOf('.');
  const method = chain.slice(cut + 1);
  const receiver = cut < 0 ? '' : chain.slice(0, cut);
  const shaped = /_/.test(method.replace(/^_+/, '')) || /^_+[a-z]/i.test(method) || /[a-z][A-Z]/.test(method);
  if ((!shaped && !empty) || /^\d/.test(method) || BUILTIN_METHODS.has(method)) return null;
  const root = receiver.split('.')[0]!;
  if (LIBRARY_RECEIVERS.has(root)) return null;
  const qualified = receiver !== '' && /^[A-Z]/.test(root);
  const name = qualified || receiver === '' ? chain : method;
  return { value: `${name}()`, offset: chain.length - name.length };
}

const codes: Pass = (text, emit) =>
  eachOnLines(/(?<![\w-])(?=#?[A-Z0-9]*-)#?[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?![\w-])/g, CODE_LINES, text, (m) => {
    const hash = m[0].startsWith('#');
    const code = hash ? m[0].slice(1) : m[0];
    const index = hash ? m.index + 1 : m.index;
    const prefix = code.slice(0, code.indexOf('-'));
    if (CODE_STOPLIST.has(prefix)) return;
    const simple = /^([A-Z]{2,10})-(\d+)$/.exec(code);
    if (simple) {
      const digits = simple[2]!;
      const before = text.slice(Math.max(0, index - 24), index);
      const orderish =
        hash ||
        ORDER_PREFIXES.has(prefix) ||
        digits.length >= 6 ||
        /\b(?:order|rma|return|invoice|purchase|shipment|serial)\b[^\n]*$/i.test(before);
      emit(code, orderish ? 'order-id' : 'ticket', index);
      return;
    }
    // Serials and other multi-part codes (`ACB-PRO-7F29D4`): need a digit and a letter and some length.
    if (/^[A-Z]{2,}/.test(code) && /\d/.test(code) && /[A-Z]/.test(code) && code.length >= 6) emit(code, 'order-id', index);
  });

const hashes: Pass = (text, emit) =>
  each(/(?<![\w-])(?:sha\d*[:-])?([0-9a-f]{7,64})(?![\w-])/g, text, (m) => {
    const hex = m[1]!;
    if (!(hex.length <= 40 || hex.length === 64)) return;
    if (!/\d/.test(hex) || !/[a-f]/.test(hex)) return;
    // `1e10`-style numbers and words with a stray digit are not hashes: demand a few of each.
    if ((hex.match(/[a-f]/g) ?? []).length < 2 || (hex.match(/\d/g) ?? []).length < 2) return;
    emit(hex, 'hash', m.index + m[0].length - hex.length);
  });

const versions: Pass = (text, emit) => {
  // Not after a dash: `.Spotlight-V100`, `Store-V2` are names with a suffix, not versions.
  if (V_VERSION_NEEDS.test(text)) {
    each(/(?<![\w.-])[vV]\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\d)/g, text, (m) => {
      emit(m[0], 'version', m.index);
    });
  }
  if (!DOTTED_VERSION_NEEDS.test(text)) return;
  each(/(?<![\w.])\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\d)/g, text, (m) => {
    emit(m[0], 'version', m.index);
  });
  each(/\b(?:version|ver\.?|release|python|node|ios|android|macos)\s+v?(\d+\.\d+)(?![\w]|\.\d)/gi, text, (m) => {
    emit(m[1]!, 'version', m.index + m[0].length - m[1]!.length);
  });
};

/** `pool_size 20`, `pool_size: 20`, `max_tokens=512`: a snake_case setting and its number. */
const NUM = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?';

// A number right before `>` or `<` is a file descriptor (`status 2>&1`), not a value. A number that begins a hyphenated
// word (`auto_commit 7-char BaseCommit`) is that word's measure, said of the name, not a value given to it.
const SETTING = new RegExp(`(?<![\\w.$-])(?=[a-z0-9]*_)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?[ \\t]*(?:[:=][ \\t]*|[ \\t])(?:${NUM})(?![\\w<>]|[.,]\\d|-[A-Za-z])`, 'g');

const settings: Pass = (text, emit) =>
  each(SETTING, text, (m) => {
    emit(m[0], 'quantity', m.index);
  });
// Word units may follow a space; one-letter units must be attached (`30s`, `24h`, `1M`; not `B`, which reads apartment `4B` as bytes).
const SPACED_UNITS =
  'ms|µs|us|ns|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|yrs?|[KMGTP]i?B|kB|bytes?|tokens?|words?|req/s|rps|qps|%|°[CF]';
const ATTACHED_UNITS = `${SPACED_UNITS}|s|m|h|d|w|k|K|M`;

const MONEY = new RegExp(`(?<![\\w.$-])\\$(?:${NUM})(?:[kKMB]\\b)?`, 'g');
const AMOUNT = new RegExp(`(?<![\\w.,$-])(?:${NUM})(?:(?:${ATTACHED_UNITS})|[ \\t](?:${SPACED_UNITS}))(?![\\w/])`, 'g');

const quantities: Pass = (text, emit) => {
  // Most texts hold no `$`: a scan for it costs a tenth of the pattern's, and the key index reads every text's quantities.
  if (text.includes('$')) {
    each(MONEY, text, (m) => {
      emit(m[0], 'quantity', m.index);
    });
  }
  each(AMOUNT, text, (m) => {
    // `0m`, `0.00s` in timing tables say nothing a later turn could need.
    if (Number(/^[\d.]+/.exec(m[0].replace(/,/g, ''))![0]) === 0) return;
    emit(m[0], 'quantity', m.index);
  });
};

const phones: Pass = (text, emit) =>
  each(/(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\w-])/g, text, (m) => {
    emit(m[0], 'number', m.index);
  });

// A bare year only where the words around it make it one ("in 2023", "since 2019", "(2021)", "October 2025"):
// `setTimeout(fn, 2000)` and `limit 1999` are not dates.
const YEAR_CONTEXT = new RegExp(
  `(?:\\b(?:in|since|from|until|till|to|by|of|during|year|circa|before|after|early|late|mid|fiscal|FY|Q[1-4]|copyright|${MONTHS})\\.?,?\\s{1,3}|\\(|©\\s?)$`,
  'i',
);
const years: Pass = (text, emit) =>
  // The context is checked on a short slice before the match: a look-behind with `\s+` rescans every
  // run of spaces at each position, which is quadratic on whitespace-heavy tool output.
  each(/(?<![\w.,$#/:-])(?:19|20)\d{2}(?![\w-]|[.,:/]\d)/g, text, (m) => {
    if (YEAR_CONTEXT.test(text.slice(Math.max(0, m.index - 24), m.index)) && !gluedToExtension(text, m.index + m[0].length)) emit(m[0], 'date', m.index);
  });

// Small integers are everywhere, and 4-digit ones are mostly counts, line numbers and milliseconds; only
// long (5+ digits) or thousands-separated numbers identify something (order numbers, ids, ZIP codes).
const numbers: Pass = (text, emit) =>
  each(/(?<![\w.,$/:-])(?:\d{1,3}(?:,\d{3})+|\d{5,})(?![\w-]|[.,]\d)/g, text, (m) => {
    emit(m[0], 'number', m.index);
  });

// What every identifier a pass emits holds, as a pattern led by a character rather than a look-behind: V8 scans a text
// for it several times faster than for the pass's own pattern. Without it, the text (or line, `eachOnLines`) holds
// nothing the pass emits, and is not scanned (audit-fast-paths.test.ts checks each against its pass).
/** A UUID's middle groups. */
export const UUID_NEEDS = /-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-/i;
/** An ISO date's month and day. */
export const ISO_DATE_NEEDS = /-\d\d-\d\d/;
/** A setting's last name part, then its number. */
export const SETTING_NEEDS = /_[a-z0-9]+["']?[ \t]*(?:[:=][ \t]*|[ \t])\d/;
/** A port after a host's last character. */
export const HOST_PORT_LINES = /[A-Za-z0-9]:\d\d/g;
/** What `hosts` emits: a name ending in a known top-level domain, or an IPv4 address. */
export const HOST_LINES = new RegExp(`\\.(?:${[...TLDS].join('|')})(?![\\w@-]|\\.[A-Za-z0-9])|\\.\\d{1,3}\\.\\d{1,3}\\.\\d`, 'g');
/** A slashed path's slash. */
export const SLASH_LINES = /\//g;
/** A bare file name's known extension, as `FILE_NAME` ends. */
export const FILE_NAME_LINES = new RegExp(`\\.(?:${[...FILE_EXTENSIONS].join('|')})(?![\\w-]|\\.[A-Za-z0-9]|\\()`, 'gi');
/** A call's parenthesis after its name. */
export const CALL_LINES = /[\w$]\(/g;
/** A code's dash before its next part. */
export const CODE_LINES = /-[A-Z0-9]/g;

/** A hash's seven hex digits. */
export const HASH_NEEDS = /[0-9a-f]{7}/;
/** A phone number's last two groups. */
export const PHONE_NEEDS = /\d{3}[\s.-]\d{4}/;
/** A `v` version's letter and first digit. */
export const V_VERSION_NEEDS = /[vV]\d/;
/** A dotted version's first dot, between digits (`1.2.3`, `node 20.1`). */
export const DOTTED_VERSION_NEEDS = /\d\.\d/;

/** A pass whose patterns all need `needed` in the text: without it the pass cannot match, and is skipped. */
const needs =
  (needed: string | RegExp, pass: Pass): Pass =>
  (text, emit) => {
    if (typeof needed === 'string' ? text.includes(needed) : needed.test(text)) pass(text, emit);
  };

const PASSES: Pass[] = [
  needs('://', urls),
  needs('@', emails),
  // Before UUIDs and dates: `~/.claude/projects/…/4d5611e5-….jsonl` is one path, not a UUID.
  paths,
  needs(UUID_NEEDS, uuids),
  needs(ISO_DATE_NEEDS, isoDates),
  needs(/Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/, namedDates),
  hostPorts,
  needs(/host|server/i, labelledHosts),
  needs(/port/i, labelledPorts),
  hosts,
  functions,
  codes,
  needs(HASH_NEEDS, hashes),
  versions,
  needs(SETTING_NEEDS, settings),
  quantities,
  needs(PHONE_NEEDS, phones),
  years,
  numbers,
];

export const MAX_IDENTIFIER_LENGTH = 300;

/**
 * Every quantity the quantity passes match in `text`, before earlier passes claim their characters: the
 * quantities among `extractIdentifiers(text)` are some of these, so a quantity not here is not there either.
 * Without `withSettings`, only amounts with a unit or a currency (`30s`, `$5`), not settings (`pool_size: 20`).
 */
export function quantityMatches(text: string, withSettings = true): string[] {
  const out: string[] = [];
  const emit: Emit = (value) => {
    out.push(value);
    return true;
  };
  if (withSettings) settings(text, emit);
  quantities(text, emit);
  return out;
}

// Where texts joined with blank lines may hold an identifier across the join. Only patterns with `\s+` (or a
// year's context, `in\s{1,3}2023`) can reach over a blank line: a named date (`Oct` | `7`, `Oct 7` | `2025`,
// `7` | `Oct`, `7 Oct` | `2025`), a labelled version (`node` | `20.1`) and a year after its context word
// (`in` | `2023`). Every other pattern and look-around reads a line break as it reads the end of the text.
const ENDS_WITH_WORD_BEFORE_DIGIT = new RegExp(
  `\\b(?:${MONTHS}|version|ver|release|python|node|ios|android|macos|in|since|from|until|till|to|by|of|during|year|circa|before|after|early|late|mid|fiscal|FY|Q[1-4]|copyright)\\.?,?$`,
  'i',
);
const ENDS_WITH_DAY = /\b\d{1,2}(?:st|nd|rd|th)?,?$/i;
const ENDS_WITH_MONTH = new RegExp(`\\b(?:${MONTHS})\\.?$`, 'i');
const STARTS_WITH_DIGIT = /^[vV]?\d/;
const STARTS_WITH_MONTH = new RegExp(`^(?:${MONTHS})`);

/** The last few characters of `text[0, end)` before its trailing white space ('' when it is blank). */
function tail(text: string, end = text.length): string {
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return text.slice(Math.max(0, end - 40), end);
}

/** Can a match reach from the end of `before` over a blank line to a text starting with `head`? */
function joins(before: string, head: string): boolean {
  if (STARTS_WITH_MONTH.test(head) && ENDS_WITH_DAY.test(tail(before))) return true;
  if (!STARTS_WITH_DIGIT.test(head)) return false;
  const last = tail(before);
  if (ENDS_WITH_WORD_BEFORE_DIGIT.test(last)) return true;
  // `Oct 7` | `2025`: a day, and before it (past any white space) a month.
  const day = ENDS_WITH_DAY.exec(last);
  if (!day) return false;
  let end = before.length;
  while (end > 0 && /\s/.test(before[end - 1]!)) end--;
  return ENDS_WITH_MONTH.test(tail(before, end - day[0].length));
}

/**
 * Might `extractIdentifiers(texts.join('\n\n'))` find other identifiers than the texts one by one? False when
 * no pattern can match across a join, so the joined text holds exactly the texts' identifiers.
 */
export function mayMatchAcross(texts: readonly string[]): boolean {
  let before: string | null = null;
  for (const text of texts) {
    // A blank text only adds white space to the join.
    const start = text.search(/\S/);
    if (start < 0) continue;
    if (before !== null && joins(before, text.slice(start, start + 16))) return true;
    before = text;
  }
  return false;
}

/**
 * Every date the date passes match in `text`, before earlier passes claim their characters: the dates among
 * `extractIdentifiers(text)` are some of these.
 */
export function dateMatches(text: string): string[] {
  const out: string[] = [];
  const emit: Emit = (value) => {
    out.push(value);
    return true;
  };
  isoDates(text, emit);
  namedDates(text, emit);
  years(text, emit);
  return out;
}

// Terminal colour codes, raw (ESC [ 1;33m) or as written in scripts (`\033[`, `\e[`, `\x1b[`, `\u001b[`, `^[[`):
// their digits would read as `33m` and glue `0m` to the next word. They are blanked before any pass.
const ANSI = /(?:\x1b|\\(?:033|e|x1[bB]|u001[bB])|\^\[)\[[0-9;?]*[ -/]*[@-~]/g;
const hasAnsi = (text: string): boolean => text.includes('\x1b') || text.includes('[') && /\\(?:033|e|x1[bB]|u001[bB])\[|\^\[\[/.test(text);

/** Identifiers in `text`, in order of appearance. The same value may appear more than once. */
export function extractIdentifiers(raw: string, options: ExtractOptions = {}): Identifier[] {
  // Same length, so every offset still points into the text as given.
  const text = hasAnsi(raw) ? raw.replace(ANSI, (m) => ' '.repeat(m.length)) : raw;
  const claimed = new Uint8Array(text.length);
  const out: Identifier[] = [];
  const emit: Emit = (value, kind, index, part = false, span = value.length) => {
    if (!value) return false;
    const end = index + span;
    if (!part) for (let i = index; i < end; i++) if (claimed[i]) return false;
    claimed.fill(1, index, end);
    // A run of hundreds of path or digit characters is data (base64, a minified line), not something a
    // later turn names; its pieces are not identifiers either, so the span stays claimed.
    if (value.length > MAX_IDENTIFIER_LENGTH) return false;
    out.push({ value, kind, index });
    return true;
  };
  // A redacting exporter's placeholder (`[REDACTED_TEXT len=3017 sha=f3ffd0ed]`) holds no content.
  if (text.includes('[REDACTED_')) each(/\[REDACTED_[A-Z_]+ [^\]\n]{0,80}\]/g, text, (m) => claimed.fill(1, m.index, m.index + m[0].length));
  // First: a path with a space, where its text marks where it ends, is one path, not a path cut at the space and words.
  spacedPaths(text, emit, options.cwd ?? null);
  for (const pass of PASSES) pass(text, emit);
  return out.sort((a, b) => a.index - b.index || kindOrder(a.kind) - kindOrder(b.kind));
}

const ORDER: IdentifierKind[] = ['url', 'email', 'host-port', 'host', 'port'];
const kindOrder = (k: IdentifierKind): number => {
  const i = ORDER.indexOf(k);
  return i < 0 ? ORDER.length : i;
};
