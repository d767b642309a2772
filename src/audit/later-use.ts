// Two readings of "a lost identifier was needed later". The first later item that names it decides:
// - a user message or a tool call (not a repeat of a fetch the compaction removed): it was used without being
//   fetched again — `lostReferencedLater`;
// - a tool call that repeats a removed fetch (same tool, same target): the agent fetched it again —
//   `lostRefetchedLater`, linked to that call;
// - a tool result (the removed fetch run again, or another call's fresh output reprinting it): it came back;
//   when a later user message or tool call then uses it, it was needed and recovered by that fetch —
//   `lostRefetchedLater`, linked to the call whose output brought it back; so too when a user question asked for
//   one of its kind before that output. Output alone shows no need.
// An identifier outside the project (relevance.ts) counts only through a tool call that takes its exact path.
// An id (a hash, a UUID, a ticket) is taken by a later tool call as its argument either as itself
// (`TaskOutput {"task_id":"b7636e2"}`, found as any mention) or as the name of the file the call opens: a file
// named after the id holds what the id stands for (`Read …/tasks/b7636e2.output`, a background task's output).
import type { CallTarget } from '../refetch/call-target';
import type { Identifier } from './identifiers';
import { exactPathIn, haystack, referencedIn } from './normalize';
import { definesName } from './project-scope';
import { setsMeasure, submitsPlan, TEST_FILE } from './relevance';

const slashed = (f: string) => f.replace(/\\/g, '/');

// Text in a later item that its writer is not the one naming things, blanked (same length) before mentions are
// looked for: git's merge-conflict markers (`>>>>>>> origin/main:old/path.json`), which name the sides of a merge
// wherever a file or an edit quotes them, and the parts of a harness's task notification (`<task-id>`,
// `<output-file>`, `<status>`, `<summary>Background command "…" completed (exit code 0)</summary>`), which repeat
// the command it ran, in the user's turn or beside a person's words. A notification's `<result>` is kept: it is a
// background agent's report, fresh output (`isAgentReport`).
const CONFLICT_MARKER = /(?<=^|\n|\\n|\d→|\d\t)(?:<{7}|>{7}|\|{7})[^\n"\\]*/g;
const NOTIFICATION = /<task-notification>[\s\S]*?(?:<\/task-notification>|$)/g;
const RESULT_BODY = /<result>([\s\S]*?)(?:<\/result>|$)/;
const NOTICE_PARTS = /<(task-id|tool-use-id|output-file|status)>[^<]*<\/\1>|<summary>(?:Background command|Agent|Task)\b[\s\S]*?<\/summary>|^[^<]*?" (?:completed|failed|was stopped|was killed)(?: \(exit code \d+\))?<\/summary>|^Read the output file to retrieve the (?:result|output): \S+/gm;
const blank = (m: string) => m.replace(/[^\n]/g, ' ');

/** The text a later item names things in: `text` with conflict markers and task-notification parts blanked. */
export function mentionText(text: string): string {
  let out = text;
  if (out.includes('<<<<<<<') || out.includes('>>>>>>>') || out.includes('|||||||')) out = out.replace(CONFLICT_MARKER, blank);
  if (out.includes('<task-notification>')) out = out.replace(NOTIFICATION, blankAllButResult);
  if (out.includes('<task-') || out.includes('<output-file>') || out.includes('</summary>') || out.includes('<status>') || out.includes('Read the output file')) out = out.replace(NOTICE_PARTS, blank);
  return out;
}

/** A task notification blanked but for its `<result>` body. */
function blankAllButResult(notification: string): string {
  const r = RESULT_BODY.exec(notification);
  if (!r) return blank(notification);
  const start = r.index + '<result>'.length;
  const end = start + r[1]!.length;
  return blank(notification.slice(0, start)) + notification.slice(start, end) + blank(notification.slice(end));
}

/**
 * Is this user-role text a background agent's report as Claude Code delivers it (a `<task-notification>` with a
 * `<result>`)? Another agent's fresh output, as a tool's result is: a later call that takes a value it printed got
 * the value back from it.
 */
export const isAgentReport = (text: string): boolean => /^\s*<task-notification>[\s\S]*?<result>/.test(text);

/** Does a later call's argument (the file it opens, the command it runs) take the identifier: a path as the exact path, another value as written. */
export function takenAsArgument(id: Identifier, arg: string, cwd: string | null): boolean {
  // A plan submitted for approval holds values as prose: the call acts on none of them.
  if (submitsPlan(arg)) return false;
  return id.kind === 'path' ? exactPathIn(arg, id.value, cwd) : referencedIn(id, haystack(arg), 0, cwd);
}

/**
 * Does later call `text` (with its target) take the value as a value it acts on: its own argument (the file it opens,
 * the command it runs; the whole text when it names no target), a version it pins, a measure it sets? A measure
 * (`30 seconds`, `4GB`) is taken only by a command or by a call that sets it: in a prompt to another agent or a to-do
 * list it is said, not taken, and a quantity that common meets many other things of the same size. `written`: the
 * call's text as written, where `text` is the one mentions are looked for in (harness notices blanked).
 */
export function takesValue(id: Identifier, target: CallTarget | null | undefined, text: string, cwd: string | null, written = text): boolean {
  if (setsMeasure(id, target, written) || pinsVersion(id, target, written)) return true;
  if (id.kind === 'quantity' && target?.kind !== 'command') return false;
  return takenAsArgument(id, target ? (target.file ?? target.target) : text, cwd);
}

/**
 * Does a call write the version as a dependency's version: a manifest's version field or attribute
 * (`{ "id": "LDtkMonogame", "version": "1.8.0" }`, `Version="1.8.0"`), a package's range (`"lodash": "^4.17.21"`,
 * `serde = "1.0.3"`), or a pin (`requests==2.31.0`, `react@18.2.0`)? That pins a release, as an install does; a header,
 * a changelog line or prose repeating the version does not.
 */
export function pinsVersion(id: Identifier, target: CallTarget | null | undefined, text: string): boolean {
  if (id.kind !== 'version' || !target?.writes) return false;
  const core = id.value.replace(/^v/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A quote, maybe escaped (a call's JSON as written).
  const quoted = `\\\\?["']`;
  const pin = new RegExp(
    `(?:${quoted}[\\w.@/-]+${quoted}\\s*:\\s*${quoted}|\\b[\\w-]+\\s*=\\s*${quoted})[~^>=<]{0,2}v?${core}${quoted}|[\\w.-](?:==|~=|>=|@)v?${core}(?![\\w.])`,
  );
  return pin.test(text);
}

/** A value (not a function, not a file) in a test file's text is the test's example data: reading or writing that file does not use it. */
export function isExampleDataIn(id: Identifier, file: string | null | undefined): boolean {
  return id.kind !== 'function' && id.kind !== 'path' && !!file && TEST_FILE.test(file);
}

// A line of a directory tree or a file list: tree glyphs or a list mark, the name, then at most a comment.
const TREE_LINE = /^[\s│├└─|`+*-]*(\S+?)\/?\s*(?:(?:#|\/\/|—|--|-|:)\s.*)?$/;

/**
 * Does a call write the path only as a line of a tree or a file list (`    monitors.py    # Monitor CRUD`, `├── tags.py`)
 * in the content it writes (a README's layout)? That is the document's picture of the project, not a use of the file.
 */
export function onlyInWrittenTree(id: Identifier, target: CallTarget | null | undefined, text: string): boolean {
  if (id.kind !== 'path' || !target?.writes) return false;
  const lines = text.split('\n').filter((l) => l.includes(id.value));
  return lines.length > 0 && lines.every((l) => TREE_LINE.exec(l)?.[1] === id.value);
}

// The message of a commit a command makes: `-m "…"` (`-am`, `--message=`), `-m '…'`, or a heredoc (`-m "$(cat <<'EOF' … EOF )"`, `-F - <<EOF`).
const COMMIT_MESSAGE = /(?<=\bgit\b[^\n&;|]*?\bcommit\b[^\n&;|]*?)(?:(?:-[A-Za-z]*m|--message)[\s=]*"(?:[^"\\]|\\.)*"|(?:-[A-Za-z]*m|--message)[\s=]*'[^']*'|<<-?\s*['"]?(\w+)['"]?[\s\S]*?\n\s*\1(?=\s|$|\)))/g;

/**
 * Does a command call hold the value only in the message of a commit it makes? The message says what the work was (as
 * the agent's prose does); the command acts on none of it. A file the commit names as its argument still counts.
 */
export function onlyInCommitMessage(id: Identifier, target: CallTarget | null | undefined, cwd: string | null): boolean {
  if (target?.kind !== 'command' || !/\bcommit\b/.test(target.target)) return false;
  const command = target.target.replace(COMMIT_MESSAGE, (m) => ' '.repeat(m.length));
  return command !== target.target && referencedIn(id, haystack(target.target), 0, cwd) && !referencedIn(id, haystack(command), 0, cwd);
}

/** The bare name of a function value (`Mod.fun()` → `fun`). */
export const functionName = (value: string): string => {
  const full = value.replace(/\(\)$/, '');
  return full.slice(full.lastIndexOf('.') + 1);
};

/**
 * A function of the same name in another module is another thing — except a class (a capitalised name) the agent
 * moved: when the slice's definition was the agent's own writing and the later file is one the agent wrote too
 * (`sameAuthor(file)`), the definition there is where the agent put it (a module split into several), not another. When the evicted slice showed the function's
 * definition in a file it read (`evictedDeclares`; its files are `evictedFiles`), the first later item that shows another file (not one of `evictedFiles`) declaring
 * a function of that name; from there on the bare name no longer says which of the two it is: -1 when none does.
 * (A slice that only called it, or showed its definition in no known file, says nothing of where it lives: a later
 * file that defines it may be its home.) `defines` is `definesName`, or a memo of it (`definesNameMemo`).
 */
export function otherDefinitionAt(
  id: Identifier,
  evictedDeclares: boolean,
  evictedFiles: ReadonlySet<string>,
  later: (i: number) => { file: string | null | undefined; text: string } | null,
  from: number,
  to: number,
  sameAuthor: (file: string) => boolean = () => false,
  defines: (text: string, name: string) => boolean = definesName,
): number {
  if (id.kind !== 'function' || !evictedDeclares) return -1;
  const name = functionName(id.value);
  const held = new Set([...evictedFiles].map(slashed));
  const aClass = /^[A-Z]/.test(name);
  for (let i = from; i < to; i++) {
    const it = later(i);
    if (it?.file && !held.has(slashed(it.file)) && !(aClass && sameAuthor(it.file)) && defines(it.text, name)) return i;
  }
  return -1;
}

const ID_KINDS = new Set(['hash', 'uuid', 'ticket', 'order-id']);

/** Does a tool call with this target open a file named after the id (its name, less extensions, is the id)? */
export function opensFileNamed(id: Identifier, target: CallTarget | null | undefined): boolean {
  if (!ID_KINDS.has(id.kind) || !target?.file) return false;
  const name = target.file.slice(Math.max(target.file.lastIndexOf('/'), target.file.lastIndexOf('\\')) + 1);
  return name.startsWith(id.value) && (name.length === id.value.length || name[id.value.length] === '.');
}

export type LaterUse =
  | { list: 'referenced'; at: number; via: 'mention' | 'question' }
  | { list: 'refetched'; at: number; via: 'refetch' | 'reprint'; usedAt: number | null };

/** What the classification needs to know of the later items, by index. */
export interface LaterWalk {
  /** The first later item from `from` on that names the identifier and passes `accept`; -1 when none. */
  first(from: number, accept: (i: number) => boolean): number;
  /** The first later user question asking for an identifier of its kind ("Which port again?"); -1 when none. */
  question(from: number): number;
  kind(i: number): 'call' | 'result' | 'message';
  /** Does tool call i repeat a fetch whose result the compaction removed? */
  repeats(i: number): boolean;
  /** The call a tool result answers, or -1 when it is not among the items. */
  callOf(i: number): number;
  /** Does tool call i take the identifier's exact path as an argument (not a longer path holding it)? */
  exactArg(i: number): boolean;
  /**
   * The first later tool result from `from` on that lists the identifier's file as an entry of a folder it lists
   * (listed-paths.ts: `ls dir`, `git status`, `git diff --stat`), which `first` does not see; -1 when none.
   */
  listed?(from: number): number;
  /** Does tool result i print the identifier's whole path where the spelling names one file wherever the tool ran (an absolute path)? */
  printsWhole?(i: number): boolean;
}

export function classifyLaterUse(walk: LaterWalk, from: number, exactPathOnly: boolean, argumentOnly = false): LaterUse | null {
  // A listing that printed the file before the item that decides: the file came back through that fresh output.
  const listed = walk.listed?.(from) ?? -1;
  const fresh = (at: number, usedAt: number): LaterUse => {
    const call = walk.callOf(at);
    return { list: 'refetched', at: call >= 0 ? call : at, via: call >= 0 && walk.repeats(call) ? 'refetch' : 'reprint', usedAt };
  };
  if (exactPathOnly) {
    const at = walk.first(from, (i) => walk.kind(i) === 'call' && walk.exactArg(i));
    if (at < 0) return null;
    // Output that prints the absolute path in full (`grep -r … /etc/nginx/sites-enabled/` printing
    // `/etc/nginx/sites-enabled/site:  location /mcp {`) names that one file wherever it ran.
    const printed = walk.printsWhole ? walk.first(from, (i) => i < at && walk.kind(i) === 'result' && walk.printsWhole!(i)) : -1;
    if (printed >= 0 && (listed < 0 || printed < listed)) return fresh(printed, at);
    // The listing joins its entry to the folder it lists: it names this exact file (a `README.md` that `git status`
    // run in the working directory prints is the working directory's), never another folder's file of that name.
    if (listed >= 0 && listed < at) return fresh(listed, at);
    return walk.repeats(at) ? { list: 'refetched', at, via: 'refetch', usedAt: null } : { list: 'referenced', at, via: 'mention' };
  }
  // A value counted only as an argument (a version, an address a document states): a call that carries it in content
  // it writes does not use it; a call that takes it as its argument, a user's message or fresh output still count.
  const counts = (i: number) => !argumentOnly || walk.kind(i) !== 'call' || walk.exactArg(i);
  const first = walk.first(from, counts);
  const at = listed >= 0 && (first < 0 || listed < first) ? listed : first;
  if (at < 0) {
    const q = walk.question(from);
    return q >= 0 ? { list: 'referenced', at: q, via: 'question' } : null;
  }
  const kind = walk.kind(at);
  if (kind === 'call' && walk.repeats(at)) return { list: 'refetched', at, via: 'refetch', usedAt: null };
  if (kind !== 'result') return { list: 'referenced', at, via: 'mention' };
  let usedAt = walk.first(at + 1, (i) => walk.kind(i) !== 'result' && counts(i));
  if (usedAt < 0) {
    // The user asked for one of its kind ("which version was it?") before the fresh output brought it back.
    const q = walk.question(from);
    if (q < 0 || q > at) return null;
    usedAt = q;
  }
  return fresh(at, usedAt);
}
