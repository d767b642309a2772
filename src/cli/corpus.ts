// `compaction-inspector corpus <files or folders…> [--jsonl] [--shard i/n] [--threads N] [--estimate] [--column NAME]`
//
// Walks folders for .json/.jsonl/.ndjson/.traj/.eval/.parquet files, measures every trajectory (one per file, one per
// line of a JSONL corpus, one per row of a Parquet dataset) in worker threads, and writes one JSON line per trajectory to stdout, in input order (files
// sorted by path within each folder, lines in file order). Problems go to stderr as JSON lines
// {"file","line","field","message","severity":"error"} and make the exit status 1. Without --jsonl a table
// of per-format totals is printed instead.
import { terminalText } from './terminal-text';
import { createReadStream, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { spawnCliWorker } from './worker-spawn';
import { errorRowToJsonLine, rowToJsonLine, type CorpusRow } from '../corpus/corpus-row';
import { processCorpusFile, type CorpusCounter, type FileOutcome } from '../corpus/corpus-stream';
import { CorpusTotals, renderTotals } from '../corpus/corpus-summary';
import { processParquetFile } from '../corpus/parquet-corpus';
import { isParquetFile, PARQUET_EXT } from '../corpus/parquet-detect';
import type { AsyncBuffer } from '../corpus/parquet-rows';
import { corpusKey, inShard, parseShard, type Shard } from '../corpus/shard';
import type { ParseIssue } from '../model/types';
import { createTokenCounter, estimateTokens } from '../tokens';
import type { Session } from '../model/types';
import { nodeIo, type CliIo } from './cli-io';
import { giveInstructions, readInstructionFiles } from './instruction-files';

export const CORPUS_USAGE = `  compaction-inspector corpus <files or folders…> [--jsonl] [--shard i/n] [--threads N] [--estimate] [--column NAME] [--instructions PATH|auto …]
  compaction-inspector corpus --stdin [--stdin-name NAME] [--jsonl] [--estimate] [--instructions PATH|auto …]
                                                   one metrics row per trajectory (a file, a line of a JSONL corpus,
                                                   a row of a .parquet dataset); --jsonl writes the rows as JSON lines
                                                   (a place that gave none: an error row), else a table of totals;
                                                   --shard i/n takes only the files (Parquet: row groups) of shard i
                                                   (1..n) by a stable hash of the path;
                                                   --column NAME the Parquet column that holds the trajectories;
                                                   --threads N worker threads (default: cores − 1; 0 = none);
                                                   --estimate counts tokens with the fast estimate instead of o200k_base;
                                                   --stdin reads trajectories, one per line, from standard input
                                                   (Spark's RDD.pipe, Ray Data); rows name the input NAME (default stdin);
                                                   --instructions as for inspect: the audit reads those files (auto:
                                                   each session's own, where it ran)`;

const CORPUS_EXT = /\.(jsonl?|ndjson|traj|eval|parquet)$/i;

export interface CorpusFile {
  /** Path to read (as given, joined with the path inside a folder). */
  path: string;
  /** Shard key: the path relative to the folder it was found under, or the argument as given. */
  key: string;
}

export interface CorpusOptions {
  jsonl: boolean;
  shard: Shard | null;
  /** Worker threads; 0 measures in this thread. */
  threads: number;
  estimate: boolean;
  /** Read one JSONL stream from standard input instead of files. */
  stdin: boolean;
  /** The file name rows read from standard input carry. */
  stdinName: string;
  /** The Parquet column that holds the trajectories (chosen from the candidates when null). */
  column: string | null;
  /** `--instructions PATH|auto`, as inspect reads them (instruction-files.ts): given to every trajectory's audit. */
  instructions: string[];
}

export interface CorpusIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, for --stdin (default: process.stdin). */
  stdin?: AsyncIterable<Uint8Array>;
}

/** Every corpus file under the arguments, folders walked recursively (dot-folders skipped), sorted by path. */
export function walkCorpus(args: string[]): { files: CorpusFile[]; missing: string[] } {
  const files: CorpusFile[] = [];
  const missing: string[] = [];
  const seenDirs = new Set<string>();
  const walk = (root: string, dir: string) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (e) {
      missing.push(`${dir}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    // Symlinked folders may loop.
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    const names = readdirSync(dir).sort();
    for (const name of names) {
      const p = join(dir, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue; // a dangling link
      }
      if (st.isDirectory()) {
        if (!name.startsWith('.') && name !== 'node_modules') walk(root, p);
      } else if (st.isFile() && CORPUS_EXT.test(name)) files.push({ path: p, key: corpusKey(relative(root, p)) });
    }
  };
  for (const a of args) {
    try {
      if (statSync(a).isDirectory()) walk(a, a);
      else files.push({ path: a, key: corpusKey(a) });
    } catch (e) {
      missing.push(`${a}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { files, missing };
}

// --------------------------------------------------------------------------------------------
// Measuring one file (in a worker thread or in this one)

export type WorkerRequest = {
  index: number;
  path: string;
  estimate: boolean;
  /** Parquet only: the column to read, and the shard whose row groups to take (keyed by `key`). */
  column?: string | null;
  shard?: Shard | null;
  key?: string;
  /** `--instructions`: each worker reads them once (`auto`: each session's own, where it ran). */
  instructions?: string[];
};
/** A place (line, Parquet row, file) that gave no trajectory, and the error that says why. */
export interface FailedPlace {
  file: string;
  line: number | null;
  issue: ParseIssue;
}

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'row'; index: number; row: CorpusRow }
  | { type: 'failed'; index: number; failed: FailedPlace }
  | { type: 'issue'; index: number; issue: ParseIssue }
  | { type: 'notice'; index: number; issue: ParseIssue }
  | { type: 'done'; index: number; outcome: FileOutcome | null };

let exact: Promise<CorpusCounter> | null = null;

function counterFor(estimate: boolean): Promise<CorpusCounter> {
  if (estimate) return Promise.resolve({ count: (t: string) => estimateTokens(t), counter: 'estimate' });
  exact ??= createTokenCounter('o200k_base').then((c) => ({ count: (t: string) => c.count(t).tokens, counter: c.encoding }));
  return exact;
}

const SMALL_FILE = 4 << 20;

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A file on disk read by ranges, for hyparquet: the footer, then one row group's column chunks at a time. */
async function withFileRanges<T>(path: string, use: (file: AsyncBuffer) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await use({
      byteLength: size,
      slice: async (start, end = size) => {
        const out = new Uint8Array(Math.max(0, end - start));
        let at = 0;
        while (at < out.length) {
          const { bytesRead } = await handle.read(out, at, out.length - at, start + at);
          if (bytesRead === 0) break;
          at += bytesRead;
        }
        return out.buffer;
      },
    });
  } finally {
    await handle.close();
  }
}

/** A `.parquet` name, or the Parquet magic bytes at the start of the file. */
async function isParquetPath(path: string): Promise<boolean> {
  if (PARQUET_EXT.test(path)) return true;
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(4);
    await handle.read(head, 0, 4, 0);
    return isParquetFile(path, head);
  } finally {
    await handle.close();
  }
}

/** Streams one file from disk through the corpus reader; every outcome, even a failure, ends with `done`. */
export async function measureCorpusFile(req: WorkerRequest, post: (m: WorkerReply) => void): Promise<void> {
  const { index, path } = req;
  try {
    const counter = await counterFor(req.estimate);
    const prepare = instructionGiver(req.instructions);
    const sink = {
      ...(prepare ? { prepare } : {}),
      row: (row: CorpusRow) => post({ type: 'row', index, row }),
      issue: (issue: ParseIssue) => post({ type: 'issue', index, issue }),
      notice: (issue: ParseIssue) => post({ type: 'notice', index, issue }),
      failed: (at: { line: number | null }, issue: ParseIssue) => post({ type: 'failed', index, failed: { file: path, line: at.line, issue } }),
    };
    let outcome: FileOutcome;
    if (await isParquetPath(path)) {
      outcome = await withFileRanges(path, (file) => processParquetFile(path, file, counter, sink, { column: req.column ?? null, shard: req.shard ?? null, key: req.key ?? path }));
    } else {
      // Small files in one read (a stream costs more to set up than to read them); large ones streamed.
      const chunks = statSync(path).size <= SMALL_FILE ? oneChunk(readFileSync(path)) : createReadStream(path, { highWaterMark: 1 << 20 });
      outcome = await processCorpusFile(path, chunks, counter, sink);
    }
    post({ type: 'done', index, outcome });
  } catch (e) {
    const issue: ParseIssue = { file: path, line: null, field: null, message: `cannot read: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' };
    post({ type: 'issue', index, issue });
    post({ type: 'failed', index, failed: { file: path, line: null, issue } });
    post({ type: 'done', index, outcome: null });
  }
}

/** What gives each session the instruction files named (read once per thread); none without `--instructions`. */
const givers = new Map<string, ((s: Session) => void) | undefined>();
function instructionGiver(paths: readonly string[] | undefined): ((s: Session) => void) | undefined {
  if (!paths?.length) return undefined;
  const key = JSON.stringify(paths);
  if (!givers.has(key)) {
    const given = readInstructionFiles(paths, nodeIo);
    // Read and checked by runCorpus before any file: an error here is a file gone since.
    const quiet: CliIo = { ...nodeIo, err: () => {} };
    givers.set(key, 'error' in given ? undefined : (s) => void giveInstructions([s], given, quiet));
  }
  return givers.get(key);
}

/** A worker thread of `corpus` (corpus-worker.ts). */
export function spawnCorpusWorker(): Worker {
  return spawnCliWorker('corpus-worker');
}

// --------------------------------------------------------------------------------------------
// The pool and the ordered output

interface Sink {
  row(row: CorpusRow): void;
  issue(issue: ParseIssue): void;
  failed?(place: FailedPlace): void;
  notice?(issue: ParseIssue): void;
}

type Output = { row: CorpusRow } | { failed: FailedPlace };

/**
 * Measures files in parallel and hands rows and issues to the sink in input order: a file's output is
 * released once every file before it is done. Dispatch stops `maxAhead` files past the oldest unfinished
 * one, so a slow file never makes the buffer grow without bound.
 */
export async function measureCorpus(files: CorpusFile[], opts: { threads: number; estimate: boolean; maxAhead?: number; column?: string | null; shard?: Shard | null; instructions?: string[] }, sink: Sink): Promise<{ failedFiles: number }> {
  // Only files named .parquet were let through the file-level shard filter, so only they split by row group.
  const request = (i: number): WorkerRequest => ({
    index: i,
    path: files[i]!.path,
    estimate: opts.estimate,
    column: opts.column ?? null,
    shard: PARQUET_EXT.test(files[i]!.path) ? (opts.shard ?? null) : null,
    key: files[i]!.key,
    ...(opts.instructions?.length ? { instructions: opts.instructions } : {}),
  });
  const pending = new Map<number, { rows: Output[]; issues: ParseIssue[]; done: boolean; outcome: FileOutcome | null }>();
  let nextOut = 0;
  let failedFiles = 0;
  const maxAhead = opts.maxAhead ?? 256;
  const slot = (i: number) => {
    let s = pending.get(i);
    if (!s) {
      s = { rows: [], issues: [], done: false, outcome: null };
      pending.set(i, s);
    }
    return s;
  };
  const release = () => {
    // The oldest unfinished file streams straight through; later ones wait their turn.
    for (;;) {
      const s = pending.get(nextOut);
      if (!s) return;
      for (const i of s.issues) sink.issue(i);
      for (const r of s.rows) {
        if ('row' in r) sink.row(r.row);
        else sink.failed?.(r.failed);
      }
      s.issues = [];
      s.rows = [];
      if (!s.done) return;
      // A Parquet file may hold no row group of this shard; its bad rows are errors of their own.
      if (!s.outcome || (s.outcome.trajectories === 0 && s.outcome.mode !== 'parquet')) failedFiles++;
      pending.delete(nextOut);
      nextOut++;
    }
  };
  const onReply = (m: WorkerReply) => {
    if (m.type === 'ready') return;
    const s = slot(m.index);
    if (m.type === 'row') s.rows.push({ row: m.row });
    else if (m.type === 'failed') s.rows.push({ failed: m.failed });
    else if (m.type === 'issue') s.issues.push(m.issue);
    else if (m.type === 'notice') sink.notice?.(m.issue);
    else {
      s.done = true;
      s.outcome = m.outcome;
    }
    if (m.index === nextOut) release();
  };

  if (opts.threads <= 0 || files.length === 0) {
    for (let i = 0; i < files.length; i++) await measureCorpusFile(request(i), onReply);
    return { failedFiles };
  }

  const threads = Math.min(opts.threads, files.length);
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    const workers: Worker[] = [];
    let finished = 0;
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      reject(e);
    };
    const feed = (w: Worker, busy: { index: number | null }) => {
      if (next >= files.length || next >= nextOut + maxAhead) {
        busy.index = null;
        return;
      }
      busy.index = next;
      w.postMessage(request(next));
      next++;
    };
    const states: { w: Worker; busy: { index: number | null } }[] = [];
    for (let t = 0; t < threads; t++) {
      const w = spawnCorpusWorker();
      const busy = { index: null as number | null };
      workers.push(w);
      states.push({ w, busy });
      w.on('message', (m: WorkerReply | { type: 'fatal'; message: string }) => {
        if (m.type === 'fatal') return fail(new Error(`a corpus worker could not start: ${m.message}`));
        if (m.type === 'ready') return feed(w, busy);
        onReply(m);
        if (m.type !== 'done') return;
        finished++;
        if (finished === files.length) {
          for (const x of workers) void x.terminate();
          resolve();
          return;
        }
        feed(w, busy);
        // A worker held back by maxAhead may go again now that the oldest file is done.
        for (const s of states) if (s.busy.index === null) feed(s.w, s.busy);
      });
      w.on('error', (e) => fail(e));
    }
  });
  return { failedFiles };
}

// --------------------------------------------------------------------------------------------
// The command

function parseArgs(argv: string[]): { paths: string[]; opts: CorpusOptions } | { error: string } {
  const paths: string[] = [];
  const opts: CorpusOptions = { jsonl: false, shard: null, threads: Math.max(1, availableParallelism() - 1), estimate: false, stdin: false, stdinName: 'stdin', column: null, instructions: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--jsonl') opts.jsonl = true;
    else if (flag === '--estimate') opts.estimate = true;
    else if (flag === '--stdin') opts.stdin = true;
    else if (flag === '--stdin-name') {
      const v = value();
      if (!v) return { error: '--stdin-name needs a name' };
      opts.stdinName = v;
    } else if (flag === '--instructions') {
      const v = value();
      if (!v) return { error: '--instructions needs a file, a folder or auto' };
      opts.instructions.push(v);
    } else if (flag === '--column') {
      const v = value();
      if (!v) return { error: '--column needs the name of a Parquet column' };
      opts.column = v;
    }
    else if (flag === '--shard') {
      const s = parseShard(value() ?? '');
      if ('error' in s) return { error: s.error };
      opts.shard = s;
    } else if (flag === '--threads') {
      const v = value();
      const n = Number(v);
      if (!v || !Number.isInteger(n) || n < 0) return { error: `--threads expects a whole number ≥ 0, got ${JSON.stringify(v ?? '')}` };
      opts.threads = n;
    } else if (a.startsWith('--')) return { error: `unknown option ${a}` };
    else paths.push(a);
  }
  if (opts.stdin && paths.length > 0) return { error: 'corpus --stdin reads standard input only; drop the paths or --stdin' };
  if (opts.stdin && opts.shard) return { error: '--shard splits files; with --stdin the batch system splits the lines' };
  if (opts.stdin && opts.column) return { error: '--column picks a Parquet column; --stdin reads JSON lines' };
  if (!opts.stdin && paths.length === 0) return { error: 'corpus needs at least one file or folder (or --stdin)' };
  return { paths, opts };
}

const issueLine = (i: ParseIssue) => JSON.stringify({ file: i.file, line: i.line, field: i.field, message: i.message, severity: i.severity });

/** `corpus … --jsonl | head` closes the pipe early: stop quietly, as Unix tools do. */
let pipeWatched = false;
function quietOnClosedPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

export async function runCorpus(argv: string[], io: CorpusIo): Promise<number> {
  quietOnClosedPipe();
  const parsed = parseArgs(argv);
  if ('error' in parsed) {
    io.err(`${parsed.error}\n\nUsage:\n${CORPUS_USAGE}`);
    return 2;
  }
  const { paths, opts } = parsed;
  if (opts.instructions.length > 0) {
    const read = readInstructionFiles(opts.instructions, nodeIo);
    if ('error' in read) {
      io.err(`${read.error}\n\nUsage:\n${CORPUS_USAGE}`);
      return 2;
    }
  }
  if (opts.stdin) return corpusFromStdin(opts, io);
  const walked = walkCorpus(paths);
  if (walked.missing.length) {
    for (const m of walked.missing) io.err(JSON.stringify({ file: m.split(': ')[0], line: null, field: null, message: `cannot read: ${m}`, severity: 'error' }));
    return 2;
  }
  // A Parquet file is shared out by row groups (each process reads its footer and takes its own groups), so one big
  // file splits across shards too; other files go whole to one shard.
  const files = walked.files.filter((f) => PARQUET_EXT.test(f.path) || inShard(f.key, opts.shard));
  const totals = new CorpusTotals();
  let errors = 0;
  const counterName = opts.estimate ? 'estimate' : 'o200k_base';
  const { failedFiles } = await measureCorpus(files, opts, {
    row: (r) => {
      if (opts.jsonl) io.out(rowToJsonLine(r));
      else totals.add(r);
    },
    failed: (f) => {
      if (opts.jsonl) io.out(errorRowToJsonLine(f.file, f.line, f.issue, counterName));
    },
    notice: (i) => io.err(issueLine(i)),
    issue: (i) => {
      // Warnings are counted in each row; only errors go to stderr.
      if (i.severity !== 'error') return;
      errors++;
      io.err(issueLine(i));
    },
  });
  if (!opts.jsonl) io.out(terminalText(renderTotals(totals, files.length, failedFiles)));
  return errors > 0 || failedFiles > 0 ? 1 : 0;
}

/**
 * `corpus --stdin`: one JSONL stream, one whole trajectory per line, measured in this thread. A partition piped
 * through it (Spark's RDD.pipe, a Dask bag's partition) gives the rows a single run over every line gives, save
 * `line`, which counts within the partition; a trajectory that records no id is named by a hash of its line for
 * that reason. A bad line is an error row and the others go on; the exit status is 0 once the input was read to
 * its end, so one bad line never fails a batch job's task (the error rows and stderr say what went wrong).
 */
async function corpusFromStdin(opts: CorpusOptions, io: CorpusIo): Promise<number> {
  const totals = new CorpusTotals();
  let trajectories = 0;
  const counter = await counterFor(opts.estimate);
  const prepare = instructionGiver(opts.instructions);
  try {
    const outcome = await processCorpusFile(
      opts.stdinName,
      io.stdin ?? process.stdin,
      counter,
      {
        row: (r) => {
          trajectories++;
          if (opts.jsonl) io.out(rowToJsonLine(r));
          else totals.add(r);
        },
        issue: (i) => {
          if (i.severity === 'error') io.err(issueLine(i));
        },
        failed: (at, issue) => {
          if (opts.jsonl) io.out(errorRowToJsonLine(opts.stdinName, at.line, issue, counter.counter));
        },
        ...(prepare ? { prepare } : {}),
      },
      { everyLine: true, idByContent: true },
    );
    trajectories = outcome.trajectories;
  } catch (e) {
    io.err(issueLine({ file: opts.stdinName, line: null, field: null, message: `cannot read standard input: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' }));
    return 1;
  }
  if (!opts.jsonl) io.out(terminalText(renderTotals(totals, 1, trajectories === 0 ? 1 : 0)));
  return 0;
}
