// Parses dropped files off the main thread: streams each file in with progress, then runs the engine loader.
import * as Comlink from 'comlink';
import { loadFiles, type InputFile, type LoadResult } from '../../src/load/loader';
import { estimateRecords, jsonlPrefix, PREVIEW_MIN_BYTES, PREVIEW_PREFIX_BYTES } from '../../src/load/prefix';
import type { Session } from '../../src/model/types';
import { reportedView, type ReportedView } from '../../src/analysis/reported-view';
import { sha256Hex } from '../../src/share';
import { sessionHashes } from '../data/session-hash';
import type { Result } from '../../src/share';
import { readBundle, type OpenedBundle } from '../data/bundle-open';
import type { LoadProgress } from '../store/session-slice';

export type { LoadProgress };

export type LoadSource = File | { name: string; text: string };

/** The loader's result plus each session's content hash (sessionHash of its files; null if unknown). */
export interface WorkerLoadResult extends LoadResult {
  hashes: (string | null)[];
  /** Per session, the id it was sent to the analysis worker under (see `handOff`), or null. */
  handedOff: (string | null)[];
  /** Per session, what its reported usage shows before any count (reported-view.ts), or null. */
  reported: (ReportedView | null)[];
}

/** Transcript items reach the page in chunks of this many, so no one message takes long to unpack there. */
const ITEM_CHUNK = 2000;

/**
 * The page and the analysis worker both need the session. Sent straight to the analysis worker over `port`
 * it is copied on this worker's thread; through the page it was copied twice, once on the page's main thread.
 */
function handOff(sessions: Session[], port: MessagePort | undefined, previewed: boolean): (string | null)[] {
  if (!port) return sessions.map(() => null);
  const ids = sessions.map(() => crypto.randomUUID());
  // `previewed`: the page showed a preview of this load, and shows the full session only once its counts are exact.
  sessions.forEach((session, i) => port.postMessage({ id: ids[i], session, previewed }));
  port.close();
  return ids;
}

/**
 * A transcript's items go to the page in chunks before the result (which then carries none): one message of
 * 100 MB is one main-thread task of a second. Request logs keep theirs, since their requests share the item objects.
 */
async function sendItems(sessions: Session[], onItems: ((session: number, items: Session['items']) => unknown) | undefined): Promise<Session[]> {
  if (!onItems) return sessions;
  const out: Session[] = [];
  for (const [i, s] of sessions.entries()) {
    if (s.requests.length > 0 || s.items.length <= ITEM_CHUNK) {
      out.push(s);
      continue;
    }
    for (let k = 0; k < s.items.length; k += ITEM_CHUNK) await onItems(i, s.items.slice(k, k + ITEM_CHUNK));
    out.push({ ...s, items: [] });
  }
  return out;
}

/** A first look at a big JSONL file: its first whole lines parsed, sent before the whole file is. */
export interface LoadPreview {
  file: string;
  /** The first session the prefix made; its issues are left out (the full parse reports the file's). */
  session: Session;
  /** Bytes of the file the preview was parsed from, and of the whole file. */
  bytes: number;
  totalBytes: number;
  /** Records (non-blank lines) in the preview, and the whole file's estimated from its size. */
  records: number;
  estimatedRecords: number;
}

/** The preview of a lone big JSONL file, or null (small, several files, not line-based, nothing parsed). */
async function previewOf(sources: LoadSource[]): Promise<LoadPreview | null> {
  const source = sources[0];
  if (sources.length !== 1 || !(source instanceof Blob) || source.size <= PREVIEW_MIN_BYTES) return null;
  const name = source instanceof File ? source.name : 'file';
  const cut = jsonlPrefix(new Uint8Array(await source.slice(0, PREVIEW_PREFIX_BYTES).arrayBuffer()));
  if (!cut) return null;
  const session = loadFiles([{ name, bytes: cut.bytes }]).sessions[0];
  if (!session) return null;
  session.issues = [];
  const bytes = cut.bytes.length;
  return { file: name, session, bytes, totalBytes: source.size, records: cut.records, estimatedRecords: estimateRecords(cut.records, bytes, source.size) };
}

/** Below this a file is read in one go: streaming it in chunks of 64 KB took a round trip per chunk, with no progress worth showing. */
const ONE_READ_BYTES = 8 << 20;

async function readAll(source: LoadSource, onProgress: (p: LoadProgress) => void): Promise<InputFile> {
  if (!(source instanceof Blob)) return { name: source.name, bytes: new TextEncoder().encode(source.text) };
  if (source.size <= ONE_READ_BYTES) {
    const bytes = new Uint8Array(await source.arrayBuffer());
    onProgress({ file: source.name, loaded: bytes.length, total: source.size, phase: 'reading' });
    return { name: source.name, bytes };
  }
  const total = source.size;
  const reader = source.stream().getReader();
  const bytes = new Uint8Array(total);
  let loaded = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, loaded);
    loaded += value.length;
    if (loaded - lastReport > 1 << 20 || loaded === total) {
      lastReport = loaded;
      onProgress({ file: source.name, loaded, total, phase: 'reading' });
    }
  }
  return { name: source.name, bytes: bytes.subarray(0, loaded) };
}

/** A performance measure from `start` to now, read by `npm run bench` through this worker's timeline; returns now. */
function measure(name: string, start: number): number {
  const end = performance.now();
  performance.measure(name, { start, end });
  return end;
}

/** The files read and parsed, with the read's and the parse's measures. */
interface Parsed {
  inputs: InputFile[];
  loaded: LoadResult;
  /** Per session, its reported view, when `prepare` worked it out and sent the first to the page already. */
  reported?: (ReportedView | null)[];
}

type FirstLookOf = ReportedView & { title: string; format: Session['format'] };

function reportedViews(sessions: Session[]): (ReportedView | null)[] {
  return sessions.map((s) => {
    try {
      return reportedView(s);
    } catch {
      return null; // the analysis reports what fails
    }
  });
}

async function readAndParse(sources: LoadSource[], onProgress: (p: LoadProgress) => void): Promise<Parsed> {
  const t0 = performance.now();
  const inputs: InputFile[] = [];
  for (const s of sources) inputs.push(await readAll(s, onProgress));
  const t1 = measure('load:read', t0);
  const total = inputs.reduce((n, f) => n + f.bytes.length, 0);
  onProgress({ file: inputs.map((f) => f.name).join(', '), loaded: 0, total, phase: 'parsing' });
  const loaded = loadFiles(inputs);
  measure('load:parse', t1);
  return { inputs, loaded };
}

/**
 * The parse `prepare` started at the drop, while the page was still planning the open (prepare's comment). Each
 * load worker serves one load, so the next `load` is the one it was started for.
 */
let prepared: Promise<Parsed> | null = null;

const api = {
  /**
   * Reads and parses the files the page was given before it knows they open as sessions (its plan needs a corpus
   * check and a bundle check first): the first view waited on that plan's file reads and code. `load` then takes
   * this parse; a plan that opens them otherwise ends this worker.
   */
  prepare(sources: LoadSource[], onReported?: (view: FirstLookOf) => unknown): void {
    prepared = readAndParse(sources, () => {}).then((parsed) => {
      if (!onReported) return parsed;
      // The first look goes to the page at once; the page shows it once its plan opens these files as sessions.
      const t = performance.now();
      const reported = reportedViews(parsed.loaded.sessions);
      const first = parsed.loaded.sessions[0];
      if (first && reported[0]) void Promise.resolve(onReported({ ...reported[0], title: first.title, format: first.format })).catch(() => undefined);
      measure('load:reported', t);
      return { ...parsed, reported };
    });
    prepared.catch(() => undefined); // `load` reports it
  },
  /** A bundle's files and view, decoded here so the page's thread is not held (see data/bundle-open.ts). */
  async readBundle(source: LoadSource): Promise<Result<OpenedBundle>> {
    return readBundle(source instanceof Blob ? new Uint8Array(await source.arrayBuffer()) : source.text);
  },
  /** `onPreview`, when given, gets a big JSONL file's preview before the whole file is read. */
  async load(
    sources: LoadSource[],
    onProgress: (p: LoadProgress) => void,
    onPreview?: (p: LoadPreview) => void,
    analysisPort?: MessagePort,
    onItems?: (session: number, items: Session['items']) => unknown,
    only?: string,
    onReported?: (view: FirstLookOf) => unknown,
  ): Promise<WorkerLoadResult> {
    let previewed = false;
    if (onPreview) {
      const preview = await previewOf(sources).catch(() => null);
      // Not awaited: the page shows it while this worker goes on with the whole file.
      if (preview) void Promise.resolve(onPreview(preview)).catch(() => undefined);
      previewed = preview !== null;
    }
    const early = prepared;
    prepared = null;
    // The page's progress line says what is under way while the early parse ends.
    if (early) onProgress({ file: sources.map((s) => s.name).join(', '), loaded: 0, total: sources.reduce((n, s) => n + (s instanceof Blob ? s.size : s.text.length), 0), phase: 'parsing' });
    const parsed = await (early ?? readAndParse(sources, onProgress));
    const { inputs, loaded } = parsed;
    let t2r = performance.now();
    // One sample opened from a corpus row: the log's other sessions are neither hashed nor analysed.
    const picked = only === undefined ? [] : loaded.sessions.filter((s) => s.id === only);
    const result = picked.length > 0 ? { ...loaded, sessions: picked } : loaded;
    // The first view (header and call stepper) is painted from this, before the session itself crosses to the page;
    // `prepare` sent it already when it was given the page's callback (never with `only`: see load-client.ts).
    let reported = picked.length === 0 ? parsed.reported : undefined;
    if (!reported) {
      reported = reportedViews(result.sessions);
      const first = result.sessions[0];
      if (onReported && first && reported[0] && !previewed) void Promise.resolve(onReported({ ...reported[0], title: first.title, format: first.format })).catch(() => undefined);
      t2r = measure('load:reported', t2r);
    }
    // Hashed once the first view is sent (the digest runs off this thread, but on the same 2 cores as the parse):
    // the hash keys the library and share links, and is awaited only after the hand-off.
    const hashing = Promise.all(inputs.map(async (f) => ({ name: f.name, digest: await sha256Hex(f.bytes) })));
    // Handed off before the hashes are awaited: the analysis worker's first estimate (the first view) needs none.
    const handedOff = handOff(result.sessions, analysisPort, previewed);
    const t3 = measure('load:hand-off', t2r);
    const digests = await hashing;
    const hashes = await sessionHashes(result.sessions, digests);
    measure('load:hash', t3);
    return { ...result, sessions: await sendItems(result.sessions, onItems), hashes, handedOff, reported };
  },
};

export type LoadWorkerApi = typeof api;
Comlink.expose(api);
