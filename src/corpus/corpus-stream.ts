// One corpus file, streamed: a JSONL of trajectories is measured line by line and never held whole; any other
// file (a Claude Code session, a single trajectory, a request log) is loaded as the app loads it and gives
// one row per session. The decision is made from the first two lines, by content, not by file name; standard
// input is always one trajectory per line.
import { loadFiles } from '../load/loader';
import type { ParseIssue, Session } from '../model/types';
import { isTrajectoryJsonl, loadCorpusLine, type CorpusLineOptions } from './corpus-jsonl';
import type { CorpusRow } from './corpus-row';
import { ByteLineSplitter, isBlankLine, type ByteLine } from './line-splitter';
import { trajectoryMetrics } from './trajectory-metrics';

/**
 * Where a row's trajectory is in its file: a JSONL line's byte range, the whole file (line null), or a Parquet row
 * (`line` its 1-based row number, `parquetColumn` the column it was read from).
 */
export interface RowLocation {
  line: number | null;
  start: number;
  end: number;
  parquetColumn?: string;
}

export interface CorpusSink {
  row(row: CorpusRow, at: RowLocation): void;
  issue(issue: ParseIssue): void;
  /** A place that should hold a trajectory (a line, a Parquet row, a file) gave none: the error that says why. */
  failed?(at: RowLocation, error: ParseIssue): void;
  /** Bytes of this file read so far. */
  progress?(bytes: number): void;
  /** A choice made for the user that they should hear about (which Parquet column was read), once per file. */
  notice?(issue: ParseIssue): void;
  /** Gives a session what the measure reads besides its file (the CLI's `--instructions`), before it is measured. */
  prepare?(session: Session): void;
}

export interface CorpusCounter {
  count(text: string): number;
  /** Name written in each row's `token_counter`. */
  counter: string;
}

export interface CorpusFileOptions extends CorpusLineOptions {
  /** Every non-blank line is one trajectory, whatever the first lines look like (standard input). */
  everyLine?: boolean;
}

export interface FileOutcome {
  mode: 'jsonl-corpus' | 'file' | 'parquet';
  trajectories: number;
  bytes: number;
}

const utf8 = new TextDecoder('utf-8');

function lineText(l: ByteLine): string {
  let s = utf8.decode(l.bytes);
  if (l.line === 1 && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}

function firstLineIsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The error a place that gave no trajectory reports: its first error, else a plain one. */
export function failureOf(issues: ParseIssue[], file: string, line: number | null): ParseIssue {
  return issues.find((i) => i.severity === 'error') ?? { file, line, field: null, message: line === null ? 'no trajectory in this file' : 'no trajectory on this line', severity: 'error' };
}

/** Rows of sessions, each measured on its own: one failure costs one row, never the file. */
export function measure(sessions: Session[], file: string, at: RowLocation, counter: CorpusCounter, sink: CorpusSink): number {
  let n = 0;
  for (const s of sessions) {
    try {
      sink.prepare?.(s);
      sink.row(trajectoryMetrics(s, { count: counter.count, counter: counter.counter, file, line: at.line }), at);
      n++;
    } catch (e) {
      const issue: ParseIssue = { file, line: at.line, field: null, message: `metrics failed: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' };
      sink.issue(issue);
      if (sessions.length === 1) sink.failed?.(at, issue);
    }
  }
  return n;
}

/** Not UTF-8 text we can split on bytes (UTF-16 byte order marks, NUL bytes): the loader decodes it whole. */
function needsWholeDecode(head: Uint8Array): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  return head.subarray(0, 4096).includes(0);
}

export async function processCorpusFile(file: string, chunks: AsyncIterable<Uint8Array>, counter: CorpusCounter, sink: CorpusSink, opts: CorpusFileOptions = {}): Promise<FileOutcome> {
  // Set from callbacks too, so kept behind a function: TypeScript would narrow a plain variable wrongly.
  let modeValue: 'deciding' | 'jsonl-corpus' | 'file' = opts.everyLine ? 'jsonl-corpus' : 'deciding';
  const mode = () => modeValue;
  let raw: Uint8Array[] = [];
  let bytes = 0;
  let trajectories = 0;
  const head: ByteLine[] = [];

  const measureLine = (l: ByteLine) => {
    const r = loadCorpusLine(file, l.line, lineText(l), opts);
    for (const i of r.issues) sink.issue(i);
    const at = { line: l.line, start: l.start, end: l.end };
    if (r.sessions.length === 0) sink.failed?.(at, failureOf(r.issues, file, l.line));
    trajectories += measure(r.sessions, file, at, counter, sink);
  };
  const decide = () => {
    const first = head[0] ? lineText(head[0]) : '';
    const second = head[1] ? lineText(head[1]) : null;
    modeValue = head.length >= 2 && isTrajectoryJsonl(first, second) ? 'jsonl-corpus' : 'file';
    if (modeValue === 'jsonl-corpus') {
      raw = [];
      for (const l of head) measureLine(l);
    }
    head.length = 0;
  };
  const splitter = new ByteLineSplitter((l) => {
    if (isBlankLine(l.bytes)) return;
    if (mode() === 'jsonl-corpus') return measureLine(l);
    if (mode() !== 'deciding') return;
    head.push(l);
    // A pretty-printed JSON file's first line is not JSON on its own: no need to wait for a second line.
    if (head.length === 1 && !firstLineIsJson(lineText(l))) decide();
    else if (head.length === 2) decide();
  });

  for await (const chunk of chunks) {
    if (bytes === 0 && !opts.everyLine && needsWholeDecode(chunk)) modeValue = 'file';
    bytes += chunk.length;
    if (mode() !== 'jsonl-corpus') raw.push(chunk.slice());
    if (mode() !== 'file') splitter.push(chunk);
    sink.progress?.(bytes);
  }
  if (mode() !== 'file') splitter.finish();
  if (mode() === 'deciding') decide();
  if (mode() === 'file') {
    const whole = new Uint8Array(bytes);
    let at = 0;
    for (const c of raw) {
      whole.set(c, at);
      at += c.length;
    }
    raw = [];
    const r = loadFiles([{ name: file, bytes: whole }]);
    for (const i of r.issues) sink.issue(i);
    const whereFile = { line: null, start: 0, end: bytes };
    if (r.sessions.length === 0) sink.failed?.(whereFile, failureOf(r.issues, file, null));
    trajectories = measure(r.sessions, file, whereFile, counter, sink);
  }
  return { mode: mode() === 'jsonl-corpus' ? 'jsonl-corpus' : 'file', trajectories, bytes };
}

/** A whole text as one chunk: for tests and texts already in memory. */
export async function* textChunks(text: string | Uint8Array, chunkSize = 1 << 16): AsyncGenerator<Uint8Array> {
  const b = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  for (let i = 0; i < b.length; i += chunkSize) yield b.subarray(i, i + chunkSize);
}
