// The audit's cheaper readings against the straightforward ones they replace, on hand-made texts chosen for their
// edges: a scan by `indexOf` against the pattern it stands for, the words that let a pattern be skipped against the
// pattern's own matches, and the project scope's path memo against a scope read without it.
import { describe, expect, it } from 'vitest';
import { CALL_LINES, CODE_LINES, DOTTED_VERSION_NEEDS, extractIdentifiers, FILE_NAME_LINES, HASH_NEEDS, HOST_LINES, HOST_PORT_LINES, ISO_DATE_NEEDS, PHONE_NEEDS, SETTING_NEEDS, SLASH_LINES, UUID_NEEDS, V_VERSION_NEEDS } from './identifiers';
import { containsName, foundIn, haystack, withoutThousands } from './normalize';
import { SessionItems } from './session-items';
import { textKeys } from './key-index';
import { BINDING_WORDS, DECLARATION_KEYS, DECLARATION_WORDS, DECLARATIONS, definesName, definesNameMemo, DESTRUCTURING, METHOD, METHOD_WORDS, MODULE_KEYS, MODULE_WORDS, MODULES, normalizePath, ProjectScope, SCOPE_WORDS } from './project-scope';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const namePattern = (name: string) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`);

const TEXTS = [
  '',
  'getSession',
  'const s = getSession(id);',
  'getSessionById(id) and $getSession and getSession$ and _getSession',
  'x.getSession() ; getSession',
  'getSession getSession',
  'getSessiongetSession',
  '$getSession getSession_',
  'a.b.c(d) — a.b.c — a.b.cd — xa.b.c',
  'café.getSession(é) ünicode getSession·',
  'load_workbook(path)\nwb = load_workbook\n',
  'S.getSession[0] (getSession) {getSession}',
];
const NAMES = ['getSession', 'a.b.c', 'load_workbook', 'c', '$', 'getSession$', 'x', 'é', ''];

describe('containsName', () => {
  it('answers as its pattern `(?<![\\w$])name(?![\\w$])` does, name by name and text by text', () => {
    for (const text of TEXTS) for (const name of NAMES) expect(containsName(text, name), `${JSON.stringify(name)} in ${JSON.stringify(text)}`).toBe(namePattern(name).test(text));
  });
});

// Code and prose in the forms the declaration patterns read, plus near misses.
const CODE = [
  'def handle_request(req):\n    return 1\ndefp private_fun(x), do: x\ndefmodule Spotter.Services.Tmux do',
  'export async function loadSession(path) {\n  const { items, meta } = await read(path);\n  let [a, setA] = useState(0);\n}',
  'fn main() {}\nfunc (s *Server) Start() error {\nfun compute(x: Int) = x\n',
  'class AuthService {\n  async login(user: User): Promise<void> {\n  }\n}\ninterface Props {}\nstruct Point { x: i32 }',
  'type Row<T> = { id: T };\nenum Color { Red }\ntrait Draw {}\nprotocol Named {}\nrecord Pair(int a, int b) {}',
  'handler = lambda x: x\ncb = functools.partial(run, 1)\nnamespace App.Core;\npackage app.core',
  'var x = 1; const y: number = 2; let z\n = 3;',
  'no declarations at all here, just prose about classes and functions',
  '  render() {\n  get value(): string {\n  if (x) {\n',
  '   12\tprivate static MeshData BuildCaretMesh(float size)\n   13\t{\n   40\tpublic void Dispose()\n   41\tpublic override string GetLabel()\n   50\t    return BuildCaretMesh(2f);',
];

function matchesOf(re: RegExp, text: string): string[] {
  return [...text.matchAll(new RegExp(re.source, re.flags))].map((m) => m[0]);
}

describe('the words that let the project scope skip a declaration pattern', () => {
  it('are held by every match of their pattern, so a text without them has no match to miss', () => {
    const pairs: [RegExp, readonly string[]][] = [...DECLARATIONS.map((re, k): [RegExp, readonly string[]] => [re, DECLARATION_WORDS[k]!]), [DESTRUCTURING, BINDING_WORDS], [METHOD, METHOD_WORDS], [MODULES, MODULE_WORDS]];
    expect(DECLARATION_WORDS).toHaveLength(DECLARATIONS.length);
    let seen = 0;
    for (const [re, words] of pairs) {
      for (const text of CODE) {
        for (const m of matchesOf(re, text)) {
          seen++;
          expect(words.some((w) => m.includes(w)), `${re.source} matched ${JSON.stringify(m)}`).toBe(true);
        }
      }
    }
    // The texts exercise the patterns: a check over no match would hold for any list.
    expect(seen).toBeGreaterThan(20);
  });

  it('leave what the scope reads unchanged: the names a text declares are those its patterns find', () => {
    const scope = new ProjectScope(CODE.map((text) => ({ text, kind: 'tool_result' })), '/repo');
    const expected = new Set<string>();
    for (const text of CODE) {
      for (const re of DECLARATIONS) for (const m of text.matchAll(new RegExp(re.source, re.flags))) expected.add(m[1]!);
      for (const m of text.matchAll(new RegExp(MODULES.source, MODULES.flags))) expected.add(m[1]!.split(/\.|::/).at(-1)!);
    }
    for (const name of expected) expect(scope.defines(name), name).toBe(true);
    for (const name of ['AuthService', 'loadSession', 'handle_request', 'private_fun', 'Start', 'Row', 'handler', 'cb', 'Tmux', 'render', 'value', 'setA']) expect(scope.defines(name), name).toBe(true);
    for (const name of ['classes', 'functions', 'if', 'prose']) expect(scope.defines(name), name).toBe(false);
  });
});

describe('the index keys that let the project scope skip a pattern', () => {
  it('are among the keys of every match of their pattern, so a text whose index lacks them has no match to miss', () => {
    const pairs: [RegExp, readonly string[]][] = [
      ...DECLARATIONS.flatMap((re, k): [RegExp, readonly string[]][] => (DECLARATION_KEYS[k] ? [[re, DECLARATION_KEYS[k]!]] : [])),
      [DESTRUCTURING, DECLARATION_KEYS[5]!],
      [MODULES, MODULE_KEYS],
    ];
    expect(DECLARATION_KEYS).toHaveLength(DECLARATIONS.length);
    let seen = 0;
    for (const [re, keys] of pairs) {
      for (const text of CODE) {
        for (const m of matchesOf(re, text)) {
          seen++;
          const held = textKeys(m);
          expect(keys.some((k) => held.has(k)), `${re.source} matched ${JSON.stringify(m)}`).toBe(true);
        }
      }
    }
    expect(seen).toBeGreaterThan(20);
    for (const k of [...DECLARATION_KEYS.flatMap((ks) => ks ?? []), ...MODULE_KEYS]) expect(SCOPE_WORDS).toContain(k);
  });

  it('leave what the scope reads unchanged: a scope told each text\'s keys reads what one searching the texts reads', () => {
    const texts = [
      ...CODE,
      'import { a, b as c } from "./lib/x";\nfrom .models import (User, Team)\nuse crate::db::{pool, Conn as C};\nalias Spotter.Services.{Tmux, Git}',
      'class Foo(Base):\n    pass\ndefmodule App.Worker do\n  use Oban.Worker\nend\nclassy = 1\nimported = 2',
      'no code: just classes, imports and aliases in prose',
    ];
    const plain = new ProjectScope(texts.map((text) => ({ text, kind: 'tool_result' })), '/repo');
    const told = new ProjectScope(texts.map((text) => ({ text, kind: 'tool_result', holds: (w: string) => textKeys(text).has(w) })), '/repo');
    const names = [...new Set(texts.flatMap((t) => t.match(/[A-Za-z_$][\w$]*/g) ?? []))];
    expect(names.filter((n) => plain.defines(n)).length).toBeGreaterThan(20);
    for (const n of names) {
      expect(told.defines(n), n).toBe(plain.defines(n));
      expect(told.ownsRoot(n), n).toBe(plain.ownsRoot(n));
      expect(told.ownsCall(`${n}.run()`), n).toBe(plain.ownsCall(`${n}.run()`));
    }
  });
});

describe('the project scope reading a path it has read before', () => {
  it('shows the same paths whether a listing names each once or many times', () => {
    const listing = ['src/a.ts', './src/b.ts', '/repo/src/c.ts', 'lib/d.ex', 'src/a.ts', '/repo/src/c.ts', '/elsewhere/e.ts'];
    const once = new ProjectScope([{ text: [...new Set(listing)].join('\n'), kind: 'tool_result' }], '/repo');
    const again = new ProjectScope(
      [
        { text: listing.join('\n'), kind: 'tool_result' },
        { text: listing.join('\n'), kind: 'tool_result' },
        { text: 'Read("/repo/src/c.ts")', kind: 'tool_call', target: { kind: 'file', tool: 'Read', target: '/repo/src/c.ts', file: '/repo/src/c.ts', writes: false } },
      ],
      '/repo',
    );
    for (const p of ['src/a.ts', 'src/b.ts', 'src/c.ts', '/repo/src/c.ts', 'c.ts', 'lib/d.ex', 'd.ex', '/elsewhere/e.ts', 'src/x.ts', 'a.ts']) {
      expect(again.shows(p), p).toBe(once.shows(p));
    }
    expect(again.shows('src/c.ts')).toBe(true);
    expect(again.sharedName('a.ts')).toBe(once.sharedName('a.ts'));
  });
});

describe('the characters a pass needs before it runs', () => {
  // The line gates are global patterns (`eachOnLines`): tested here without the flag, so no call leaves a lastIndex.
  const once = (re: RegExp) => new RegExp(re.source, re.flags.replace('g', ''));
  // Each value at a text's edge, beside punctuation and in upper case where its pattern allows it.
  const cases: [string, string, RegExp][] = [
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', UUID_NEEDS],
    ['uuid', '123E4567-E89B-12D3-A456-426614174000', UUID_NEEDS],
    ['date', '2024-03-05', ISO_DATE_NEEDS],
    ['date', '2024-03-05T10:00:00Z', ISO_DATE_NEEDS],
    ['quantity', 'pool_size: 20', SETTING_NEEDS],
    ['quantity', 'max_tokens=512', SETTING_NEEDS],
    ['quantity', 'retry_count 3', SETTING_NEEDS],
    ['host-port', 'db-prod-1:5432', HOST_PORT_LINES],
    ['host-port', 'localhost:3000', HOST_PORT_LINES],
    ['host-port', '10.0.0.5:8080', HOST_PORT_LINES],
    ['host', 'api.example.com', HOST_LINES],
    ['host', 'svc.cluster.local', HOST_LINES],
    ['host', '192.168.1.10', HOST_LINES],
    ['host', 'shop.co', HOST_LINES],
    ['path', 'src/db/pool_conn.ts', SLASH_LINES],
    ['path', '~/notes/', SLASH_LINES],
    ['path', 'app/[org]/join/page.tsx', SLASH_LINES],
    ['path', 'README.md', FILE_NAME_LINES],
    ['path', 'archive.TAR.GZ', FILE_NAME_LINES],
    ['path', 'main.c', FILE_NAME_LINES],
    ['function', 'load_workbook()', CALL_LINES],
    ['function', 'Spotter.Tmux.run2()', CALL_LINES],
    ['ticket', 'ABC-123', CODE_LINES],
    ['order-id', 'ACB-PRO-7F29D4', CODE_LINES],
    ['hash', 'a1b2c3d', HASH_NEEDS],
    ['hash', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', HASH_NEEDS],
    ['number', '(555) 123-4567', PHONE_NEEDS],
    ['number', '+44 555 123 4567', PHONE_NEEDS],
    ['version', 'v2', V_VERSION_NEEDS],
    ['version', 'V1.2.3-beta.1', V_VERSION_NEEDS],
    ['version', '1.2.3', DOTTED_VERSION_NEEDS],
    ['version', '10.2.1-rc.1', DOTTED_VERSION_NEEDS],
  ];
  it('are held by every value the pass finds, so a text or line without them has nothing to find', () => {
    for (const [kind, value, needs] of cases) {
      for (const text of [value, `(${value}).`, `see ${value}, then`]) {
        expect(extractIdentifiers(text).some((id) => id.kind === kind && id.value === value), `${kind} ${value} in ${JSON.stringify(text)}`).toBe(true);
        expect(once(needs).test(text), `${needs.source} in ${JSON.stringify(text)}`).toBe(true);
      }
    }
  });

  it('find on a line of a longer text what they find on that line alone, at its place in the text', () => {
    const lines = ['first line: nothing', 'db-prod-1:5432 and api.example.com', '', 'open src/db/pool_conn.ts and README.md', 'call load_workbook() for ABC-123', 'last: shop.co'];
    const text = lines.join('\n');
    let at = 0;
    const expected = lines.flatMap((line) => {
      const ids = extractIdentifiers(line).map((id) => ({ ...id, index: id.index + at }));
      at += line.length + 1;
      return ids;
    });
    expect(expected.length).toBeGreaterThan(7);
    expect(extractIdentifiers(text)).toEqual(expected);
  });

  it('are missing from texts that only look alike, which the passes skip', () => {
    for (const [text, needs] of [
      ['abc-def-ghi', UUID_NEEDS],
      ['2024/03/05', ISO_DATE_NEEDS],
      ['pool_size is large', SETTING_NEEDS],
      ['ratio 3:4 at x: 10', HOST_PORT_LINES],
      ['config.ts and this.state.value', HOST_LINES],
      ['response.json() and this.state.value', FILE_NAME_LINES],
      ['-x and -y', CODE_LINES],
      ['abcdef 123456', HASH_NEEDS],
      ['55 1234 and 123-456', PHONE_NEEDS],
      ['vv and v.2', V_VERSION_NEEDS],
      ['1. 2 and 3.x', DOTTED_VERSION_NEEDS],
    ] as const) {
      expect(once(needs).test(text), text).toBe(false);
    }
  });
});

describe('extractIdentifiers reading a path or call it has read before', () => {
  it('finds in each text what it finds there read first, whatever the texts before it held', () => {
    const texts = [
      'open src/db/pool_conn.ts then load_workbook(path) and x.getSession()',
      'ls DerivedData/FitToday-* and src/db/pool_conn.ts; and/or Read/Glob/Grep',
      'src/db/pool_conn.ts* is a glob, /etc/nginx/sites-enabled/* a folder; Enum.map(xs) and load_workbook()',
      'and/or src/db/pool_conn.ts, Mod.Sub.fun() and els.forEach(',
    ];
    const first = texts.map((t) => JSON.stringify(extractIdentifiers(t)));
    for (const order of [[...texts].reverse(), texts, [texts[2]!, texts[0]!, texts[3]!, texts[1]!]]) {
      for (const t of order) expect(JSON.stringify(extractIdentifiers(t)), t).toBe(first[texts.indexOf(t)]);
    }
    expect(first.join('')).toContain('load_workbook()');
    expect(first.join('')).toContain('src/db/pool_conn.ts');
  });
});

describe('ProjectScope.relative', () => {
  // The reading without its shortcut for a name with no separator.
  const plain = (path: string, cwd: string | null) => {
    let p = normalizePath(path).replace(/^\.\//, '').replace(/\/+$/, '');
    const c = cwd ? normalizePath(cwd.replace(/[\\/]+$/, '')) : null;
    if (c && p.toLowerCase().startsWith(`${c.toLowerCase()}/`)) p = p.slice(c.length + 1);
    return p;
  };
  it('reads every path as the plain reading does, names without a separator included', () => {
    const paths = ['a.ts', '  a.ts ', 'return x', '', ' ', 'README.md\t', 'src/a.ts', './src/a.ts', '/Repo/src/a.ts', 'C:\\Repo\\a.ts', 'c:/repo/b.ts', '/c/Repo/x', 'x//y/', 'İx', '.', '..', '~'];
    for (const cwd of ['/Repo', 'C:\\Repo', null]) {
      const scope = new ProjectScope([], cwd);
      for (const p of paths) expect(scope.relative(p), `${JSON.stringify(p)} under ${cwd}`).toBe(plain(p, cwd));
    }
  });
});

describe('SessionItems.indicesHolding over the key index', () => {
  // Identifiers with one key group and with several (a host and port, a quantity in two spellings), items holding
  // their keys without holding them, and items out of the wanted set.
  const texts = [
    'host: db-prod-1\nport: 5432, timeout 30 seconds',
    'db-prod-10:5432 is another host; db/pool_conn.ts.bak is another file',
    'see src/db/pool_conn.ts, waited 30s',
    'db-prod-1:5432 again, and lib/db/pool_conn.ts and pool_size: 20',
    'pool size is 20; PoolSize 20; getSession() and x.getSession()',
    'nothing here',
    'db-prod-1 port 5432 and 30 seconds again; getSession',
  ];
  const ids = distinct(texts.flatMap((t) => extractIdentifiers(t)));

  it('lists the same items, ascending, as reading every item with foundIn', () => {
    const indexed = new SessionItems(texts, texts.map(() => 'tool'));
    indexed.prepare(ids);
    expect(ids.length).toBeGreaterThan(8);
    for (const among of [() => true, (i: number) => i % 2 === 0, (i: number) => i >= 3]) {
      for (const id of ids) {
        const straight = texts.flatMap((t, i) => (among(i) && foundIn(id, haystack(t)) ? [i] : []));
        expect(indexed.indicesHolding(id, among), `${id.kind} ${id.value}`).toEqual(straight);
      }
    }
  });

  it('gives as firstHolding the first item that reading finds from a start on, or -1', () => {
    const indexed = new SessionItems(texts, texts.map(() => 'tool'));
    indexed.prepare(ids);
    for (const among of [() => true, (i: number) => i % 2 === 0, (i: number) => i >= 3]) {
      for (const from of [0, 2, 5]) {
        for (const id of ids) {
          const straight = texts.findIndex((t, i) => i >= from && among(i) && foundIn(id, haystack(t)));
          expect(indexed.firstHolding(id, among, from), `${id.kind} ${id.value} from ${from}`).toBe(straight);
        }
      }
    }
  });
});

function distinct<T extends { kind: string; value: string }>(ids: T[]): T[] {
  const seen = new Set<string>();
  return ids.filter((id) => !seen.has(`${id.kind}:${id.value}`) && !!seen.add(`${id.kind}:${id.value}`));
}

describe('the session walk\'s memo of what a text declares', () => {
  it('answers as definesName does, for every name a text declares, names it only uses, and names it lacks, asked in any order', () => {
    const names = new Set(['', 'x', 'if', 'render', 'value', 'classes', 'getSession', 'nowhere']);
    for (const text of CODE) for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) names.add(m[0]);
    const memo = definesNameMemo();
    let declared = 0;
    for (const round of [0, 1]) {
      for (const text of round ? [...CODE].reverse() : CODE) {
        for (const name of names) {
          const straight = definesName(text, name);
          if (straight && round === 0) declared++;
          expect(memo(text, name), `${JSON.stringify(name)} in ${JSON.stringify(text.slice(0, 40))}`).toBe(straight);
        }
      }
    }
    // Methods and every declaration pattern are among the hits: a check that only ever answered false would fail.
    expect(declared).toBeGreaterThan(15);
  });
});

describe('withoutThousands', () => {
  const THOUSANDS = /(?<=\d),(?=\d{3}(?!\d))/g;
  it('removes the separators the look-behind pattern removes, and nothing else', () => {
    const texts = [
      '',
      ',',
      '1,234',
      '1,234,567 rows; 12,34; 1,2345; ,123; 1,,234; 1,23a; 1,234a; a,123; 9,999,99',
      '$1,024 and 3,100 rows at 1,000,000,000.50',
      '1,2,345 — x,1,234,5678',
      'no commas at all',
      'trailing 7,',
      '7,12',
      '١,٢٣٤ (Arabic digits) and 1,234',
    ];
    let changed = 0;
    for (const t of texts) {
      const straight = t.replace(THOUSANDS, '');
      if (straight !== t) changed++;
      expect(withoutThousands(t), JSON.stringify(t)).toBe(straight);
    }
    expect(changed).toBeGreaterThan(4);
  });
});
