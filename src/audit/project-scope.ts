// What belongs to the project a session works on: the working directory, the names the project's own code
// declares (functions, classes, bindings, imports from the project's modules), the root namespaces of its
// modules, and the paths a tool argument or a listing shows to exist. The audit asks it whether a lost call is
// the project's (a library or framework call is not), and whether a lost path is a file of the project (a
// dependency, a scratch file or an import specifier is not, unless a later tool call opens that exact path).
//
// Everything is read from the session's own texts in one pass per text, so it costs as much as reading them.
import type { CallTarget } from '../refetch/call-target';
import { FILE_EXTENSIONS } from './identifiers';
import { isCompoundName } from './normalize';
import { isProjectSpecifier, resolvesTo, specifierStem } from './module-files';

export interface ScopeText {
  text: string;
  kind?: string;
  role?: string;
  /** The fetch that produced a tool result, or that a tool call makes. */
  target?: CallTarget | null;
  /**
   * Does the text, lowercased, hold this word of `SCOPE_WORDS` as a whole run of [a-z0-9] (a key of key-index.ts)?
   * Given when the caller indexed its texts: the scope's gates then ask it instead of searching the text.
   */
  holds?: (word: string) => boolean;
}

// Folders that hold someone else's code, caches or build output, in any language's layout.
const DEPENDENCY_DIR =
  /(?:^|[\\/])(?:node_modules|deps|_build|vendor|site-packages|dist-packages|\.venv|venv|\.tox|bower_components|Pods|\.gradle|\.m2|\.cargo|\.rustup|__pycache__|\.next|\.nuxt|\.svelte-kit|\.yarn|\.pnpm-store|\.uv-cache|\.cache|\.npm|\.bundle|elm-stuff|\.dart_tool|\.pub-cache|go[\\/]pkg[\\/]mod)(?:[\\/]|$)/;
// Scratch and system folders: what lands there is a run's by-product, not the project's.
const SCRATCH = /^(?:\/(?:tmp|var|private\/var|private\/tmp|dev|proc|sys|run)(?:\/|$)|[A-Za-z]:\\(?:Windows|Temp)\\|%TEMP%|\$TMPDIR)/i;

const slash = (p: string): string => p.replace(/\\/g, '/');

/** `C:\Users\x`, `/c/Users/x` (Git Bash) and `c:/Users/x` are one folder: lower-case drive, forward slashes. */
export function normalizePath(p: string): string {
  // Each pattern is run only where its first fixed character stands: the scope normalizes every path-shaped line of
  // a session, and most have no backslash, drive or doubled slash.
  let s = p.trim();
  if (s.includes('\\')) s = slash(s);
  const bashDrive = s.charCodeAt(2) === 47 ? /^\/([a-zA-Z])\//.exec(s) : null;
  if (bashDrive) s = `${bashDrive[1]!.toLowerCase()}:/${s.slice(3)}`;
  else if (s.charCodeAt(1) === 58 && /^[A-Za-z]:\//.test(s)) s = s[0]!.toLowerCase() + s.slice(1);
  return s.includes('//') ? s.replace(/\/{2,}/g, '/') : s;
}

const isAbsolute = (p: string): boolean => /^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/.test(p);

// Declarations, in the forms of the languages coding agents meet most. Each captures the declared name.
export const DECLARATIONS: readonly RegExp[] = [
  // Elixir, Python, Ruby, Nim; Elixir's defp/defmacro/defguard/defdelegate and Nx's defn.
  /\b(?:def|defp|defmacrop?|defguardp?|defdelegate|defn|defnp)\s+([A-Za-z_][\w]*[!?]?)/g,
  // JavaScript/TypeScript functions and generators.
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/g,
  // Rust, Go (with or without a receiver), Swift/Kotlin.
  /\b(?:fn|fun|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/g,
  // Classes and types.
  /\b(?:class|interface|struct|enum|trait|protocol|record|module)\s+([A-Za-z_]\w*)/g,
  /\btype\s+([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*=/g,
  // Bindings: `const x =`, `let x: T =`, including arrow functions.
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;\n]{1,80})?=/g,
  // Python and Ruby assignments of a callable at the start of a line (`handler = make_handler(...)`).
  /^\s*([a-z_][a-z0-9_]*)\s*=\s*(?:lambda\b|functools\.partial\b)/gm,
  // A property an object gives a function's body (`setToken: (t) => set({ t })`, `load: async () => {`), as a line of a
  // file or as a tool prints it (`  53→  setToken: …`); a type's member (`onSuccess: () => void;`) is a slot a caller fills.
  /^(?:\s*\d+(?:→|\t|:))?\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s*)?(?:\([^()\n]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=\n]{1,80})?=>\s*(?:\{|(?:await\s+)?[a-z_$][\w$.]*\s*\()/gm,
  // C#, Java, C++ and their kin: a method with its return type after one modifier at least, at the start of a line
  // (`private static MeshData DownCaretMesh(float size, Color color)`), whose `{` may stand on the next line. A call
  // has no modifier before it, a constructor no return type. Only a name of several words (`isCompoundName`): a
  // one-word method (`public void Dispose()`, `Update()`, `Draw()`) is a framework's hook the class implements, and an
  // `override` is the base class's method.
  /^(?:\s*\d+(?:→|\t|:))?\s*(?:(?:public|private|protected|internal|static|virtual|abstract|async|sealed|extern|unsafe|final|synchronized|native|inline)\s+)+[A-Za-z_][\w.]*(?:<[^()\n]{0,80}>)?(?:\[\])*\??\s+(?=\w{8})(?=\w*(?:[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]))([A-Za-z_]\w*)\s*(?:<[^()\n]{0,80}>)?\s*\(/gm,
];
// Destructuring binds several names at once: `const [x, setX] = useState()`, `const { a, b } = obj`.
export const DESTRUCTURING = /\b(?:const|let|var)\s*([[{])([^\]}=]{1,300})[\]}]\s*(?::[^=;\n]{1,80})?=/g;
// Methods: `name(args) {` or `async name(args) {` alone on a line (class and object bodies), and a shell function
// (`name() {`); a line as a tool prints it keeps its number in front (`   470→name() {`, grep's `493:name() {`).
export const METHOD = /^(?:\s*\d+(?:→|\t|:))?\s*(?:(?:export|public|private|protected|static|async|override|readonly|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^()\n]*\)\s*(?::\s*[^{\n]{1,80})?\{\s*$/gm;
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'else', 'with', 'do', 'try', 'constructor']);
// Modules: `defmodule Spotter.Services.Tmux`, `module Foo::Bar`, `namespace App.Core`, `package app.core`.
export const MODULES = /\b(?:defmodule|namespace|package)\s+([A-Za-z_][\w.:]*)/g;
// Imports that name where the names come from.
const JS_IMPORT = /\bimport\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\*\s+as\s+([A-Za-z_$][\w$]*)|\{([^}]*)\})?\s*from\s*["']([^"']+)["']/g;
const PY_IMPORT = /^\s*from\s+(\.*[\w.]*)\s+import\s+\(?([\w\s,]+)\)?/gm;
// Rust's `use root::path::{a, b::c, d as e};` (its tail up to the `;`, braces nested, as a tool prints it).
const RUST_USE = /\buse\s+([a-z_][a-z0-9_]*)::([^;]{1,2000});/g;
const ELIXIR_ALIAS = /\balias\s+([A-Z][\w.]*?)(?:\.\{([^}]*)\}|(?:\s*,\s*as:\s*([A-Z]\w*)))?(?=\s|$|,)/g;

/**
 * For each pattern above, words one of which every match of it holds as written (the patterns are case-sensitive):
 * a text holding none of them cannot match, and a few `includes` scans cost less than a pattern tried at every
 * position of every tool text. `audit-fast-paths.test.ts` checks each list against its pattern.
 */
export const BINDING_WORDS: readonly string[] = ['const', 'let', 'var'];
export const DECLARATION_WORDS: readonly (readonly string[])[] = [
  ['def'],
  ['function'],
  ['fn', 'fun'],
  ['class', 'interface', 'struct', 'enum', 'trait', 'protocol', 'record', 'module'],
  ['type'],
  BINDING_WORDS,
  ['lambda', 'functools.partial'],
  ['=>'],
  ['public', 'private', 'protected', 'internal', 'static', 'virtual', 'abstract', 'async', 'sealed', 'extern', 'unsafe', 'final', 'synchronized', 'native', 'inline'],
];
/**
 * For each declaration pattern, words (key-index.ts keys: lower case, whole runs of [a-z0-9], two joined by one
 * character) one of which every match of it holds; null where a match may hold none (`function` runs into the name
 * in `functionfoo(`, `=>` is no word). Asked of `ScopeText.holds`, they gate even the patterns whose words cost more to
 * search for than the pattern's own scan (`DECLARATION_GATED`). `audit-fast-paths.test.ts` checks them.
 */
export const DECLARATION_KEYS: readonly (readonly string[] | null)[] = [
  ['def', 'defp', 'defmacro', 'defmacrop', 'defguard', 'defguardp', 'defdelegate', 'defn', 'defnp'],
  null,
  ['fn', 'fun', 'func'],
  ['class', 'interface', 'struct', 'enum', 'trait', 'protocol', 'record', 'module'],
  ['type'],
  ['const', 'let', 'var'],
  ['lambda', 'functools.partial'],
  null,
  ['public', 'private', 'protected', 'internal', 'static', 'virtual', 'abstract', 'async', 'sealed', 'extern', 'unsafe', 'final', 'synchronized', 'native', 'inline'],
];
/** `MODULES`' words as keys. */
export const MODULE_KEYS: readonly string[] = ['defmodule', 'namespace', 'package'];
/** Every word the scope may ask `ScopeText.holds` about. */
export const SCOPE_WORDS: readonly string[] = [...new Set([...DECLARATION_KEYS.flatMap((k) => k ?? []), ...MODULE_KEYS, 'class', 'defmodule', 'use', 'import', 'alias'])];

/** A method's line ends in `{` after its `(…)`. */
export const METHOD_WORDS: readonly string[] = ['{'];
export const MODULE_WORDS: readonly string[] = ['defmodule', 'namespace', 'package'];

/** `ls -l`'s columns before a name: mode, links, owner, group, size, date and time. */
const LONG_LISTING = /^[-dlcbps][-rwxsStT@+.]{9}\S*\s+\d+\s+\S+\s+\S+\s+[\d,.]+[KMGTP]?\s+\w{3}\s+\d+\s+[\d:]+\s+/;
const MODE_CHARS = new Set([...'-rwxsStT@+.'].map((c) => c.charCodeAt(0)));
const TYPE_CHARS = new Set([...'-dlcbps'].map((c) => c.charCodeAt(0)));
/**
 * Can the line start with `ls -l`'s mode column (`LONG_LISTING`'s first two characters)? Asked of every line of every
 * tool result, it answers most without the pattern's call.
 */
const mayBeLongListing = (line: string): boolean => TYPE_CHARS.has(line.charCodeAt(0)) && MODE_CHARS.has(line.charCodeAt(1));

/** A file-writing call as the audit renders it (`Write({"file_path":"/x/a.py",…`), when its target is not given. */
const WRITE_CALL = /^(?:Write|Edit|MultiEdit|NotebookEdit)\(\{"(?:file_path|notebook_path)":"([^"]+)"/;

/** A module a line of code loads: `from '…'`, `require('…')`, `import('…')`, quotes possibly escaped in a call's JSON. */
const IMPORTED = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(?\s*)\\?["'`]([^"'`\\\s]+)\\?["'`]/g;

/** A method called on `self` with a snake_case name of two words at least. */
const RUST_SELF_CALL = /\bself\.([a-z][a-z0-9]*_[a-z0-9_]+)\(/g;

/** A call without a qualifier: the name is not after a `.`, a word character or `func `. */
const GO_LOCAL_CALL = /(?<![\w.$])(?<!\bfunc\s)([A-Za-z_]\w*)\(/g;

const canMatch = (text: string, words: readonly string[]): boolean => {
  for (const w of words) if (text.includes(w)) return true;
  return false;
};

/**
 * Whether `read` searches a text for a pattern's words before running the pattern. Each word a text lacks costs a
 * search of the whole text, and most tool texts lack most of these words: for the types' pattern (eight words, which
 * it starts with), the modifiers' (fifteen words, a pattern tried at line starts only) and the modules' (three words
 * it starts with), the searches cost more than the pattern's own scan (the 4 bench sessions' tool texts: 3.9, 6.6 and
 * 4.9 ms of searches against 1.0, 0.5 and 2.5 ms of scanning the texts they kept out). Skipping a search changes no
 * match: a text without the words has none.
 */
const DECLARATION_GATED: readonly boolean[] = [true, true, true, false, true, true, true, true, false];


/**
 * The names a Rust `use` line's tail brings in (`mock_account::{set_mock_slot, Mock as M}, test_types::T` →
 * set_mock_slot, M, T): each path's last segment, or its `as` name; `*` and `self` bring in no name of their own.
 */
export function rustUseNames(tail: string): string[] {
  const body = tail.replace(/(?:^|\n)\s*\d+(?:→|\t)/g, '\n').replace(/\\n/g, '\n');
  const out: string[] = [];
  for (const m of body.matchAll(/([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?(?=\s*(?:[,}]|$))/g)) {
    const name = m[2] ?? m[1]!;
    if (name !== 'self' && name !== '_') out.push(name);
  }
  return out;
}

function splitNames(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^type\s+/, ''))
    .map((s) => {
      // `a as b` binds b; `a: b` (object destructuring rename) binds b.
      const as = /\bas\s+([A-Za-z_$][\w$]*)$/.exec(s) ?? /:\s*([A-Za-z_$][\w$]*)$/.exec(s);
      return as ? as[1]! : (/^[.\s]*([A-Za-z_$][\w$]*)/.exec(s)?.[1] ?? '');
    })
    .filter(Boolean);
}

/** Does this fetch read someone else's code or a scratch file (so its text declares nothing of the project)? */
function foreignFetch(target: CallTarget | null | undefined, cwd: string | null): boolean {
  if (!target?.file) return false;
  return pathOutsideProject(target.file, cwd);
}

/** Is the path a dependency, cache, build or scratch file, or an absolute path outside the working directory? */
export function pathOutsideProject(path: string, cwd: string | null): boolean {
  if (DEPENDENCY_DIR.test(path) || SCRATCH.test(slash(path))) return true;
  if (!cwd || !isAbsolute(path)) return false;
  const p = normalizePath(path);
  const c = normalizePath(cwd).replace(/\/+$/, '');
  return !(p === c || p.startsWith(`${c}/`));
}

/**
 * The names an array destructuring chooses (`const [copied, setCopied] = useState(false)`): its values have no names
 * of their own, so each declaring text makes its own setter. An object destructuring (`const { a } = useStore()`)
 * binds a member by the name it has elsewhere: it defines nothing.
 */
function* positionalNames(text: string): Generator<string> {
  for (const m of text.matchAll(DESTRUCTURING)) if (m[1] === '[') yield* splitNames(m[2]!);
}

/** Does this code text define `name` (a function, a binding, a method, a class)? */
export function definesName(text: string, name: string): boolean {
  if (!text.includes(name)) return false;
  for (const re of DECLARATIONS) for (const m of text.matchAll(re)) if (m[1] === name) return true;
  for (const m of text.matchAll(METHOD)) if (m[1] === name) return true;
  for (const n of positionalNames(text)) if (n === name) return true;
  return false;
}

/** Every name `definesName` finds declared in the text: each pattern's captures, methods' included. */
export function declaredNames(text: string): Set<string> {
  const out = new Set<string>();
  DECLARATIONS.forEach((re, k) => {
    if (canMatch(text, DECLARATION_WORDS[k]!)) for (const m of text.matchAll(re)) out.add(m[1]!);
  });
  if (canMatch(text, METHOD_WORDS)) for (const m of text.matchAll(METHOD)) out.add(m[1]!);
  if (canMatch(text, BINDING_WORDS)) for (const n of positionalNames(text)) out.add(n);
  return out;
}

/**
 * `definesName` for a session's walk, each text's declarations read once: the audit asks it of the same later
 * texts for every lost function, and each question scanned the whole text with every pattern.
 */
export function definesNameMemo(memo: Map<string, Set<string>> = new Map()): (text: string, name: string) => boolean {
  return (text, name) => {
    // A declared name is in the text: a text whose declarations are known needs no scan for the name.
    const known = memo.get(text);
    if (known) return known.has(name);
    if (!text.includes(name)) return false;
    const names = declaredNames(text);
    memo.set(text, names);
    return names.has(name);
  };
}

/**
 * A class declared with a parent: Python `class A(Base)`, JavaScript and Java `class A extends B`, Swift and Kotlin
 * `class A: B`, Ruby `class A < B`, C# `class A : B`.
 */
const INHERITING_CLASS = /\bclass\s+([A-Z]\w*)(?:\s*\(\s*[A-Za-z_]|\s+extends\s+[A-Za-z_]|[ \t]*:[ \t]*[A-Z]|\s+<\s+[A-Z])/g;
/** An Elixir module whose first lines `use` another (`use Oban.Worker`, `use GenServer`): it gets that module's functions. */
const USING_MODULE = /\bdefmodule\s+([A-Z][\w.]*)\s+do\b[^]{0,300}?(?:\n|\\n)\s*(?:\d+(?:→|\t))?\s*use\s+[A-Z]/g;

export class ProjectScope {
  readonly cwd: string | null;
  private readonly defined = new Set<string>();
  private readonly roots = new Set<string>();
  /** Classes declared with a parent and modules that `use` another: what they do not declare, they inherit. */
  private readonly inheriting = new Set<string>();
  private readonly aliases = new Map<string, string>();
  private readonly shown = new Set<string>();
  /** Shown paths by file name: a look-up compares only paths that end alike. */
  private readonly shownByName = new Map<string, string[]>();
  /** Python packages: the first folder of every `.py` file the session names. */
  private readonly pyRoots = new Set<string>();
  private readonly pyImports: { from: string; names: string[] }[] = [];
  /** Rust `use` lines: the crate (or `crate`/`self`/`super`) and the names the line brings in. */
  private readonly rustUses: { root: string; names: string[] }[] = [];
  /** The working directory normalized, and in lower case: `relative` runs for every path-shaped token of the session. */
  private readonly cwdForm: { path: string; lower: string } | null;
  /** Files the agent wrote (created or edited), relative to the working directory. */
  private readonly written = new Set<string>();
  /** Paths as written that `show` has read: a listing names the same path again and again. */
  private readonly seenPaths = new Set<string>();
  /** The first folders of the files tool calls open in the project, relative to the working directory. */
  private readonly topFolders = new Set<string>();

  /**
   * `declared`, when given, receives each code text's `declaredNames` as the scope reads them: the walk's
   * `definesNameMemo` then reads no text's declarations a second time.
   */
  constructor(
    texts: Iterable<ScopeText>,
    cwd: string | null,
    private readonly declared: Map<string, Set<string>> | null = null,
  ) {
    this.cwd = cwd ? cwd.replace(/[\\/]+$/, '') : null;
    const c = this.cwd ? normalizePath(this.cwd) : null;
    this.cwdForm = c === null ? null : { path: c, lower: c.toLowerCase() };
    for (const t of texts) this.read(t);
    // Python imports resolve once every package folder is known.
    for (const imp of this.pyImports) {
      const root = imp.from.replace(/^\.+/, '').split('.')[0] ?? '';
      if (imp.from.startsWith('.') || this.pyRoots.has(root)) for (const n of imp.names) this.defined.add(n);
    }
    // A Rust `use` brings in the project's names when it goes through the crate itself (`crate::`, `self::`,
    // `super::`) or through a crate of the workspace: one whose name (`sdk_types_kani`) is a folder of the project the
    // session shows (`sdk-tests/sdk-types-kani/…`). Other crates are dependencies.
    if (this.rustUses.length > 0) {
      const folders = this.projectFolders();
      for (const u of this.rustUses) {
        if (u.root === 'crate' || u.root === 'self' || u.root === 'super' || folders.has(u.root) || folders.has(u.root.replace(/_/g, '-'))) for (const n of u.names) this.defined.add(n);
      }
    }
  }

  private read(t: ScopeText): void {
    const { text } = t;
    if (t.kind === 'tool_call' && t.target?.writes && t.target.file) this.written.add(this.relative(t.target.file));
    else if (t.kind !== 'tool_result' && t.kind !== 'message') {
      const w = WRITE_CALL.exec(text);
      if (w) this.written.add(this.relative(w[1]!));
    }
    if (t.kind === 'tool_call' || t.kind === 'tool_result') this.readPaths(t);
    // A path the user writes is a file of theirs (`.claude/CLAUDE.md` in a pasted brief, `store.ts:71` in a trace).
    else if (t.role === 'user' && (t.kind === 'message' || t.kind === undefined)) this.readUserPaths(text);
    // The agent's prose and the user's words declare nothing; someone else's code declares nothing of the project.
    const code = t.kind === 'tool_call' || t.kind === 'tool_result' || t.kind === undefined;
    if (!code || foreignFetch(t.target, this.cwd)) return;
    // Each pattern is run only on a text holding one of the words every match of it holds (see `canMatch`), where
    // searching for them costs less than the pattern's own scan (`DECLARATION_GATED`).
    // The declarations and methods as `declaredNames` reads them; a method named like a keyword is not one.
    // With `holds`, a gate is a look-up in the caller's index rather than a search of the text.
    const holds = t.holds;
    const has = holds ? (words: readonly string[]) => words.some(holds) : null;
    const names = new Set<string>();
    let binds = false;
    for (let k = 0; k < DECLARATIONS.length; k++) {
      const keys = DECLARATION_KEYS[k];
      if (has && keys ? !has(keys) : DECLARATION_GATED[k] && !canMatch(text, DECLARATION_WORDS[k]!)) continue;
      if (DECLARATION_WORDS[k] === BINDING_WORDS) binds = true;
      for (const m of text.matchAll(DECLARATIONS[k]!)) {
        names.add(m[1]!);
        this.defined.add(m[1]!);
      }
    }
    // The bindings' words are the `const`/`let`/`var` pattern's: searched for once, above.
    if (binds) {
      for (const m of text.matchAll(DESTRUCTURING)) {
        for (const n of splitNames(m[2]!)) {
          this.defined.add(n);
          if (m[1] === '[') names.add(n);
        }
      }
    }
    if (canMatch(text, METHOD_WORDS)) {
      for (const m of text.matchAll(METHOD)) {
        names.add(m[1]!);
        if (!NOT_METHODS.has(m[1]!)) this.defined.add(m[1]!);
      }
    }
    this.declared?.set(text, names);
    if (!has || has(MODULE_KEYS)) for (const m of text.matchAll(MODULES)) {
      const parts = m[1]!.split(/\.|::/);
      this.roots.add(parts[0]!);
      this.defined.add(parts[parts.length - 1]!);
    }
    // Go resolves a call without a package qualifier (`jsonResult(…)`) in its own package: in the project's Go file, a
    // name of several words in Go's MixedCaps called so is the project's, its declaration read or not. A one-word call
    // may be a builtin or a local function value, and a snake_case one (`to_timestamp(`) is SQL in a query string.
    if (t.target?.file && /\.go$/.test(t.target.file) && text.includes('(')) for (const m of text.matchAll(GO_LOCAL_CALL)) if (isCompoundName(m[1]!) && !m[1]!.includes('_')) this.defined.add(m[1]!);
    // Rust has no inheritance: a method called on `self` in the project's Rust file (`self.notify_info(…)`) is its type's
    // own, or a trait's. A snake_case name of several words is taken as the type's, except the names Rust's conventions
    // give conversions and predicates on every type, the standard traits' included (`as_`, `to_`, `into_`, `is_`).
    if (t.target?.file && /\.rs$/.test(t.target.file) && text.includes('self.')) {
      for (const m of text.matchAll(RUST_SELF_CALL)) if (isCompoundName(m[1]!) && !/^(?:as|to|into|is|try_into|try_from|from)_/.test(m[1]!)) this.defined.add(m[1]!);
    }
    // A class the project declares is a module its calls go through (`AuthService.login()`).
    const word = holds ?? ((w: string) => text.includes(w));
    if (word('class')) {
      for (const m of text.matchAll(/\bclass\s+([A-Z]\w*)/g)) this.roots.add(m[1]!);
      for (const m of text.matchAll(INHERITING_CLASS)) this.inheriting.add(m[1]!);
    }
    // These gates keep their search for `use `: the word alone would pass a text with `use` before a tab, and fail one
    // whose `use` follows a line break escaped in a call's JSON, which the Elixir pattern reads.
    if (word('defmodule') && text.includes('use ')) for (const m of text.matchAll(USING_MODULE)) this.inheriting.add(m[1]!.slice(m[1]!.lastIndexOf('.') + 1));
    if (word('import')) {
      for (const m of text.matchAll(JS_IMPORT)) {
        if (!isProjectSpecifier(m[4]!)) continue;
        for (const n of [m[1], m[2], ...splitNames(m[3] ?? '')]) if (n) this.defined.add(n);
        if (m[2]) this.roots.add(m[2]);
      }
      for (const m of text.matchAll(PY_IMPORT)) this.pyImports.push({ from: m[1]!, names: splitNames(m[2]!) });
    }
    if ((!holds || holds('use')) && text.includes('use ') && text.includes('::')) for (const m of text.matchAll(RUST_USE)) this.rustUses.push({ root: m[1]!, names: rustUseNames(m[2]!) });
    if (word('alias')) {
      for (const m of text.matchAll(ELIXIR_ALIAS)) {
        const base = m[1]!;
        if (m[2]) for (const n of splitNames(m[2])) this.aliases.set(n, `${base}.${n}`);
        else this.aliases.set(m[3] ?? base.slice(base.lastIndexOf('.') + 1), base);
      }
    }
  }

  /** Paths a tool call names, and paths an output lists one per line or as `path:line:` (ls, find, grep). */
  private readPaths(t: ScopeText): void {
    if (t.target?.file) {
      this.show(t.target.file);
      const rel = this.relative(t.target.file);
      if (t.kind === 'tool_call' && !isAbsolute(rel) && !rel.startsWith('../') && rel.includes('/') && !DEPENDENCY_DIR.test(rel)) this.topFolders.add(rel.slice(0, rel.indexOf('/')));
    }
    // What a call writes into a file (an edit's text, a new file's content) is that file's code or prose: a path in
    // it (`outFile: './src/generated/types.ts'`) is a literal of it, not a file the session shows to exist. Only
    // what the code imports (`from '../lib/api'`) names a module it loads.
    if (t.kind === 'tool_call' && t.target?.writes && t.target.file) {
      if (t.text.includes('from') || t.text.includes('require') || t.text.includes('import')) for (const m of t.text.matchAll(IMPORTED)) this.show(m[1]!);
      return;
    }
    const lines = t.kind === 'tool_call' ? [t.text] : t.text.split('\n');
    const numbered = t.text.includes('→');
    for (const raw of lines) {
      // Claude Code's `   12→` line numbers, and `ls -l` columns before the name.
      const unnumbered = numbered ? raw.replace(/^\s*\d+→/, '') : raw;
      const line = mayBeLongListing(unnumbered) ? unnumbered.replace(LONG_LISTING, '') : unnumbered;
      if (t.kind === 'tool_call') {
        // A quoted argument that is one path (spaces allowed: `0401 - The Concierge.md`) is that path; other
        // arguments (commands) are scanned for path-shaped tokens.
        let rest = line;
        for (const q of line.matchAll(/"([^"\n]{1,400})"/g)) {
          const value = q[1]!;
          if (/^(?:[A-Za-z]:)?[\\/~.]?[^\n"*?<>|]*[\\/][^\n"*?<>|]*\.[A-Za-z0-9]{1,10}$/.test(value) && !/\s-{1,2}\w|&&|\|/.test(value)) {
            this.show(value);
            rest = rest.replace(q[0], ' ');
          }
        }
        for (const m of rest.matchAll(/(?:[A-Za-z]:)?(?:[\\/]{1,2}|\.{1,2}[\\/]|~[\\/])?(?:[\w.@+~-]+[\\/])+[\w.@+~-]+|(?<![\w.@+~-])[\w@+~-]+\.[A-Za-z0-9]{1,10}\b/g)) this.show(m[0]);
        continue;
      }
      const trimmed = line.trim();
      if (!trimmed || trimmed.length > 400) continue;
      // A grep line has a `:` (most lines have none, and the pattern's backtracking over a long first word costs).
      const grep = trimmed.includes(':') ? /^((?:[A-Za-z]:)?[^\s:]+?\.[\w]{1,10}|(?:[A-Za-z]:)?[^\s:]+\/[^\s:]+):\d+[:-]/.exec(trimmed) : null;
      if (grep) this.show(grep[1]!);
      else if (/^(?:[├└│─\s*-]*)(?:[A-Za-z]:)?[\w.\\/@+~-][\w .\\/@+~()-]*$/.test(trimmed)) this.show(trimmed.replace(/^[├└│─\s*-]+/, '').trim());
    }
  }

  private readUserPaths(text: string): void {
    for (const m of text.matchAll(/(?:[A-Za-z]:)?(?:[\\/]{1,2}|\.{1,2}[\\/]|~[\\/])?(?:[\w.@+~-]+[\\/])*[\w@+~-][\w.@+~-]*\.([A-Za-z0-9]{1,10})\b/g)) {
      if (FILE_EXTENSIONS.has(m[1]!.toLowerCase())) this.show(m[0]);
    }
  }

  private show(path: string): void {
    if (this.seenPaths.has(path)) return;
    this.seenPaths.add(path);
    const p = this.relative(path);
    if (!p) return;
    if (this.shown.has(p)) return;
    this.shown.add(p);
    const base = p.slice(p.lastIndexOf('/') + 1);
    if (base) {
      const list = this.shownByName.get(base);
      if (list) list.push(p);
      else this.shownByName.set(base, [p]);
    }
    if (/\.py$/.test(p) && p.includes('/')) this.pyRoots.add(p.slice(0, p.indexOf('/')));
  }

  /** The path relative to the working directory when it lies inside it, else normalized; `./` dropped. */
  relative(path: string): string {
    // Without a separator nothing below applies but the trim: most names a listing or a code line shows have none.
    if (!path.includes('/') && !path.includes('\\')) return path.trim();
    let p = normalizePath(path);
    if (p.startsWith('./')) p = p.slice(2);
    if (p.endsWith('/')) p = p.replace(/\/+$/, '');
    const c = this.cwdForm;
    if (c && p.toLowerCase().startsWith(`${c.lower}/`)) p = p.slice(c.path.length + 1);
    return p;
  }

  /** The folder names of the paths the session shows inside the project (relative, not a dependency tree). */
  private projectFolders(): Set<string> {
    const out = new Set<string>();
    for (const p of this.shown) {
      if (isAbsolute(p) || DEPENDENCY_DIR.test(p) || /\s/.test(p)) continue;
      const segments = p.split('/');
      for (const seg of segments.slice(0, -1)) if (seg && seg !== '.' && seg !== '..') out.add(seg);
    }
    return out;
  }

  /**
   * Is this relative path written from a folder below the working directory (`Component/Transform.cs` in a plan about
   * `MonoDreams/`)? Its first folder is none of those the files tool calls open start with, when they open some.
   * Such a path names the file a longer path ending with it names (`MonoDreams/Component/Transform.cs`).
   */
  writtenBelow(path: string): boolean {
    if (this.topFolders.size === 0 || isAbsolute(path) || /^\.{1,2}[\\/]/.test(path)) return false;
    const p = normalizePath(path);
    const cut = p.indexOf('/');
    return cut > 0 && cut < p.length - 1 && !this.topFolders.has(p.slice(0, cut));
  }

  /** Did the agent write (create or edit) this file in the session? */
  wrote(file: string): boolean {
    return this.written.has(this.relative(file));
  }

  /** Does the session's own code declare (or import from the project) this name? */
  defines(name: string): boolean {
    return this.defined.has(name);
  }

  /** `Tmux` → `Spotter.Services.Tmux` when an `alias` line says so. */
  resolve(head: string): string {
    return this.aliases.get(head) ?? head;
  }

  /** Is this a module root (or a class) the project declares? */
  ownsRoot(root: string): boolean {
    return this.roots.has(root);
  }

  /**
   * Is the call `Mod.Sub.fun()` / `fun()` the project's: declared by it, or on a module sharing a root
   * namespace with one it declares (after resolving `alias` lines)?
   */
  ownsCall(value: string): boolean {
    const name = value.replace(/\(\)$/, '');
    const cut = name.lastIndexOf('.');
    if (cut < 0) return this.defines(name);
    const head = name.slice(0, name.indexOf('.'));
    const resolved = this.resolve(head);
    const root = resolved.slice(0, resolved.includes('.') ? resolved.indexOf('.') : undefined);
    // A method the session never declares, called on a class that has a parent or a module that `use`s another
    // (`AgenticReasoningResult.model_validate()` on `class AgenticReasoningResult(BaseModel)`, `EnrichCommits.new()` on
    // an Oban worker), is the parent's or the library's: inherited or generated, not written by the project.
    const receiver = this.resolve(name.slice(0, cut));
    if (this.inheriting.has(receiver.slice(receiver.lastIndexOf('.') + 1)) && !this.defined.has(name.slice(cut + 1))) return false;
    return this.ownsRoot(root) || this.ownsRoot(head);
  }

  /** Does a tool argument or a listing show this path exists (as written, relative to the working directory)? */
  shows(path: string): boolean {
    const p = this.relative(path);
    if (this.shown.has(p)) return true;
    const base = p.slice(p.lastIndexOf('/') + 1);
    const same = this.shownByName.get(base);
    if (!same) return false;
    if (!p.includes('/')) return true;
    // A path may be listed relative to another folder than the one it was written from: compare the tails.
    return same.some((s) => (s.length > p.length ? s.endsWith(`/${p}`) : p.endsWith(`/${s}`) && s.includes('/')));
  }

  /**
   * Does an import specifier without an extension (`../../shared/avatarPresets`, `@/lib/store`) name a file the
   * session shows (`shared/avatarPresets.ts`, `lib/store/index.ts`)?
   */
  showsModule(spec: string): boolean {
    const stem = specifierStem(spec);
    if (!stem) return false;
    const base = stem.slice(stem.lastIndexOf('/') + 1);
    // Only the files named after the stem's last segment, or an index, can be the module.
    for (const [name, paths] of this.shownByName) {
      const dot = name.lastIndexOf('.');
      if (dot <= 0) continue;
      const bare = name.slice(0, dot);
      if ((bare === base || bare === 'index') && paths.some((p) => resolvesTo(stem, p))) return true;
    }
    return false;
  }

  /** Do two or more files the session shows share this file name (`route.ts`, `page.tsx`)? */
  sharedName(name: string): boolean {
    const paths = this.shownByName.get(name);
    if (!paths || paths.length < 2) return false;
    // `typographyStore.ts` listed by ls and `/repo/stores/typographyStore.ts` read by path are one file: a path that
    // ends another is the same file written from another folder. A shown line with a space before a name that has none
    // is the path after it, with a status column or a command before it (`M src/x_test.go` of `git status --short`, a
    // `git add a.ts b/x.md` command read as one quoted path), not another file of that name.
    const spaced = /\s/.test(name);
    const lower = [...new Set(paths.map((p) => (spaced ? p : p.slice(p.search(/\S+$/))).toLowerCase()))];
    return lower.filter((p) => !lower.some((q) => q !== p && q.endsWith(`/${p}`))).length >= 2;
  }

  /**
   * Is this the working directory itself? The harness states it to the model at every call (Claude Code's
   * environment block), so no summary loses it; a later path under it names another thing.
   */
  isWorkingDirectory(path: string): boolean {
    return this.cwdForm !== null && normalizePath(path).replace(/\/+$/, '').toLowerCase() === this.cwdForm.lower;
  }

  /** A dependency, scratch or system file, or an absolute path outside the working directory. */
  outside(path: string): boolean {
    return pathOutsideProject(path, this.cwd);
  }
}
