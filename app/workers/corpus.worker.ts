// Measures corpus files off the main thread, one file at a time, streaming each from its File: a JSONL corpus
// line by line, any other file whole. Rows go back in batches with progress; no trajectory text is kept.
import * as Comlink from 'comlink';
import { requestChatCompletion } from '../../src/client';
import { loadCorpusLine, parseCorpusLineName } from '../../src/corpus/corpus-jsonl';
import { processCorpusFile, type CorpusCounter, type CorpusSink, type RowLocation } from '../../src/corpus/corpus-stream';
import { processParquetFile } from '../../src/corpus/parquet-corpus';
import { isParquetFile } from '../../src/corpus/parquet-detect';
import { blobAsyncBuffer, type AsyncBuffer } from '../../src/corpus/parquet-rows';
import type { CorpusRow } from '../../src/corpus/corpus-row';
import { createJudge, JudgeCache, type JudgeOutcome, type JudgeStore } from '../../src/corpus/judge';
import { loadFile } from '../../src/load/loader';
import type { ParseIssue, Session } from '../../src/model/types';
import { createTokenCounter, estimateTokens, pickEncoding } from '../../src/tokens';
import { comparePolicies, type PolicyComparison } from '../../src/compaction';
import { installFetchedRankTables } from './fetched-rank-tables';

installFetchedRankTables();

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

/** One trajectory to the judge at the endpoint, unless the store (the page's cache, behind a proxy) has its scores. */
function judgeOne(session: Session, endpoint: JudgeEndpoint, store: JudgeStore): Promise<JudgeOutcome> {
  const signal = judging.signal;
  const judge = createJudge({
    model: endpoint.model,
    cache: new JudgeCache(store),
    complete: async (messages) => {
      const r = await requestChatCompletion({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, model: endpoint.model, messages, temperature: 0, maxTokens: endpoint.maxTokens, timeoutMs: endpoint.timeoutMs, stream: false, signal });
      return r.ok ? { ok: true, text: r.text } : { ok: false, reason: r.reason };
    },
  });
  return judge.judge(session);
}

/** What the judge needs of the endpoint settings (the key crosses to this worker only, never further). */
export interface JudgeEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  maxTokens: number;
  timeoutMs: number;
}

let judging = new AbortController();

/** A File read by ranges (a Parquet dataset); a cancelled corpus stops at its next read. */
function rangesOf(file: File, run: number): AsyncBuffer {
  const ranges = blobAsyncBuffer(file);
  return {
    byteLength: ranges.byteLength,
    slice(start, end) {
      if (cancelled.has(run)) throw new Error('cancelled');
      return ranges.slice(start, end);
    },
  };
}

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
  async measure(run: number, job: CorpusJob, counterName: string, onBatch: (b: CorpusBatch) => void | Promise<void>, everyMs = 150): Promise<void> {
    const count = await counterFor(counterName);
    let rows: MeasuredRow[] = [];
    let issues: ParseIssue[] = [];
    let bytes = 0;
    let last = performance.now();
    let lastAt = '';
    let nth = 0;
    const flush = (done: boolean) => {
      const sent = onBatch({ source: job.source, rows, issues, bytes, done });
      rows = [];
      issues = [];
      last = performance.now();
      return sent;
    };
    const sink: CorpusSink = {
      row: (row, at) => {
        const here = `${at.line ?? 0}`;
        nth = here === lastAt ? nth + 1 : 0;
        lastAt = here;
        rows.push({ row, at, nth });
        if (performance.now() - last > everyMs) void Promise.resolve(flush(false)).catch(() => {});
      },
      issue: (i) => issues.push(i),
      notice: (i) => issues.push(i),
      progress: (b) => {
        bytes = b;
      },
    };
    try {
      const head = new Uint8Array(await job.file.slice(0, 4).arrayBuffer());
      if (isParquetFile(job.path, head)) await processParquetFile(job.path, rangesOf(job.file, run), count, sink, { key: job.path });
      else await processCorpusFile(job.path, chunksOf(job.file, run), count, sink);
    } catch (e) {
      issues.push({ file: job.path, line: null, field: null, message: `could not read: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' });
    }
    // The callback answers on its own channel: wait for the last batch, or this call could resolve first and the
    // page stop the worker with rows still on their way.
    await flush(true);
  },
  cancel(run: number): void {
    cancelled.add(run);
  },
  /**
   * Judges one trajectory: parses it here, renders it, and asks the endpoint unless the store (the page's cache,
   * behind a proxy) already has its scores. Requests go from this worker, like the Re-run summarizer's.
   */
  async judge(source: File | { name: string; text: string }, id: string, endpoint: JudgeEndpoint, store: JudgeStore): Promise<JudgeOutcome> {
    const line = source instanceof File ? null : parseCorpusLineName(source.name);
    const loaded = source instanceof File ? loadFile({ name: source.name, bytes: new Uint8Array(await source.arrayBuffer()) }) : line ? loadCorpusLine(line.file, line.line, source.text) : loadFile({ name: source.name, bytes: new TextEncoder().encode(source.text) });
    const session = loaded.sessions.find((s) => s.id === id) ?? loaded.sessions[0];
    if (!session) return { ok: false, key: null, reason: 'the trajectory no longer loads' };
    return judgeOne(session, endpoint, store);
  },
  /** Judges a session the page already has (the inspector's trajectory, or the one a re-run would have written). */
  async judgeSession(session: Session, endpoint: JudgeEndpoint, store: JudgeStore): Promise<JudgeOutcome> {
    return judgeOne(session, endpoint, store);
  },
  cancelJudging(): void {
    judging.abort();
    judging = new AbortController();
  },
  /** Every policy replayed on one trajectory of the corpus (policy-compare.ts), with the offline summarizer. */
  async comparePolicies(source: File | { name: string; text: string }, id: string, policies: string[]): Promise<{ ok: true; comparison: PolicyComparison } | { ok: false; reason: string }> {
    const session = await sessionOf(source, id);
    if (!session) return { ok: false, reason: 'the trajectory no longer loads' };
    const encoding = pickEncoding(session.model).encoding;
    let c = compareCounters.get(encoding);
    if (!c) compareCounters.set(encoding, (c = createTokenCounter(encoding).then((t) => (text: string) => t.count(text).tokens)));
    const comparison = await comparePolicies(session, { policies, count: await c });
    return { ok: true, comparison };
  },
};

const compareCounters = new Map<string, Promise<(text: string) => number>>();

async function sessionOf(source: File | { name: string; text: string }, id: string): Promise<Session | undefined> {
  const line = source instanceof File ? null : parseCorpusLineName(source.name);
  const loaded = source instanceof File ? loadFile({ name: source.name, bytes: new Uint8Array(await source.arrayBuffer()) }) : line ? loadCorpusLine(line.file, line.line, source.text) : loadFile({ name: source.name, bytes: new TextEncoder().encode(source.text) });
  return loaded.sessions.find((s) => s.id === id) ?? loaded.sessions[0];
}

export type CorpusWorkerApi = typeof api;
Comlink.expose(api);
