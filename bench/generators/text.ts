// Text the generators fill sessions with: prose, source listings, grep and shell output, search results.
// Every piece is drawn afresh, so no two tool outputs are equal (a memo cannot cheat), while the words repeat the
// way real transcripts do (a tokenizer's merge cache can still help). Paths, names and printed numbers are fresh
// at every use, or, for a session given a project vocabulary (`vocabulary` below), that project's own few, read
// again and again as a real session's are.
import type { Random, Vocabulary } from './random';

const WORDS =
  'the a of to and in is for on with that this it as be by from config pool connection database query worker job cache prefix token budget summary context tool result call request response error retry timeout batch nightly migration schema index table column row value key port host service deploy build test suite failure warning fix patch review branch commit merge release version handler module function method class interface type field option default parameter argument return throws async await promise stream buffer file path directory log line trace stack frame session user agent model compaction window limit threshold turn step plan check verify'.split(
    ' ',
  );
const VERBS = 'read checked updated found fixed raised lowered moved renamed added removed traced logged parsed cached retried skipped merged reverted compared counted'.split(' ');
const DIRS = ['src', 'lib', 'app', 'test', 'config', 'scripts', 'internal', 'pkg', 'services', 'workers'];
const SUBDIRS = ['db', 'api', 'jobs', 'cache', 'auth', 'billing', 'payments', 'search', 'queue', 'metrics', 'storage', 'sync'];
const EXTS = ['ts', 'py', 'go', 'rs', 'ex', 'yaml', 'sql', 'tsx', 'json'];
const IDENTS = ['pool', 'conn', 'retry', 'limit', 'handler', 'client', 'worker', 'batch', 'cursor', 'row', 'result', 'options', 'ctx', 'logger', 'cache', 'queue', 'job', 'span', 'token', 'schema'];
const HOSTS = ['db-prod-1', 'db-prod-2', 'cache-eu-1', 'api-internal', 'queue-main', 'search-3', 'metrics-gw'];

export function word(r: Random): string {
  return r.pick(WORDS);
}

export function path(r: Random): string {
  return r.vocabulary ? r.pick(r.vocabulary.paths) : freshPath(r);
}

function freshPath(r: Random): string {
  return `${r.pick(DIRS)}/${r.pick(SUBDIRS)}/${r.pick(IDENTS)}_${r.pick(IDENTS)}.${r.pick(EXTS)}`;
}

export function ident(r: Random): string {
  return r.vocabulary ? r.pick(r.vocabulary.idents) : freshIdent(r);
}

function freshIdent(r: Random): string {
  return `${r.pick(IDENTS)}${r.pick(['', 'Count', 'Size', 'Id', 'Map', 'List', 'Timeout', 'Ref'])}${r.int(0, 9) > 7 ? r.int(2, 99) : ''}`;
}

/**
 * A number a tool prints (a timing, a size, a constant): from the project's few when it has a vocabulary (a test
 * suite reports much the same timings run after run), else drawn in [min, max].
 */
function num(r: Random, min: number, max: number): number {
  return r.vocabulary ? r.pick(r.vocabulary.numbers) : r.int(min, max);
}

/** A project's files and names, drawn once: `paths` files, `idents` names (half with a suffix, as function names have). */
export function vocabulary(r: Random, paths: number, idents: number): Vocabulary {
  const distinct = (n: number, draw: () => string) => {
    const out = new Set<string>();
    for (let tries = 0; out.size < n && tries < n * 20; tries++) out.add(draw());
    return [...out];
  };
  const facts = [...distinct(8, () => `FRE-${r.int(100, 9999)}`), ...distinct(6, () => `v${r.int(1, 4)}.${r.int(0, 30)}.${r.int(0, 20)}`), ...HOSTS.map((h) => `${h}:${r.pick([5432, 6379, 8080, 9200, 443, 5672])}`)];
  const numbers = Array.from({ length: 24 }, () => r.int(1, 900));
  return { paths: distinct(paths, () => freshPath(r)), idents: distinct(idents, () => `${freshIdent(r)}${r.chance(0.5) ? r.base62(3) : ''}`), facts, numbers };
}

/** Facts an audit looks for: paths, host:port pairs, tickets, versions, numbers with units. */
export function fact(r: Random): string {
  const kind = r.int(0, 5);
  // A project's tickets, versions and hosts recur; amounts and calls are drawn as ever.
  if (r.vocabulary && kind >= 1 && kind <= 3) return r.pick(r.vocabulary.facts);
  switch (kind) {
    case 0:
      return path(r);
    case 1:
      return `${r.pick(HOSTS)}:${r.pick([5432, 6379, 8080, 9200, 443, 5672])}`;
    case 2:
      return `FRE-${r.int(100, 9999)}`;
    case 3:
      return `v${r.int(1, 4)}.${r.int(0, 30)}.${r.int(0, 20)}`;
    case 4:
      return `${num(r, 2, 900)} ${r.pick(['ms', 'MB', 'rows', 'connections', 'retries', 's'])}`;
    default:
      return `${ident(r)}()`;
  }
}

export function sentence(r: Random): string {
  const n = r.int(8, 22);
  let s = '';
  for (let i = 0; i < n; i++) {
    const w = i === 3 ? r.pick(VERBS) : i === 6 && r.chance(0.6) ? fact(r) : word(r);
    s += i === 0 ? w[0]!.toUpperCase() + w.slice(1) : ` ${w}`;
  }
  return `${s}.`;
}

/** Sentences up to about `chars` characters. */
export function prose(r: Random, chars: number): string {
  let s = sentence(r);
  while (s.length < chars) s += r.chance(0.15) ? `\n\n${sentence(r)}` : ` ${sentence(r)}`;
  return s;
}

function codeLine(r: Random, depth: number): string {
  const pad = '  '.repeat(depth);
  switch (r.int(0, 7)) {
    case 0:
      return `${pad}const ${ident(r)} = await ${ident(r)}.${r.pick(VERBS)}(${ident(r)}, ${num(r, 0, 5000)});`;
    case 1:
      return `${pad}if (${ident(r)} > ${num(r, 1, 100)} && !${ident(r)}) {`;
    case 2:
      return `${pad}// ${sentence(r)}`;
    case 3:
      return `${pad}return { ${ident(r)}, ${ident(r)}: ${ident(r)}.${ident(r)} ?? ${num(r, 0, 64)} };`;
    case 4:
      return `${pad}logger.${r.pick(['info', 'warn', 'debug'])}('${word(r)} ${word(r)} %s', ${ident(r)});`;
    case 5:
      return `${pad}export function ${r.vocabulary ? ident(r) : `${ident(r)}${r.base62(3)}`}(${ident(r)}: ${r.pick(['string', 'number', 'Options', 'Row[]'])}): ${r.pick(['void', 'boolean', 'Promise<Result>'])} {`;
    case 6:
      return `${pad}}`;
    default:
      return `${pad}${ident(r)}.${ident(r)} = '${fact(r)}';`;
  }
}

/** A file as Claude Code's Read tool returns it: `     1→code` lines. */
export function listing(r: Random, lines: number, start = 1): string {
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < lines; i++) {
    const line = codeLine(r, depth);
    if (line.endsWith('{')) depth = Math.min(depth + 1, 5);
    else if (line.trim() === '}') depth = Math.max(depth - 1, 0);
    out.push(`${String(start + i).padStart(6)}→${line}`);
  }
  return out.join('\n');
}

/** Plain source, as a file's content in a tool result or an edit. */
export function source(r: Random, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(codeLine(r, r.int(0, 3)));
  return out.join('\n');
}

export function grepOutput(r: Random, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${path(r)}:${num(r, 1, 2000)}:${codeLine(r, r.int(0, 2))}`);
  return out.join('\n');
}

/** Shell output: a test run, a build log or a listing. */
export function shellOutput(r: Random, lines: number): string {
  const out: string[] = [];
  const kind = r.int(0, 2);
  for (let i = 0; i < lines; i++) {
    if (kind === 0) out.push(`${r.chance(0.9) ? '✓' : '✗'} ${path(r)} > ${word(r)} ${word(r)} ${word(r)} (${num(r, 1, 900)} ms)`);
    else if (kind === 1) out.push(`[${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}] ${r.pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} ${sentence(r)}`);
    else out.push(`${r.pick(['-rw-r--r--', 'drwxr-xr-x'])} 1 dev dev ${String(num(r, 0, 99999)).padStart(6)} Mar ${r.int(1, 28)} ${path(r)}`);
  }
  return out.join('\n');
}

/** Search results as the Agent-Omit deep-search environment returns them. */
export function searchDocs(r: Random, docs: number, chars: number): string {
  const out: string[] = [];
  for (let d = 1; d <= docs; d++) {
    const title = `${word(r)} ${word(r)} ${r.int(1900, 2025)}`.replace(/^./, (c) => c.toUpperCase());
    out.push(`Doc ${d} (Title: "${title}") ${prose(r, chars)}`);
  }
  return out.join('\n');
}
