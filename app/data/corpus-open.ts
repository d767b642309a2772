// When a drop or a pick opens corpus mode instead of the inspector: more than CORPUS_FILE_COUNT files, or a JSONL
// whose lines are whole trajectories (folders: see dropped-folders.ts). Loaded on demand with the engine.
import { isTrajectoryJsonl } from '../../src/corpus/corpus-jsonl';
import { looksLikeTauBenchHead } from '../../src/formats/tau-bench';
import { isOpenHandsConversationFile } from '../../src/formats/openhands-sdk-files';
import type { CorpusFileRef } from '../store/corpus-slice';
import { openCorpus } from './corpus-client';

/** More files than this at once is a corpus, not one session with its logs. */
export const CORPUS_FILE_COUNT = 20;
const CORPUS_EXT = /\.(jsonl?|ndjson|traj)$/i;
/** A first line longer than this is not read to decide (a 16 MB trajectory per line is still a corpus candidate). */
const HEAD_LIMIT = 16 << 20;

type Source = File | { name: string; text: string };

/** The first `want` non-empty lines of a file, read in growing slices; fewer when the file has fewer. */
export async function headLines(blob: Blob, want = 2): Promise<string[]> {
  let size = 64 << 10;
  for (;;) {
    const end = Math.min(blob.size, size);
    const text = await blob.slice(0, end).text();
    const lines = text.split('\n');
    // The last piece may be cut unless the whole file was read.
    const complete = end >= blob.size ? lines : lines.slice(0, -1);
    const found = complete.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim());
    if (found.length >= want || end >= blob.size || size >= HEAD_LIMIT) return found.slice(0, want);
    size *= 4;
  }
}

export async function isCorpusJsonl(source: Source): Promise<boolean> {
  if (!CORPUS_EXT.test(source.name)) return false;
  const lines = source instanceof Blob ? await headLines(source) : source.text.split('\n').filter((l) => l.trim()).slice(0, 2);
  return lines.length === 2 && isTrajectoryJsonl(lines[0]!, lines[1]!);
}

/** A benchmark result that holds a whole evaluation in one .json (tau-bench: a list of tasks) is a corpus too. */
export async function isCorpusJson(source: Source): Promise<boolean> {
  if (!/\.json$/i.test(source.name)) return false;
  const head = source instanceof Blob ? await source.slice(0, 4096).text() : source.text.slice(0, 4096);
  return looksLikeTauBenchHead(head);
}

/** An Inspect `.eval` zip with more than one sample: each sample is a session, so the log is a corpus. */
export async function isMultiSampleLog(source: Source): Promise<boolean> {
  if (!(source instanceof Blob) || source.size < 4) return false;
  const head = new Uint8Array(await source.slice(0, 4).arrayBuffer());
  if (head[0] !== 0x50 || head[1] !== 0x4b || head[2] !== 0x03 || head[3] !== 0x04) return false;
  const { evalSampleCount } = await import('../../src/load/eval-archive');
  return evalSampleCount(new Uint8Array(await source.arrayBuffer())) > 1;
}

/** True when these sources should open as a corpus rather than as one joined session. */
export async function shouldOpenAsCorpus(sources: readonly Source[]): Promise<boolean> {
  // The files of an OpenHands SDK conversation (one event per file) are one session, however many.
  if (sources.every((s) => isOpenHandsConversationFile(s.name))) return false;
  if (sources.length > CORPUS_FILE_COUNT) return true;
  for (const s of sources) if ((await isCorpusJsonl(s)) || (await isCorpusJson(s)) || (await isMultiSampleLog(s))) return true;
  return false;
}

const asFile = (s: Source): File => (s instanceof File ? s : new File([s.text], s.name));

function corpusName(refs: CorpusFileRef[]): string {
  if (refs.length === 1) return refs[0]!.path;
  const top = new Set(refs.map((r) => r.path.split('/')[0]));
  return top.size === 1 && refs[0]!.path.includes('/') ? `${[...top][0]}/` : `${refs.length} files`;
}

/** Opens dropped folders' files as a corpus. */
export function openFolderFiles(refs: CorpusFileRef[]): void {
  if (refs.length > 0) openCorpus(refs, corpusName(refs));
}

/** Opens sources as a corpus (files keep their names as paths). */
export function openSourcesAsCorpus(sources: readonly Source[]): void {
  const refs = sources.map((s) => ({ file: asFile(s), path: s.name }));
  openCorpus(refs, corpusName(refs));
}

