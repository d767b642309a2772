// The instruction files a harness puts in every request without recording them in the session file: Claude Code's
// CLAUDE.md files (the project's, `.claude/CLAUDE.md`, `CLAUDE.local.md`, the cwd's parents', `~/.claude/CLAUDE.md`,
// `.claude/rules/*.md`, their `@path` imports) and auto memory (MEMORY.md), Codex's AGENTS.md, Gemini CLI's
// GEMINI.md, as the user supplies them (`Session.instructionFiles`). What such a file holds was never out of the
// model's context, and the summarizer read it too, so the audit reads it in three ways:
// - a lost identifier a file holds is not lost: it is read as what the compaction kept verbatim beside the summary
//   (`withoutStillSeen`, audit-session.ts's `stillSeen`), with the same matching (`foundIn` over the text's haystack),
//   but for a path, which the file must name whole (`namesPathWhole`), or by its shape (a drawn tree, a file listed
//   under its folder: outline-paths.ts): a project's notes name folders by their last segment (`skills/`,
//   `commands/`) that are other folders than the lost one;
// - an identifier the summary writes that a file holds is backed (not invented), as the evicted and context items
//   back one;
// - a claim that the user wants or asked something, which a file's instruction states, is backed as a user message
//   would back it. Claude Code sends the CLAUDE.md files in the user's turn, framed as the user's own: "Codebase and
//   user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions
//   OVERRIDE any default behavior and you MUST follow them exactly as written." A summary that retells one as "the
//   user wants …" retells what it was given as the user's instruction; it invents nothing. Each instruction (a
//   paragraph or a list item, under its heading) is read as one message, so a long file does not back any paraphrase
//   by the sheer number of its words (see `instructionUnits`).
//
// The system prompt is read otherwise (audit-session.ts): its names are the harness's conventions and examples
// ("tags look like v2.14.3"), written once for every project, so a value it happens to hold says nothing about what
// this session knew, and it does not count as still seen. An instruction file is the project's own: its people write
// its paths, commands, ports and rules there for this project, and the model reads them as such in every request.
import type { InstructionFile, Item } from '../model/types';
import type { Identifier } from './identifiers';
import { mentionText } from './later-use';
import { dateSupported, foundIn, haystack, type Haystack } from './normalize';
import { outlinePaths } from './outline-paths';

/** The instruction files as the audit reads them; `instructionContext` gives none when there are no files. */
export interface InstructionContext {
  /** The files' texts, in the order given: read with the evicted and context items, as what the summarizer read. */
  readonly texts: readonly string[];
  /** Does a file hold the identifier, as a text kept verbatim beside the summary holds it? Then it was not lost. */
  holds(id: Identifier): boolean;
  /** Does a file back an identifier the summary wrote (a date as a date)? Then it is not invented. */
  backs(id: Identifier): boolean;
  /** Each instruction of the files as a text that stands in for a user message (`judgeUserClaims`' `earlier`). */
  standIns(): readonly string[];
}

/** The instruction files' reading, or null without any file with text (the audit then reads exactly as before). */
export function instructionContext(files: readonly InstructionFile[] | undefined, cwd: string | null): InstructionContext | null {
  const given = (files ?? []).filter((f) => f.text.trim() !== '');
  if (given.length === 0) return null;
  const texts = given.map((f) => f.text);
  // Claude Code sends each file under its path ("Contents of /home/dev/shop/CLAUDE.md (project instructions …)"): a
  // path that names one of the files is in the context too, written whole or from a folder above it.
  const paths = given.map((f) => f.path.replace(/\\/g, '/'));
  const namesFile = (id: Identifier) => {
    if (id.kind !== 'path') return false;
    const v = id.value.replace(/\\/g, '/').replace(/^\.\//, '');
    return v.includes('/') && paths.some((p) => p === v || p.endsWith(`/${v}`));
  };
  let hays: Haystack[] | undefined;
  // As audit-session.ts reads an item (SessionItems.hay): its mention text, relative paths resolved against the cwd.
  const hay = () => (hays ??= texts.map((t) => haystack(mentionText(t), { cwd })));
  let joined: Haystack | undefined;
  let units: string[] | undefined;
  // The paths the files name by their shape: a drawn tree, a file listed under its folder (outline-paths.ts).
  let outline: Set<string> | undefined;
  const outlined = () => (outline ??= new Set(texts.flatMap((t) => outlinePaths(t)).map((p) => p.replace(/\/+$/, ''))));
  return {
    texts,
    holds: (id) =>
      namesFile(id) ||
      (id.kind === 'path' ? texts.some((t) => namesPathWhole(t, id.value, cwd)) || pathForms(id.value, cwd).some((f) => outlined().has(f)) : hay().some((h) => foundIn(id, h))),
    backs: (id) => {
      // As `unbacked` reads its support: one joined text, so a host in one file and its port in another back `host:port`.
      if (namesFile(id)) return true;
      joined ??= haystack(texts.join('\n\n'));
      return id.kind === 'date' ? dateSupported(id.value, [joined]) : foundIn(id, joined);
    },
    standIns: () => (units ??= texts.flatMap(instructionUnits)),
  };
}

/** A path as written (no closing slash), and relative to the working directory or absolute under it. */
function pathForms(value: string, cwd: string | null): string[] {
  const v = value.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (v === '') return [];
  const forms = [v];
  const c = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (c && v.startsWith(`${c}/`)) forms.push(v.slice(c.length + 1));
  else if (c && !v.startsWith('/') && !v.startsWith('~')) forms.push(`${c}/${v}`);
  return forms;
}

/**
 * Does `text` name the path whole: as written, relative to the working directory, or absolute under it (a folder with
 * or without its closing slash)? Not by its last segments, as a later item's mention may: a file's `skills/` says
 * nothing of `~/.claude/skills/`, nor `docs/a.md` of `web/docs/a.md`. A bare file name is named by a path that ends
 * with it (the file states where it is); a folder is not named by a file's path under it, and one name without an
 * extension (`FitToday`, the project's folder, or the app's name) only with a slash beside it.
 */
export function namesPathWhole(text: string, value: string, cwd: string | null): boolean {
  const forms = pathForms(value, cwd);
  if (forms.length === 0) return false;
  const bare = !forms[0]!.includes('/');
  return forms.some((form) => {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      const before = text[at - 1] ?? ' ';
      const after = text[at + form.length] ?? ' ';
      // One name with no extension is a word as often as a folder: named as one only with a slash on either side.
      const word = !form.includes('/') && !/\.\w+$/.test(form);
      const leftOk = !/[\w.~@-]/.test(before) && (before !== '/' || bare) && (!word || before === '/' || after === '/');
      // A closing slash, or a sentence's full stop, ends it; a longer name or a deeper path does not.
      const rest = after === '/' ? text.slice(at + form.length + 1, at + form.length + 3) : text.slice(at + form.length, at + form.length + 2);
      const rightOk = !/^[\w-]|^\.\w/.test(rest);
      if (leftOk && rightOk) return true;
    }
    return false;
  });
}

/**
 * A CLAUDE.md or rule file Claude Code did record: the `nested_memory` attachment of a folder's CLAUDE.md the agent
 * reached, or of a `.claude/rules` file whose `paths:` match a file it touched (claude-code-attachments.ts). It is sent
 * in the user's turn under the same framing, so its instructions back a claim about the user as the supplied files'
 * do. Unlike those it is in the requests from where it is recorded until a compaction takes it out (Claude Code
 * attaches it again when the agent next touches such a file), so it is read as the item it is for lost and invented.
 */
export const isRecordedInstructions = (meta: Item['meta'] | undefined): boolean => meta?.['attachment'] === 'nested_memory';

const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/**
 * A file's instructions, one a text: each paragraph, or each item of a list, with the heading it sits under. A
 * user message is compared with a claim as a whole; a whole CLAUDE.md would hold half the words of most claims.
 */
export function instructionUnits(text: string): string[] {
  const out: string[] = [];
  let heading = '';
  let current: string[] = [];
  const flush = () => {
    const body = current.join('\n').trim();
    if (body) out.push(heading ? `${heading}: ${body}` : body);
    current = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const h = HEADING.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
      continue;
    }
    if (line.trim() === '' || LIST_ITEM.test(line)) flush();
    if (line.trim() !== '') current.push(line.trim());
  }
  flush();
  return out;
}
