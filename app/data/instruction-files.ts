// Instruction files a user adds to an open session (CLAUDE.md, AGENTS.md, GEMINI.md, MEMORY.md, .claude/rules/*.md):
// from the Summary audit panel's picker, or dropped with a session or onto one (planOpen sets them apart). Only the
// summary audit reads them (analysis-client.ts runs it again with them); every other figure stays as it was. They stay
// in this tab's memory: not in the library, a bundle, a share link or the address, and a reload forgets them.
import { useApp } from '../store';
import type { AddedInstructionFile } from '../store/session-slice';
import type { LoadSource } from './load-client';
import { asLoaded } from '../../src/load/instruction-files';

/** A source an open plan named an instruction file, with its path (a dropped folder's) or name. */
export interface InstructionSource {
  path: string;
  source: LoadSource;
}

let nextId = 1;

/**
 * Above this, a file is not read as instructions: harnesses warn at a few tens of KB (Claude Code at 40k characters),
 * so a bigger one is a file picked by mistake (a session, a log), and the audit would read all of it.
 */
export const MAX_INSTRUCTION_BYTES = 1 << 20;

/**
 * Reads what the user gave as instruction files: each file's text, its size in bytes and an id of its own. A file
 * over MAX_INSTRUCTION_BYTES is left out, and a notice names it.
 */
export async function readInstructionFiles(given: readonly InstructionSource[]): Promise<AddedInstructionFile[]> {
  const sizeOf = (s: LoadSource) => (s instanceof Blob ? s.size : new TextEncoder().encode(s.text).length);
  const tooBig = given.filter((g) => sizeOf(g.source) > MAX_INSTRUCTION_BYTES);
  if (tooBig.length) {
    useApp.getState().pushNotice({ id: 'instructions-too-big', tone: 'warn', text: `${tooBig.map((g) => g.path).join(', ')}: over ${MAX_INSTRUCTION_BYTES >> 20} MB, not read as instruction files (a harness loads files of a few KB into every request).` });
  }
  return Promise.all(
    given
      .filter((g) => !tooBig.includes(g))
      .map(async ({ path, source }) => {
        const text = asLoaded(path, source instanceof Blob ? await source.text() : source.text);
        return { id: nextId++, path, text, size: sizeOf(source) };
      }),
  );
}

/** `added` after `had`, leaving out a file already there (the same path and text): adding twice is adding once. */
export function withInstructionFiles(had: readonly AddedInstructionFile[], added: readonly AddedInstructionFile[]): AddedInstructionFile[] {
  const out = [...had];
  for (const f of added) if (!out.some((o) => o.path === f.path && o.text === f.text)) out.push(f);
  return out;
}

const filesOf = (key: string) => useApp.getState().sessions.find((s) => s.key === key)?.instructionFiles ?? [];

/** Adds files the user picked to an open session; the audit runs again with them. */
export async function addInstructionFiles(key: string, files: readonly File[]): Promise<void> {
  const added = await readInstructionFiles(files.map((f) => ({ path: f.name, source: f })));
  useApp.getState().setInstructionFiles(key, withInstructionFiles(filesOf(key), added));
}

/**
 * Adds the files `serve` found where a session ran (its harness's CLAUDE.md and the user's), marked so; the user
 * removes them like any other. Nothing is added to a session closed meanwhile.
 */
export async function addFoundWhereItRan(key: string, found: readonly { path: string; text: string }[]): Promise<void> {
  if (found.length === 0) return;
  const added = await readInstructionFiles(found.map((f) => ({ path: f.path, source: { name: f.path, text: f.text } })));
  if (!useApp.getState().sessions.some((s) => s.key === key)) return;
  useApp.getState().setInstructionFiles(
    key,
    withInstructionFiles(
      filesOf(key),
      added.map((f) => ({ ...f, foundWhereItRan: true as const })),
    ),
  );
}

export function removeInstructionFile(key: string, id: number): void {
  useApp.getState().setInstructionFiles(
    key,
    filesOf(key).filter((f) => f.id !== id),
  );
}

/**
 * Instruction files that came without a session to go with: added to the session in front, if one is; else named as
 * a problem, saying how to add them. Nothing is lost over them either way.
 */
export async function addToSessionInFront(given: readonly InstructionSource[]): Promise<void> {
  if (given.length === 0) return;
  const state = useApp.getState();
  const names = given.map((g) => g.path);
  const front = state.corpus !== null && state.corpusVisible ? null : state.sessions.find((s) => s.key === state.activeKey && !s.preview);
  if (!front) {
    state.beginLoad();
    state.finishLoad(
      names,
      [],
      names.map((file) => ({ file, line: null, field: null, severity: 'error' as const, message: 'an instruction file (the harness loads it into every request): open it together with its session, or add it in the Summary audit panel of an open session' })),
    );
    return;
  }
  const added = await readInstructionFiles(given);
  useApp.getState().setInstructionFiles(front.key, withInstructionFiles(filesOf(front.key), added));
  state.pushNotice({ id: `instructions-${front.key}`, tone: 'info', text: `Added ${names.join(', ')} to ${front.session.title}: the Summary audit reads ${given.length === 1 ? 'it' : 'them'} now.` });
}

/** Said when instruction files came with a corpus: corpus mode audits many sessions and reads none of them. */
export function notReadInCorpus(names: readonly string[]): void {
  useApp.getState().pushNotice({ id: 'corpus-instructions', tone: 'info', text: `${names.join(', ')}: corpus mode does not read instruction files; open a session and add them in its Summary audit panel.` });
}
