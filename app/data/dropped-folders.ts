// A dropped folder: its transcript files, read with the File System entries API while the drop event is being
// handled (entries exist only then). Light on purpose: the drop zone imports it up front, the engine loads later.
import type { CorpusFileRef } from '../store/corpus-slice';
import { isInstructionFile, isInstructionFolder } from '../../src/load/instruction-files';
import { notReadInCorpus } from './instruction-files';

const CORPUS_EXT = /\.(jsonl?|ndjson|traj|eval|parquet)$/i;

interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
}
interface FileEntryLike extends EntryLike {
  file(ok: (f: File) => void, fail: (e: unknown) => void): void;
}
interface DirEntryLike extends EntryLike {
  createReader(): { readEntries(ok: (entries: EntryLike[]) => void, fail: (e: unknown) => void): void };
}

/**
 * Transcript files and instruction files (CLAUDE.md, …) under `entry`. Folders whose names start with a dot are
 * skipped, except `.claude`, of which only the instruction files are taken (not its settings or its sessions).
 */
async function walkEntry(entry: EntryLike, out: CorpusFileRef[], onlyInstructions = false): Promise<void> {
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    const instruction = isInstructionFile(path);
    if (!instruction && (onlyInstructions || !CORPUS_EXT.test(entry.name))) return;
    const file = await new Promise<File>((ok, fail) => (entry as FileEntryLike).file(ok, fail));
    out.push({ file, path });
    return;
  }
  if (!entry.isDirectory) return;
  const instructionsOnly = onlyInstructions || isInstructionFolder(entry.name);
  if (entry.name.startsWith('.') && !instructionsOnly) return;
  const reader = (entry as DirEntryLike).createReader();
  // readEntries returns at most ~100 entries per call: read until it returns none.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const e of batch) await walkEntry(e, out, instructionsOnly);
  }
}

/**
 * The dropped folders, read while the drop event is still being handled (entries are only available then).
 * Null when the drop holds no folder; then the caller takes `dataTransfer.files` as usual.
 */
export function droppedFolders(dt: DataTransfer | null): Promise<CorpusFileRef[]> | null {
  if (!dt) return null;
  const entries: EntryLike[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => EntryLike | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
  }
  if (!entries.some((e) => e.isDirectory)) return null;
  return (async () => {
    const out: CorpusFileRef[] = [];
    for (const e of entries) await walkEntry(e, out);
    return out;
  })();
}

/**
 * Handles a drop that held folders as planOpen decides: every transcript file under them opens as a corpus, except
 * one OpenHands SDK conversation folder (base_state.json + events/event-*.json, one event per file): one session.
 * Instruction files under them (a `.claude` folder's CLAUDE.md and rules) go with the sessions, or the session open.
 */
export async function openDroppedFolders(pending: Promise<CorpusFileRef[]>): Promise<void> {
  const refs = await pending;
  const { planPage, pageSource, openCorpusPlan } = await import('./corpus-open');
  const plan = await planPage(refs.map((r) => pageSource(r.file, r.path)), { folder: true });
  const instructions = plan.instructions.map((s) => ({ path: s.name, source: s.source }));
  if (plan.corpus) {
    if (instructions.length) notReadInCorpus(instructions.map((i) => i.path));
    return openCorpusPlan(plan.corpus);
  }
  if (plan.sessions.length === 0 && instructions.length === 0) return;
  const { openSources } = await import('./open-files');
  return openSources(
    plan.sessions.map((s) => s.source),
    { instructions },
  );
}
