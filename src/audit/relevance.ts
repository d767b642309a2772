// Whether a lost identifier could be something a later turn needs, judged from where the evicted slice shows it
// and what the project is (project-scope.ts). noise.ts reads an identifier's value alone; these rules read its
// context, so they run only on what the summary lost:
// - a call is the project's only when the project declares it, or it goes through a module of the project;
// - a path outside the project (a dependency, a scratch file, an absolute path elsewhere, an import specifier)
//   is needed only when a later tool call opens that exact path; a path nothing shows to exist is a literal;
// - what only test or fixture files hold, a setting only a command printed, a timing or a version a run printed
//   are output, not facts the summary should have kept.
import type { CallTarget } from '../refetch/call-target';
import type { Identifier } from './identifiers';
import { exactPathIn, parseDate } from './normalize';
import { isProjectSpecifier } from './module-files';
import type { ProjectScope } from './project-scope';
import { CONVENTIONAL_NAME } from './spellings';

/** One place the evicted slice holds the identifier. */
export interface Occurrence {
  text: string;
  kind?: string;
  role?: string;
  /** The fetch whose result this is (or that this call makes). */
  target?: CallTarget | null;
}

export type Relevance =
  /** Count it as any lost identifier. */
  | 'relevant'
  /** Count it only when a later tool call takes this exact path as its argument. */
  | 'exact-path'
  /** Count it only when a later user message names it or a later tool call takes it as its argument (not content it writes). */
  | 'argument'
  /** Leave it out. */
  | 'irrelevant';

export const TEST_FILE = /(?:^|[\\/])(?:tests?|spec|specs|__tests__|__fixtures__|fixtures?|e2e|testdata|test_data|examples?)[\\/]|(?:_test|_spec|\.test|\.spec|Test|Tests|_tests)\.[A-Za-z]{1,5}$|(?:^|[\\/])test_[^\\/]+\.py$/;
const TIME_UNIT = /^(?:ms|µs|us|ns|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)$/i;
const SETTING = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+["']?\s*[:=]?\s*[\d,.]+$/;

/** A search hit's line: `path:line:` (or `path-line-` of context) before the matched text. */
const HIT_LINE = /^\s*([^\s:]+?)[:-]\d+[:-]/;

/**
 * Is every mention of `value` in this occurrence the content of a test or fixture file: a file read from a test
 * folder (or a test file), what a tool call writes into one, or a search hit's line quoting one? The test file's
 * own path is not its content.
 */
function inTestFile(o: Occurrence, value: string): boolean {
  const file = o.target?.file;
  if (file && TEST_FILE.test(file) && !isPathOf(value, file)) return o.kind === 'tool_result' || (o.kind === 'tool_call' && !!o.target?.writes);
  if (o.kind !== 'tool_result') return false;
  return everyLineHolding(o.text, value, (l) => {
    const hit = HIT_LINE.exec(l);
    return !!hit && TEST_FILE.test(hit[1]!) && !isPathOf(value, hit[1]!) && l.indexOf(value, hit[0].length) >= 0;
  });
}

/**
 * Does some line of the text hold `value`, and does every line that holds it pass `test`? The lines holding it are
 * found from its occurrences: splitting a long tool result into all its lines, for every identifier it holds, cost
 * more than the test.
 */
export function everyLineHolding(text: string, value: string, test: (line: string) => boolean): boolean {
  if (value === '') {
    const lines = text.split('\n');
    return lines.every(test);
  }
  // No line holds a value that spans a line break.
  if (value.includes('\n')) return false;
  let at = text.indexOf(value);
  if (at < 0) return false;
  while (at >= 0) {
    const start = text.lastIndexOf('\n', at) + 1;
    let end = text.indexOf('\n', at + value.length);
    if (end < 0) end = text.length;
    if (!test(text.slice(start, end))) return false;
    at = end < text.length ? text.indexOf(value, end + 1) : -1;
  }
  return true;
}

/** Is `value` that file's path, or a spelling of it that ends it (`a_test.go` for `pkg/a_test.go`)? */
const isPathOf = (value: string, file: string): boolean => {
  const f = file.replace(/\\/g, '/');
  const v = value.replace(/\\/g, '/');
  return f === v || f.endsWith(`/${v}`) || v.endsWith(`/${f}`);
};
/** Output of a shell command (a build, a test run, a linter), not a file's content. */
const inCommandOutput = (o: Occurrence): boolean => o.kind === 'tool_result' && o.target?.kind === 'command';
/** Written by a person or chosen by the agent: a user message or a tool call's arguments. */
const chosen = (o: Occurrence): boolean => o.kind === 'tool_call' || (o.role === 'user' && o.kind !== 'tool_result');


/**
 * Does this occurrence name `name` (a bare file name) as the working directory's file: a person's message or a
 * command's output holding it on its own (`modified:   README.md`), or a tool call taking it as its argument (the file
 * it opens or the command it runs, `cat README.md`, `<cwd>/README.md`)? Not content a call writes, not a longer path
 * that ends with it (`website/package.json` is another folder's), not a file's text.
 */
const namesWorkingDirectoryFile = (o: Occurrence, name: string, cwd: string | null): boolean => {
  if (o.kind === 'tool_call') return exactPathIn(o.target ? (o.target.file ?? o.target.target) : o.text, name, cwd);
  return (inCommandOutput(o) || (o.role === 'user' && o.kind !== 'tool_result')) && exactPathIn(o.text, name, null);
};

/** A file of prose: notes, a README, a plan. */
const PROSE_FILE = /\.(?:md|markdown|mdx|txt|rst|adoc)$/i;

/** A user's own message (not a tool result in the user's turn, not another compaction's summary). */
const saidByUser = (o: Occurrence): boolean => o.role === 'user' && (o.kind === 'message' || o.kind === undefined);

/** Does the text give `value` to a setting: a flag's value (`--memory 4G`, `-m=512M`) or an assignment (`TIMEOUT=30s`, `timeout: 30s`)? */
function setsValue(text: string, value: string): boolean {
  const v = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:(?:^|\\s)--?[A-Za-z][\\w-]*(?:=|\\s+)|\\b[A-Za-z_][\\w.-]*\\s*[=:]\\s*["']?)${v}(?![\\w.])`, 'm').test(text);
}

/**
 * Does a later call set the measure: a command that gives it to a flag or a variable, or a file it writes (not prose:
 * a config, code) that assigns it (`TIMEOUT=30s`, `memory: 4G`)? That uses it as a value, as taking it as an argument does.
 */
export function setsMeasure(id: Identifier, target: { kind: string; writes: boolean; file: string | null } | null | undefined, text: string): boolean {
  if (id.kind !== 'quantity' || !target || !text.includes(id.value)) return false;
  if (target.kind !== 'command' && !(target.writes && !!target.file && !PROSE_FILE.test(target.file))) return false;
  return setsValue(text, id.value);
}

/** Is `value` part of the last segment of a line that names a file (`./2024-05-23 - Idaho Press - ….md`)? */
function inFileName(line: string, value: string): boolean {
  const t = line.trim().replace(/^\s*(?:\d+→|[-*+•]\s+)/, '');
  if (!/\.[A-Za-z][A-Za-z0-9]{0,5}$/.test(t)) return false;
  const last = t.slice(Math.max(t.lastIndexOf('/'), t.lastIndexOf('\\')) + 1);
  return last.includes(value) && !/[:|]\s/.test(last.slice(0, last.indexOf(value)));
}

/** Is every occurrence of the path inside an import or require of a package (`lodash/fp`, `next/navigation`)? */
function onlyAsSpecifier(value: string, occurrences: readonly Occurrence[]): boolean {
  if (isProjectSpecifier(value) || /^[~/\\]|^[A-Za-z]:/.test(value)) return false;
  // Every match holds the value and one of the three words: a text without them settles it before a pattern is built.
  if (!occurrences.every((o) => o.text.includes(value) && (o.text.includes('from') || o.text.includes('require') || o.text.includes('import')))) return false;
  const quoted = new RegExp(`(?:\\bfrom\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s*\\(?\\s*)["'\`]${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`);
  return occurrences.length > 0 && occurrences.every((o) => quoted.test(o.text));
}

/**
 * A module path that starts with a host (`github.com/org/repo/pkg`, `golang.org/x/sync/errgroup`, a Deno or Go
 * import): the name a package is imported by, not a file of the working tree.
 */
const MODULE_PATH = /^(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|in|co|sh|ai|app|xyz|me|gg|cloud|tech)\/[\w.-]+\/[\w.-]+/i;

/**
 * A commit message's trailer: the lines git reads as `Token-by: value` (`Co-Authored-By:`, `Signed-off-by:`) and the
 * attribution line a harness signs every commit with (`🤖 Generated with [Claude Code](https://claude.ai/code)`).
 */
const TRAILER = /^\s*(?:[A-Z][\w-]*-by:\s|(?:\S{1,4}\s+)?Generated (?:with|by) \[[^\]\n]*\]\([^)\n]*\)\s*$)/i;
/** Does every line of the text that holds `value` belong to a commit message's trailer? */
const onlyInTrailer = (text: string, value: string): boolean => everyLineHolding(text, value, (l) => TRAILER.test(l));

const PLAN_ARGUMENT = /"plan"\s*:\s*"/;

/** Is this call a plan the agent submits for approval (its `plan` argument is a document, not a value it acts on)? */
export const submitsPlan = (callText: string): boolean => PLAN_ARGUMENT.test(callText);

/**
 * Is a value held only by documents (a plan, notes, a README: read or written; the agent's own prose) and test files? Such a setting
 * (`root_index: 0` in a test and in the plan the agent drafts from it) is prose or example data about the work: as
 * with an address a document states, it counts only when the user names it or a later tool call takes it as its
 * argument, not when the agent reads its own document back or writes the value into it again.
 */
function inDocumentsOrTests(occurrences: readonly Occurrence[], value: string): boolean {
  const inDocument = (o: Occurrence) =>
    (!!o.target?.file && PROSE_FILE.test(o.target.file) && (o.kind === 'tool_result' || !!o.target.writes)) ||
    // The agent's own prose, and a plan it submits for approval (a call whose `plan` argument is the plan's text).
    (o.role === 'assistant' && (o.kind === 'message' || (o.kind === 'tool_call' && !o.target && submitsPlan(o.text))));
  return occurrences.some(inDocument) && occurrences.every((o) => inDocument(o) || inTestFile(o, value));
}

export function relevance(id: Identifier, occurrences: readonly Occurrence[], scope: ProjectScope): Relevance {
  const v = id.value;
  const every = (test: (o: Occurrence) => boolean) => occurrences.length > 0 && occurrences.every(test);
  // What a commit's trailer names is the same signature on every commit, not a fact of the work.
  if (every((o) => onlyInTrailer(o.text, v))) return 'irrelevant';
  // What only test or fixture files hold is an example the test was written with (`offset: 0`, `file1.txt`).
  if (id.kind !== 'function' && every((o) => inTestFile(o, v))) return 'irrelevant';
  switch (id.kind) {
    case 'function':
      return scope.ownsCall(v) ? 'relevant' : 'irrelevant';
    case 'path':
      if (scope.isWorkingDirectory(v)) return 'irrelevant';
      // A program named without a folder (`cmd.exe`, `powershell.exe`, `cmake.exe`) is one Windows finds on its PATH: the
      // system's or a tool's, not a file of the work (a program the project builds is run by its path).
      if (/^[^\\/\s]+\.exe$/i.test(v)) return 'irrelevant';
      // A name every project (or folder) has by convention, written without a folder, says by itself whose file it is
      // nowhere (as a bare name several files share does): inside a file's content (`filereadable("package.json")`, a
      // tree in a document) it may be any project's. Where a person or a tool call chose it, or a command run in the
      // working directory printed it (`git status`: `modified: README.md`), it is that directory's file: a later call
      // taking exactly that file (`<cwd>/README.md`) takes this one.
      if (CONVENTIONAL_NAME.test(v)) return occurrences.some((o) => namesWorkingDirectoryFile(o, v, scope.cwd)) ? 'exact-path' : 'irrelevant';
      if (onlyAsSpecifier(v, occurrences) || MODULE_PATH.test(v) || scope.outside(v)) return 'exact-path';
      // A bare name several files share (`route.ts`, `page.tsx`) says which file nowhere.
      if (!/[\\/]/.test(v) && scope.sharedName(v)) return 'irrelevant';
      return scope.shows(v) || (isProjectSpecifier(v) && scope.showsModule(v)) ? 'relevant' : 'irrelevant';
    case 'date':
      // A date inside a file name (`2026-04-02 - Idaho Reports - ….md`) is part of the name, not a date of the work.
      // The lines that hold it are found from its occurrences, not by splitting each text; a date written across a line
      // break (`Oct\n7`) is on no line, and every line that holds it is in a file name, as before.
      if (every((o) => v.includes('\n') || !o.text.includes(v) || everyLineHolding(o.text, v, (line) => inFileName(line, v)))) return 'irrelevant';
      // A year alone (`since 2011`) names a time, not a thing a later turn takes: like a version, it counts when the user
      // names it or a later call takes it as its argument, not when written content or output repeats it. So does a
      // day without its year (`April 3`), which names no one day by itself.
      return /^(?:19|20)\d\d$/.test(v) || parseDate(v)?.year === null ? 'argument' : 'relevant';
    case 'quantity': {
      const unit = /^[\d,.]+\s*(.+)$/.exec(v)?.[1];
      // A duration a run printed is a measurement; one a person or a tool call chose is a setting.
      if (unit && TIME_UNIT.test(unit) && !occurrences.some(chosen)) return 'irrelevant';
      // A setting only a command printed (`max_cases: 32`) is the run's; one only a tool call's arguments hold
      // (`"head_limit":10`) is a parameter of the tool, not of the work.
      if (SETTING.test(v) && (every(inCommandOutput) || every((o) => o.kind === 'tool_call'))) return 'irrelevant';
      // A measure (a size, a time, a temperature) names no thing a later turn takes: in a document, a plan, a banner
      // or output it says how much. It counts only as a value someone set: one the user writes, or one a tool call
      // gives a setting (`--memory 4G`, `TIMEOUT=30s`, `timeout: 30s` in a config it writes).
      if (!SETTING.test(v) && !occurrences.some((o) => saidByUser(o) || (o.kind === 'tool_call' && setsValue(o.text, v)))) return 'irrelevant';
      // Even one someone set is used later only as a value set again (`setsMeasure`), or by the user or a command: a
      // plan, a report or the agent's notes that repeat how much (a cost, an estimate) say it, they do not use it.
      if (!SETTING.test(v)) return 'argument';
      return inDocumentsOrTests(occurrences, v) ? 'argument' : 'relevant';
    }
    case 'port':
    case 'host':
    case 'host-port':
      // An address a document states (a README's "Grafana on port 3000") is prose about the work: it counts only when the
      // user names it or a later tool call takes it as its argument, not when a script or written content repeats it.
      return every((o) => !!o.target?.file && PROSE_FILE.test(o.target.file)) ? 'argument' : 'relevant';
    case 'version':
      // A tool's banner or a stack trace names the versions of the run, not of the work. Elsewhere a version names a
      // release: needed when the user names it or a later tool call takes it as its argument (installs, pins, checks it
      // out), not when a header, a doc or output repeats it.
      return every(inCommandOutput) ? 'irrelevant' : 'argument';
    default:
      return 'relevant';
  }
}
