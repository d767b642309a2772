// Which identifiers are worth a row in the audit, and in what order. On real coding sessions most of what the
// patterns find is noise a user stops reading at: `/dev/null`, git file modes, the session's own dates, counts,
// `github.com`, `trim()`, test timings. An identifier is reported when a later turn could need it and the
// summary could have kept it; the rest is ranked by how much it pins down (a path with a directory, a ticket,
// a hash beat a word).
import type { Identifier, IdentifierKind } from './identifiers';
import { parseDate } from './normalize';

export interface NoiseContext {
  /** `YYYY-MM-DD` of every day the session's records were written on: its own dates say nothing lost. */
  sessionDays?: ReadonlySet<string>;
}

// Hosts everyone knows: without a path they name no resource a later turn could need.
const WELL_KNOWN_HOSTS = new Set(
  ('github.com gitlab.com bitbucket.org google.com www.google.com npmjs.com www.npmjs.com pypi.org crates.io hex.pm ' +
    'hexdocs.pm docs.rs stackoverflow.com developer.mozilla.org example.com example.org example.net localhost ' +
    'anthropic.com openai.com claude.ai docs.anthropic.com wikipedia.org en.wikipedia.org youtube.com twitter.com x.com ' +
    'raw.githubusercontent.com githubusercontent.com registry.npmjs.org golang.org go.dev rubygems.org')
    .split(' '),
);

/** Is the host one everyone knows (`github.com`, `www.npmjs.com`)? */
export const isWellKnownHost = (host: string): boolean => WELL_KNOWN_HOSTS.has(host.toLowerCase()) || WELL_KNOWN_HOSTS.has(host.toLowerCase().replace(/^www\./, ''));

// `log.info`, `config.dev`, `self.app`: a variable and a member whose name happens to be a TLD.
const CODE_RECEIVERS = new Set(
  ('log logger console self this app config cfg obj req res ctx os sys path fs re json np pd window document process ' +
    'module exports user data state props opts options settings item node el event err error result response request')
    .split(' '),
);

// Calls that name no function of the project: language built-ins, framework callbacks, documentation placeholders.
const GENERIC_FUNCTIONS = new Set(
  ('is_binary is_list is_map is_atom is_integer is_float is_number is_boolean is_tuple is_function is_pid is_struct ' +
    'is_nil handle_info handle_event handle_call handle_cast handle_continue handle_params push_event push_navigate ' +
    'push_patch put_flash assign assign_new pushEvent handleEvent some_function my_function foo bar baz do_something ' +
    'console.log setState useState useEffect useMemo useCallback useRef map_size unquote unquote_splicing __using__ ' +
    '__before_compile__ __after_compile__ __struct__ on_exit build_conn render_click setup_all')
    .split(' '),
);
// Standard-library modules of Elixir, Python and JavaScript whose calls fill any code a tool printed.
const LIBRARY_MODULES = new Set(
  ('Process GenServer Task Agent Supervisor DynamicSupervisor Registry File Path System Application Code Base URI ' +
    'Enum Map List String Keyword Kernel Logger IO Jason Ecto Repo Plug Phoenix ExUnit Mix Object Array JSON Promise Math ' +
    'DateTime NaiveDateTime Date Time Module Macro Sandbox Integer Float Tuple Stream Access')
    .split(' '),
);

const GIT_MODES = new Set(['100644', '100755', '120000', '040000', '160000', '000000']);
const TIME_UNIT = /^(?:ms|µs|us|ns|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)$/i;

const dayOf = (d: { year: number | null; month: number | null; day: number | null }): string | null =>
  d.year !== null && d.month !== null && d.day !== null ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : null;

/**
 * The session's days and the day either side: timestamps are UTC, and a person writes the local date, up to a day
 * off (`2026-04-10` in Idaho is `2026-04-11` in UTC). Made once per set of days.
 */
const nearDays = new WeakMap<ReadonlySet<string>, Set<string>>();
function nearSessionDays(days: ReadonlySet<string> | undefined): ReadonlySet<string> {
  if (!days || days.size === 0) return new Set();
  let near = nearDays.get(days);
  if (!near) {
    near = new Set(days);
    for (const d of days) {
      const ms = Date.parse(`${d}T12:00:00Z`);
      if (!Number.isFinite(ms)) continue;
      for (const off of [-1, 1]) near.add(new Date(ms + off * 86_400_000).toISOString().slice(0, 10));
    }
    nearDays.set(days, near);
  }
  return near;
}

/** `YYYY-MM-DD` (UTC) of each timestamp. */
export function daysOf(timestamps: Iterable<string | undefined>): Set<string> {
  const days = new Set<string>();
  for (const t of timestamps) {
    if (!t) continue;
    const ms = Date.parse(t);
    if (Number.isFinite(ms)) days.add(new Date(ms).toISOString().slice(0, 10));
    else if (/^\d{4}-\d{2}-\d{2}/.test(t)) days.add(t.slice(0, 10));
  }
  return days;
}

/**
 * A program of the machine, by the folder the system keeps its programs in (`/bin/bash`, `/usr/bin/env python3`,
 * `/usr/local/bin/node`, `/opt/homebrew/bin/git`): the interpreter or tool a line runs with, not a file of the work.
 */
const SYSTEM_PROGRAM = /^\/(?:usr\/(?:local\/)?|opt\/homebrew\/)?s?bin\/[^/]+$/;

function pathNoise(v: string): boolean {
  if (/^\/(?:dev|proc|sys)\//.test(v) || v === '/dev/null' || SYSTEM_PROGRAM.test(v)) return true;
  const body = v.replace(/^(?:~|\.{1,2})?\/+/, '').replace(/\/+$/, '');
  const segments = body.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  // `/sessions/`, `/tmp`, `~/`: one segment without an extension is a route or a well-known folder.
  if (segments.length <= 1 && !last.includes('.')) return true;
  // `compile/test/credo`, `read/write/delete`: plain words between slashes are a list, unless a code folder leads.
  const anchored = /^(?:~|\.{1,2})?\//.test(v);
  if (!anchored && !v.endsWith('/') && segments.every((s) => /^[a-z]+$/.test(s)) && !/^(?:src|lib|app|apps|test|tests|spec|docs|config|packages|cmd|internal|pkg|scripts|public|priv|assets|deps|node_modules|vendor)$/.test(segments[0]!)) {
    return true;
  }
  return false;
}

/**
 * An address that names no particular machine: loopback (`127.0.0.1`, any of 127/8, `::1`) and the unspecified address
 * a server binds to (`0.0.0.0`, `::`). Like `localhost`, it reads the same on every machine; what tells one service
 * from another beside it is the port, which is kept apart (`127.0.0.1:3002` is a host and port).
 */
const NO_PARTICULAR_MACHINE = /^(?:127(?:\.\d{1,3}){3}|0\.0\.0\.0|::1?|\[::1?\])$/;

function hostNoise(v: string): boolean {
  const host = v.toLowerCase();
  if (NO_PARTICULAR_MACHINE.test(host)) return true;
  if (WELL_KNOWN_HOSTS.has(host) || WELL_KNOWN_HOSTS.has(host.replace(/^www\./, ''))) return true;
  const labels = host.split('.');
  return labels.length === 2 && CODE_RECEIVERS.has(labels[0]!);
}

/** Built once (see language.ts `LATIN`). */
const ONE_LETTER = /^\p{L}$/u;

function functionNoise(v: string): boolean {
  const name = v.replace(/\(\)$/, '');
  if (GENERIC_FUNCTIONS.has(name)) return true;
  const cut = name.lastIndexOf('.');
  const method = name.slice(cut + 1);
  if (cut >= 0 && LIBRARY_MODULES.has(name.slice(0, name.indexOf('.')))) return true;
  if (GENERIC_FUNCTIONS.has(method)) return true;
  // `trim()`, `join()`, `mounted()`, `keyword()`: one plain word names a built-in or a type, not the project's code.
  // A name of one letter (`C()`, `f()`: a fixture's `func C() {}`, a math helper, a minified call) tells nothing apart.
  return cut < 0 && (/^[a-z]+$/.test(method) || ONE_LETTER.test(method));
}

function quantityNoise(v: string): boolean {
  const q = /^([\d,.]+)\s*(.+)$/.exec(v);
  if (!q) return false;
  // A bare percentage (`45%` of a progress bar, `100%` in CSS) says how much of something the text no longer names.
  if (q[2] === '%') return true;
  // `0.3s`, `1.4s`, `0.9 seconds`: timings a test or build printed, measured, not chosen.
  return TIME_UNIT.test(q[2]!) && q[1]!.includes('.');
}

/** An initial release number (0.0.x, 0.1.0, 1.0.0): every scaffold writes one, so it names no release. */
function versionNoise(v: string): boolean {
  return /^v?(?:0\.0\.\d+|0\.1\.0|1\.0\.0)$/i.test(v);
}

function numberNoise(v: string): boolean {
  const digits = v.replace(/\D/g, '');
  if (GIT_MODES.has(v)) return true;
  // Phone numbers keep their separators; a bare count, id or seed under six digits pins nothing down.
  if (/[\s()-]/.test(v)) return false;
  return digits.length < 6;
}

/** Is this identifier one of the noise classes the audit leaves out (see the file comment)? */
export function isNoise(id: Identifier, ctx: NoiseContext = {}): boolean {
  const v = id.value;
  switch (id.kind) {
    case 'path':
      return pathNoise(v);
    case 'host':
      return hostNoise(v);
    case 'url':
      // A bare well-known host written as a URL (`https://github.com`) is a host without a path.
      return /^[a-z]+:\/\/[^/]+\/?$/i.test(v) && hostNoise(v.replace(/^[a-z]+:\/\//i, '').replace(/\/$/, ''));
    case 'function':
      return functionNoise(v);
    case 'quantity':
      return quantityNoise(v);
    case 'number':
      return numberNoise(v);
    case 'port':
      // The default ports of the web and of ssh (`listen 443`, `port 22`) are every server's, as well-known hosts are.
      return v === '80' || v === '443' || v === '22';
    case 'version':
      return versionNoise(v);
    case 'date': {
      const d = parseDate(v);
      if (!d) return false;
      const day = dayOf(d);
      const days = nearSessionDays(ctx.sessionDays);
      if (day !== null) return days.has(day);
      // A month and day without a year (`Mar 3`): the session's own day when one of its days falls on it.
      const md = d.month !== null && d.day !== null ? `-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : null;
      if (md !== null) return [...days].some((s) => s.endsWith(md));
      // A year alone (`2026`, `Q1 2026`) that the session ran in is its own time, not a date of the work.
      return d.year !== null && d.month === null && [...days].some((s) => s.startsWith(`${d.year}-`));
    }
    case 'email':
      // A no-reply address (a commit trailer's `noreply@anthropic.com`) reaches no one.
      // A template's address (`your@email.com`, `your.name@company.com`) is a blank for the reader to fill in.
      return /^(?:no-?reply|donotreply|do-not-reply)[@+]/i.test(v) || /@users\.noreply\./i.test(v) || /^your(?:[._-]?(?:name|email|mail|address|user(?:name)?))?@/i.test(v);
    default:
      return false;
  }
}

// How much an identifier pins down: a row the user can act on first.
const SPECIFICITY: Record<IdentifierKind, number> = {
  uuid: 6,
  hash: 5,
  url: 5,
  'host-port': 5,
  email: 5,
  ticket: 5,
  'order-id': 5,
  path: 2,
  function: 3,
  version: 3,
  host: 2,
  date: 2,
  port: 2,
  quantity: 1,
  number: 1,
};

/** Higher for identifiers that name one thing: `src/a/b.ts` over `b.ts`, `Mod.fun()` over `fun()`. */
export function specificity(id: Pick<Identifier, 'kind' | 'value'>): number {
  const base = SPECIFICITY[id.kind];
  if (id.kind === 'path') return base + (id.value.includes('/') ? 2 : 0);
  if (id.kind === 'function') return base + (/[.]/.test(id.value.replace(/\(\)$/, '')) ? 1 : 0);
  if (id.kind === 'quantity' && /_/.test(id.value)) return 2;
  return base;
}

/** `values` by specificity (most specific first), keeping their order within a rank. */
export function bySpecificity<T>(values: readonly T[], kindOf: (v: T) => Pick<Identifier, 'kind' | 'value'>): T[] {
  return values
    .map((v, i) => ({ v, i, s: specificity(kindOf(v)) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.v);
}
