// Measures corpus files off the main thread, one file at a time, streaming each from its File: a JSONL corpus
// line by line, any other file whole. Rows go back in batches with progress; no trajectory text is kept.
import * as Comlink from 'comlink';
import { processCorpusFile, type CorpusCounter, type RowLocation } from '../../src/corpus/corpus-stream';
import type { CorpusRow } from '../../src/corpus/corpus-row';
import type { ParseIssue } from '../../src/model/types';
import { createTokenCounter, estimateTokens } from '../../src/tokens';

export interface CorpusJob {
  /** Index of the file in the corpus. */
  source: number;
  file: File;
  /** Name rows and issues carry (the relative path of a folder drop). */
  path: string;
}

export interface MeasuredRow {
  row: CorpusRow;
  at: RowLocation;
  /** Index of the trajectory within its location (a file may hold several sessions). */
  nth: number;
}

export interface CorpusBatch {
  source: number;
  rows: MeasuredRow[];
  issues: ParseIssue[];
  /** Bytes of this file read so far. */
  bytes: number;
  done: boolean;
}

let counter: Promise<CorpusCounter> | null = null;
let counterName = 'estimate';

function counterFor(name: string): Promise<CorpusCounter> {
  if (!counter || counterName !== name) {
    counterName = name;
    counter =
      name === 'estimate'
        ? Promise.resolve({ count: (t: string) => estimateTokens(t), counter: 'estimate' })
        : createTokenCounter('o200k_base').then((c) => ({ count: (t: string) => c.count(t).tokens, counter: c.encoding }));
  }
  return counter;
}

const cancelled = new Set<number>();

/** A File as chunks; a cancelled corpus stops between chunks. */
async function* chunksOf(file: File, run: number): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    for (;;) {
      if (cancelled.has(run)) return;
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const api = {
  /** Measures one file; batches are sent at most every `everyMs`, and once at the end with `done`. */
  async measure(run: number, job: CorpusJob, counterName: string, onBatch: (b: CorpusBatch) => void, everyMs = 150): Promise<void> {
    const count = await counterFor(counterName);
    let rows: MeasuredRow[] = [];
    let issues: ParseIssue[] = [];
    let bytes = 0;
    let last = performance.now();
    let lastAt = '';
    let nth = 0;
    const flush = (done: boolean) => {
      onBatch({ source: job.source, rows, issues, bytes, done });
      rows = [];
      issues = [];
      last = performance.now();
    };
    try {
      await processCorpusFile(job.path, chunksOf(job.file, run), count, {
        row: (row, at) => {
          const here = `${at.line ?? 0}`;
          nth = here === lastAt ? nth + 1 : 0;
          lastAt = here;
          rows.push({ row, at, nth });
          if (performance.now() - last > everyMs) flush(false);
        },
        issue: (i) => issues.push(i),
        progress: (b) => {
          bytes = b;
        },
      });
    } catch (e) {
      issues.push({ file: job.path, line: null, field: null, message: `could not read: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' });
    }
    flush(true);
  },
  cancel(run: number): void {
    cancelled.add(run);
  },
};

export type CorpusWorkerApi = typeof api;
Comlink.expose(api);
