// What the transcript cannot show the summarizer read. Claude Code's summarizer also reads the system prompt (the
// project's CLAUDE.md, the environment block with the git status and recent commits), and an earlier part of the
// conversation a file may not record; none of it is in the session file. So a name the summary wrote that nothing
// recorded backs is not shown invented when the session later shows that thing to exist outside the agent's writing:
// a later tool result prints it (a listing, a read, a command's output), a later call that does not write takes it
// and succeeds, or the user names it. The summary may be right about a thing the transcript hides; it cannot be
// right about a thing that does not exist, and only the agent's own writing can make an invented name exist later.
// Another agent of a team naming it (Claude Code's agent teams) is outside that writing, as the user is.
import type { CallTarget } from '../refetch/call-target';
import { isAutoMemoryPath } from './auto-memory';
import type { Identifier, IdentifierKind } from './identifiers';
import { isPlanFile } from './loaded-instructions';

/** Kinds that name one thing of the world (a file, a function, a commit), which later output can show to exist. */
const NAMES_A_THING: ReadonlySet<IdentifierKind> = new Set(['path', 'url', 'function', 'hash', 'uuid', 'host', 'host-port', 'email', 'ticket', 'order-id']);

/** One later item as the check reads it. */
export interface LaterSight {
  kind?: string;
  /**
   * Words from outside this agent in its user turn: a person's, or another agent's of its team (a lead's order, a
   * teammate's report); not a harness notice, not a tool result.
   */
  othersWords: boolean;
  target?: CallTarget | null;
  /** A tool result that reports failure, or a call whose result does. */
  failed: boolean;
  /** For a tool result: the call it answers writes (its output echoes the agent's own writing). */
  answersWrite?: boolean;
}

/**
 * Does the session, after the compaction, show the thing `id` names to exist? `holding` gives, in order, the later
 * items holding the value; `sight` reads one. The agent's writing that holds it first ends the look: from there on
 * the thing may exist only because the agent followed the summary.
 */
export function shownToExistLater(id: Identifier, holding: Iterable<number>, sight: (i: number) => LaterSight, takes: (i: number) => boolean): boolean {
  if (!NAMES_A_THING.has(id.kind)) return false;
  for (const i of holding) {
    const s = sight(i);
    if (s.kind === 'tool_call' && s.target?.writes) return false;
    if (s.othersWords) return true;
    if (s.failed) continue;
    if (s.kind === 'tool_result' && !s.answersWrite) return true;
    // A call that opens, runs, searches or fetches nothing (a to-do list, a task, a prompt to another agent) acts on
    // nothing of the project: what it names is the agent's own writing, as a write's content is.
    if (s.kind === 'tool_call' && s.target && takes(i)) return true;
  }
  return false;
}

/**
 * Does a subagent's tool output show the thing to exist? A subagent's reads, listings and searches print what is in
 * the project as the agent's own do, though its transcript is apart from the conversation the summarizer read.
 * `outputs` are the subagents' tool results that did not fail and answer no write, read by `holds`.
 */
export function shownBySubagent<T>(id: Identifier, outputs: readonly T[], holds: (output: T) => boolean): boolean {
  return NAMES_A_THING.has(id.kind) && outputs.some(holds);
}

/**
 * Files a harness loads into the system prompt, which no session file records: the project's instructions for the
 * agent (`CLAUDE.md`, `AGENTS.md`, …). A summary naming one is never shown invented.
 */
const LOADED_BY_HARNESS = /(?:^|[\\/])(?:CLAUDE(?:\.local)?\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md)$/i;
export const loadedByHarness = (id: Identifier, slug?: string | null): boolean =>
  id.kind === 'path' && (LOADED_BY_HARNESS.test(id.value.replace(/[`'"]+$/, '')) || isAutoMemoryPath(id.value) || (!!slug && isPlanFile(id.value, slug)));

// A summary line that says it read the name in a harness reminder (the IDE's opened file or selection, a system
// reminder): those reminders reach the summarizer but no session file records them.
const TOLD_BY_HARNESS = /\bsystem[- ]reminder|\b(?:opened|selected|open) in (?:the |their |your )?(?:IDE|editor)\b|\bide_(?:opened_file|selection)\b/i;

/**
 * For each identifier of the summary: does a line of it that holds the value say a harness reminder showed it? Then
 * it is not judged. The lines that say so are found once per summary (most have none), not once per identifier.
 */
export function toldByHarnessIn(summary: string): (id: Identifier) => boolean {
  const told = TOLD_BY_HARNESS.test(summary) ? summary.split('\n').filter((line) => TOLD_BY_HARNESS.test(line)) : [];
  return (id) => told.some((line) => line.includes(id.value));
}
