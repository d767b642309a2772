// Drives corpus mode: a small pool of corpus workers measures the files one by one, rows reach the store in
// batches, and a clicked row re-opens its trajectory from its File through the ordinary open path.
import * as Comlink from 'comlink';
import { corpusLineName } from '../../src/corpus/corpus-line-name';
import type { ParseIssue } from '../../src/model/types';
import { useApp } from '../store';
import type { CorpusEntry, CorpusFileRef, CorpusProgress } from '../store/corpus-slice';
import type { CorpusBatch, CorpusWorkerApi } from '../workers/corpus.worker';

/** Exact o200k_base counts up to this much input; past it the estimate keeps a big corpus quick. */
export const EXACT_COUNT_LIMIT = 200 << 20;
/** How often rows are handed to the store (and so how often the table and charts re-render)… */
const FLUSH_MS = 250;
/** …and, past this many rows, less often: each hand-over re-draws the charts and re-builds the table over every
 * row, so the wait grows with the rows (1 s per 20k rows, at most 10 s). */
const SLOW_FLUSH_AFTER = 5000;
const slowFlushMs = (rows: number) => Math.min(10_000, Math.max(1000, rows / 20));

interface Running {
  id: number;
  run: number;
  workers: { worker: Worker; api: Comlink.Remote<CorpusWorkerApi> }[];
  stopped: boolean;
}

let current: Running | null = null;
let nextRun = 1;

function poolSize(files: number): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 1, files));
}

function stopWorkers(r: Running): void {
  r.stopped = true;
  // Emptied below, so a proxy released here is never called again.
  for (const w of r.workers) {
    void w.api.cancel(r.run).catch(() => {});
    w.api[Comlink.releaseProxy]();
    w.worker.terminate();
  }
  r.workers = [];
}

/** Opens a corpus view for these files and measures them; a corpus already running is stopped. */
export function openCorpus(files: CorpusFileRef[], name: string): void {
  if (current) stopWorkers(current);
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));
  const bytes = sorted.reduce((n, f) => n + f.file.size, 0);
  const counter = bytes <= EXACT_COUNT_LIMIT ? 'o200k_base' : 'estimate';
  const store = useApp.getState();
  const id = store.startCorpus({ name, files: sorted, counter });
  const run: Running = { id, run: nextRun++, workers: [], stopped: false };
  current = run;
  void measureAll(run, sorted, counter);
}

async function measureAll(run: Running, files: CorpusFileRef[], counter: string): Promise<void> {
  const store = useApp.getState();
  let rows: CorpusEntry[] = [];
  let issues: ParseIssue[] = [];
  const partial = new Map<number, number>();
  let doneBytes = 0;
  let filesDone = 0;
  let currentName: string | null = null;
  const progress = (): CorpusProgress => {
    let inFlight = 0;
    for (const b of partial.values()) inFlight += b;
    return { filesDone, filesTotal: files.length, bytesDone: doneBytes + inFlight, bytesTotal: store.corpus?.progress.bytesTotal ?? 0, current: currentName };
  };
  let lastFlush = 0;
  let total = 0;
  const flush = (force = false) => {
    if (run.stopped) return;
    const now = performance.now();
    if (!force && total > SLOW_FLUSH_AFTER && now - lastFlush < slowFlushMs(total)) return;
    lastFlush = now;
    total += rows.length;
    useApp.getState().addCorpusRows(run.id, rows, issues, progress());
    rows = [];
    issues = [];
  };
  const timer = setInterval(() => flush(), FLUSH_MS);
  const onBatch = (b: CorpusBatch) => {
    const ref = files[b.source]!;
    for (const m of b.rows) {
      rows.push({ ...m.row, key: `${b.source}:${m.at.line ?? 0}:${m.nth}`, source: b.source, start: m.at.start, end: m.at.end, ...(m.at.parquetColumn ? { parquetColumn: m.at.parquetColumn } : {}) });
    }
    issues.push(...b.issues);
    if (b.done) {
      partial.delete(b.source);
      doneBytes += ref.file.size;
      filesDone++;
    } else partial.set(b.source, b.bytes);
  };

  let next = 0;
  const size = poolSize(files.length);
  try {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('../workers/corpus.worker.ts', import.meta.url), { type: 'module', name: `corpus-${i + 1}` });
      run.workers.push({ worker, api: Comlink.wrap<CorpusWorkerApi>(worker) });
    }
    const callback = Comlink.proxy(onBatch);
    await Promise.all(
      run.workers.map(async ({ api, worker }) => {
        const died = new Promise<never>((_, reject) => worker.addEventListener('error', (e) => reject(new Error(e.message || 'a corpus worker stopped'))));
        while (!run.stopped && next < files.length) {
          const source = next++;
          currentName = files[source]!.path;
          await Promise.race([api.measure(run.run, { source, file: files[source]!.file, path: files[source]!.path }, counter, callback), died]);
        }
      }),
    );
    clearInterval(timer);
    flush(true);
    if (!run.stopped) useApp.getState().finishCorpus(run.id, 'done');
  } catch (e) {
    clearInterval(timer);
    flush(true);
    if (!run.stopped) useApp.getState().finishCorpus(run.id, 'error', e instanceof Error ? e.message : String(e));
  } finally {
    if (current === run) {
      stopWorkers(run);
      current = null;
    }
  }
}

export function cancelCorpus(): void {
  if (!current) return;
  const r = current;
  stopWorkers(r);
  current = null;
  useApp.getState().finishCorpus(r.id, 'cancelled');
}

export function closeCorpus(): void {
  cancelCorpus();
  useApp.getState().closeCorpus();
}

/** The text of one trajectory: its JSONL line, read by byte range, its Parquet row, or its whole file. */
export async function trajectorySource(entry: CorpusEntry, ref: CorpusFileRef): Promise<File | { name: string; text: string }> {
  if (entry.line === null) return ref.file;
  if (entry.parquetColumn) {
    // Only the row group that holds the row is read.
    const { blobAsyncBuffer, readParquetTrajectory } = await import('../../src/corpus/parquet-rows');
    return readParquetTrajectory(ref.path, blobAsyncBuffer(ref.file), entry.line, entry.parquetColumn);
  }
  const text = await ref.file.slice(entry.start, entry.end).text();
  return { name: corpusLineName(ref.path, entry.line), text };
}
