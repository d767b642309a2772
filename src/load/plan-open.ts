// What the user gave, decided before anything is parsed: bundles (each opens with the notes and view it carries), a
// corpus (one row per trajectory), or sessions (loaded together; the loader joins the files that belong together).
// Every way the app opens files (drop, picker, paste, links, folders) and the CLI's `inspect` ask this one function,
// so they agree. A new kind of input is one more entry in KINDS. Instruction files (CLAUDE.md, AGENTS.md, …) are told
// apart first, by name: they go with the sessions they came with (or the one open), never load as sessions.
import { isTrajectoryJsonl } from '../corpus/corpus-jsonl';
import { isParquetFile } from '../corpus/parquet-detect';
import { conversationKeysOf, isOpenHandsConversationFile } from '../formats/openhands-sdk-files';
import { looksLikeTauBenchHead } from '../formats/tau-bench';
import type { ParseIssue } from '../model/types';
import { sniffBundle } from '../share/bundle';
import { isZip } from './decode';
import { isInstructionFile } from './instruction-files';
import { CORPUS_FILE_COUNT } from './prefix';

/** A file as planOpen reads it: by name and size, and only as much of its bytes as a decision needs. */
export interface OpenSource {
  /** The file's name, or its path under a dropped or named folder (`run-3/traj.jsonl`). */
  readonly name: string;
  readonly size: number;
  /** The first `n` bytes (fewer when the file is shorter). */
  head(n: number): Promise<Uint8Array>;
  /** Every byte; read only for a zip, to count the samples it holds. */
  read(): Promise<Uint8Array>;
}

export interface OpenPlan<S extends OpenSource> {
  /** Bundle files: each opens on its own, with its notes and view. */
  bundles: S[];
  /** Sources that open together as one corpus, and the name the corpus view shows; null when none. */
  corpus: { sources: S[]; name: string } | null;
  /** Sources loaded together as sessions. */
  sessions: S[];
  /**
   * Instruction and memory files the harness loads into every request unrecorded (instruction-files.ts): they go with
   * the sessions this plan opens, or with the session already open; they never load as sessions nor join a corpus.
   */
  instructions: S[];
  /** Sources that cannot open the way asked, each with why; nothing else is lost over them. */
  problems: ParseIssue[];
}

export interface PlanOptions {
  /**
   * The sources are the files found under dropped or named folders (each name is its path). Files dropped beside
   * folders that held only instruction files (a `.claude` folder) are under no folder: they open as files do.
   */
  folder?: boolean;
  /** false: never a corpus (a bundle's own files, one corpus row opened again, the CLI's `inspect`). */
  corpus?: boolean;
}

export { CORPUS_FILE_COUNT };

/** A kind of input that opens otherwise than as a session: how to tell it from its name and first bytes. */
interface Kind {
  opensAs: 'corpus' | 'bundle';
  /** Whether the loader can still read it as sessions (when a corpus is not wanted). */
  loadable: boolean;
  /** What it holds, for the problem an unloadable kind gives where a corpus is not wanted. */
  holds?: string;
  is(source: OpenSource): Promise<boolean>;
}

const CORPUS_EXT = /\.(jsonl?|ndjson|traj)$/i;
/** A first line longer than this is not read to decide (a 16 MB trajectory per line is still a corpus candidate). */
const HEAD_LIMIT = 16 << 20;

const KINDS: readonly Kind[] = [
  // JSONL whose lines are whole trajectories.
  { opensAs: 'corpus', loadable: false, holds: 'one trajectory per line', is: isTrajectoryJsonlSource },
  // A Parquet dataset: one trajectory per row.
  { opensAs: 'corpus', loadable: false, holds: 'a Parquet dataset, one trajectory per row', is: async (s) => isParquetFile(s.name, await s.head(4)) },
  // A benchmark result holding a whole evaluation in one .json (tau-bench: a list of tasks).
  { opensAs: 'corpus', loadable: true, is: async (s) => /\.json$/i.test(s.name) && looksLikeTauBenchHead(await text(s, 4096)) },
  // An Inspect `.eval` zip with more than one sample: each sample is a session.
  { opensAs: 'corpus', loadable: true, is: isMultiSampleLog },
  // A bundle written by the app's export.
  { opensAs: 'bundle', loadable: false, is: async (s) => sniffBundle(await text(s, 4096)) },
];

/** Decides how `sources` open. Reads at most a few heads (and a zip's directory); never throws over a source. */
export async function planOpen<S extends OpenSource>(given: readonly S[], opts: PlanOptions = {}): Promise<OpenPlan<S>> {
  const plan: OpenPlan<S> = { bundles: [], corpus: null, sessions: [], instructions: given.filter((s) => isInstructionFile(s.name)), problems: [] };
  const sources = plan.instructions.length ? given.filter((s) => !isInstructionFile(s.name)) : given;
  if (sources.length === 0) return plan;
  const corpusWanted = opts.corpus !== false;
  const asCorpus = (): OpenPlan<S> => ({ ...plan, corpus: { sources: [...sources], name: corpusName(sources) } });
  // The files of an OpenHands SDK conversation (one event per file) are one session, however many.
  const names = sources.map((s) => s.name);
  const oneConversation = names.every(isOpenHandsConversationFile);
  const underFolder = opts.folder === true && sources.some((s) => s.name.includes('/'));
  if (corpusWanted && underFolder) {
    // A folder is a corpus of its transcript files, unless it is one such conversation.
    if (oneConversation && conversationKeysOf(names).size <= 1) return { ...plan, sessions: [...sources] };
    return asCorpus();
  }
  if (corpusWanted && !oneConversation) {
    if (sources.length > CORPUS_FILE_COUNT) return asCorpus();
    for (const s of sources) if (await kindOf(s, (k) => k.opensAs === 'corpus')) return asCorpus();
  }
  // Without a corpus, a kind the loader can read opens as sessions; only bundles and what it cannot read are told apart.
  for (const s of sources) {
    const kind = await kindOf(s, (k) => k.opensAs === 'bundle' || (!corpusWanted && !k.loadable));
    if (kind?.opensAs === 'bundle') plan.bundles.push(s);
    else if (kind && !kind.loadable) plan.problems.push(notASession(s, kind));
    else plan.sessions.push(s);
  }
  return plan;
}

/** The first of the kinds `asked` that `s` is; null for a plain session file or an unreadable one. */
async function kindOf(s: OpenSource, asked: (k: Kind) => boolean): Promise<Kind | null> {
  for (const k of KINDS) {
    if (!asked(k)) continue;
    try {
      if (await k.is(s)) return k;
    } catch {
      // Unreadable here: the loader reports it.
    }
  }
  return null;
}

function notASession(s: OpenSource, kind: Kind): ParseIssue {
  return { file: s.name, line: null, field: null, severity: 'error', message: `${kind.holds ?? 'a corpus'}: this file opens as a corpus (drop it on the app by itself, or run \`compaction-inspector corpus ${s.name}\`)` };
}

/** The first `want` non-empty lines of a source, read in growing slices; fewer when the source has fewer. */
export async function headLines(s: OpenSource, want = 2): Promise<string[]> {
  let size = 64 << 10;
  for (;;) {
    const end = Math.min(s.size, size);
    const lines = (await text(s, end)).split('\n');
    // The last piece may be cut unless the whole source was read.
    const complete = end >= s.size ? lines : lines.slice(0, -1);
    const found = complete.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim());
    if (found.length >= want || end >= s.size || size >= HEAD_LIMIT) return found.slice(0, want);
    size *= 4;
  }
}

async function isTrajectoryJsonlSource(s: OpenSource): Promise<boolean> {
  if (!CORPUS_EXT.test(s.name)) return false;
  const lines = await headLines(s);
  return lines.length === 2 && isTrajectoryJsonl(lines[0]!, lines[1]!);
}

async function isMultiSampleLog(s: OpenSource): Promise<boolean> {
  if (s.size < 4 || !isZip(await s.head(4))) return false;
  // fflate's unzip is loaded only for a zip.
  const { evalSampleCount } = await import('./eval-archive');
  return evalSampleCount(await s.read()) > 1;
}

async function text(s: OpenSource, n: number): Promise<string> {
  return new TextDecoder().decode(await s.head(n));
}

function corpusName(sources: readonly OpenSource[]): string {
  if (sources.length === 1) return sources[0]!.name;
  const top = new Set(sources.map((s) => s.name.split('/')[0]));
  return top.size === 1 && sources[0]!.name.includes('/') ? `${[...top][0]}/` : `${sources.length} files`;
}

/** A file already in memory (the CLI's, a test's) as a source; the plan hands it back as it was given. */
export function memorySource<F extends { name: string; bytes: Uint8Array }>(file: F): F & OpenSource {
  const { bytes } = file;
  return { ...file, size: bytes.length, head: async (n: number) => bytes.subarray(0, n), read: async () => bytes };
}
