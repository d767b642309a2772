// A Parquet dataset as a corpus: one trajectory per row, read one row group at a time (memory bounded by a row group,
// never the file), each row's document sniffed with the format registry like a JSONL corpus line. The column that
// holds trajectories is the one whose values the registry recognizes as whole trajectories: a list of message
// structs (Hugging Face datasets of SWE-agent and OpenHands runs), JSON text, or a JSON column; `--column NAME`
// picks one. The row's id, model and outcome columns fill what the trajectory itself does not say.
import { idFromFile } from '../formats';
import type { ParseIssue, Session } from '../model/types';
import { corpusLineName, loadCorpusLine, sniffCorpusLine } from './corpus-jsonl';
import { failureOf, measure, type CorpusCounter, type CorpusSink, type FileOutcome } from './corpus-stream';
import { factColumns, factsOf, parquetColumns, readParquetMetadata, readParquetRows, rowDocument, rowGroups, type AsyncBuffer, type FileMetaData, type ParquetColumn, type RowOutcome } from './parquet-rows';
import { inShard, type Shard } from './shard';

export interface ParquetCorpusOptions {
  /** The column to read trajectories from; chosen from the candidates when absent. */
  column?: string | null;
  /** Only the row groups of this shard: a row group is keyed `<key>#<row group index>`. */
  shard?: Shard | null;
  /** The file's shard key (its path relative to the folder it was found in). */
  key?: string;
}

/** Column names that usually hold the trajectory, most likely first; other candidates follow in schema order. */
const PREFERRED = ['messages', 'conversations', 'trajectory', 'traj', 'history', 'events', 'conversation', 'chat', 'dialog'];
/** Rows sampled from the first row group to decide which columns hold trajectories. */
const SAMPLE_ROWS = 8;

const TRAJECTORY_SHAPES = new Set(['list-of-structs', 'struct', 'json', 'string']);

export interface ColumnChoice {
  column: ParquetColumn;
  /** Other columns that hold trajectories too. */
  others: ParquetColumn[];
}

function list(columns: ParquetColumn[]): string {
  return columns.map((c) => `${c.name} (${c.type})`).join(', ');
}

/** True when the value makes a document the registry reads as a whole trajectory. */
function holdsTrajectory(value: unknown): boolean {
  const doc = rowDocument(value);
  return doc.ok && sniffCorpusLine(JSON.stringify(doc.value)).kind === 'trajectory';
}

/**
 * Which column holds the trajectories: `wanted` when given (it must exist), else the candidate whose sampled values
 * the registry recognizes, preferring the usual names. The error lists the columns when none fits.
 */
export async function chooseTrajectoryColumn(file: AsyncBuffer, metadata: FileMetaData, wanted?: string | null): Promise<{ ok: true; choice: ColumnChoice } | { ok: false; message: string }> {
  const columns = parquetColumns(metadata);
  const shaped = columns.filter((c) => TRAJECTORY_SHAPES.has(c.shape));
  const first = rowGroups(metadata).find((g) => g.rowEnd > g.rowStart);
  const sample = first && shaped.length > 0 ? await readParquetRows(file, metadata, shaped.map((c) => c.name), first.rowStart, Math.min(first.rowEnd, first.rowStart + SAMPLE_ROWS)) : [];
  const candidates = shaped.filter((c) => sample.some((row) => holdsTrajectory(row[c.name])));
  const rank = (c: ParquetColumn) => {
    const i = PREFERRED.indexOf(c.name.toLowerCase());
    return i < 0 ? PREFERRED.length + columns.indexOf(c) : i;
  };
  candidates.sort((a, b) => rank(a) - rank(b));
  if (wanted) {
    const column = columns.find((c) => c.name === wanted);
    if (!column) return { ok: false, message: `no column named ${JSON.stringify(wanted)}; the columns are ${list(columns)}` };
    return { ok: true, choice: { column, others: candidates.filter((c) => c !== column) } };
  }
  if (candidates.length === 0) {
    const rows = sample.length === 0 ? ' (the file has no rows)' : '';
    return {
      ok: false,
      message: `no column holds trajectories${rows}: looked for a list of messages, JSON text of one, or a JSON column that a known format reads; the columns are ${list(columns)}. Name the one to read with --column NAME`,
    };
  }
  return { ok: true, choice: { column: candidates[0]!, others: candidates.slice(1) } };
}

/** The row's columns fill what the trajectory does not say itself: its id, model and outcome. */
function applyFacts(sessions: Session[], name: string, facts: RowOutcome): void {
  const derived = idFromFile(name);
  for (const s of sessions) {
    if (facts.id && s.id.startsWith(derived)) s.id = facts.id + s.id.slice(derived.length);
    if (facts.model && !s.model) s.model = facts.model;
    if (facts.success !== null && typeof s.meta['success'] !== 'boolean') s.meta['success'] = facts.success;
    if (facts.reward !== null && typeof s.meta['reward'] !== 'number') s.meta['reward'] = facts.reward;
  }
}

/**
 * Measures every row of a Parquet file (of its shard's row groups), one row group at a time. Rows locate their
 * trajectory by `line`: the 1-based row number in the file. A row that gives no trajectory is an error row, and the
 * others go on.
 */
export async function processParquetFile(file: string, source: AsyncBuffer, counter: CorpusCounter, sink: CorpusSink, opts: ParquetCorpusOptions = {}): Promise<FileOutcome> {
  const outcome: FileOutcome = { mode: 'parquet', trajectories: 0, bytes: source.byteLength };
  const wholeFile = { line: null, start: 0, end: source.byteLength };
  const fail = (message: string, field: string | null = null) => {
    const issue: ParseIssue = { file, line: null, field, message, severity: 'error' };
    sink.issue(issue);
    sink.failed?.(wholeFile, issue);
    return outcome;
  };
  let metadata: FileMetaData;
  try {
    metadata = await readParquetMetadata(source);
  } catch (e) {
    return fail(`not a readable Parquet file: ${e instanceof Error ? e.message : String(e)}`);
  }
  let chosen: Awaited<ReturnType<typeof chooseTrajectoryColumn>>;
  try {
    chosen = await chooseTrajectoryColumn(source, metadata, opts.column);
  } catch (e) {
    return fail(`cannot read the first row group: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!chosen.ok) return fail(chosen.message);
  const { column, others } = chosen.choice;
  if (others.length > 0) {
    sink.notice?.({ file, line: null, field: column.name, message: `read trajectories from column ${column.name} (${column.type}); ${list(others)} could hold them too: pick one with --column NAME`, severity: 'warning' });
  }
  const facts = factColumns(metadata, column.name);
  const scalars = new Set(facts);
  let done = 0;
  for (const group of rowGroups(metadata)) {
    if (opts.shard && !inShard(`${opts.key ?? file}#${group.index}`, opts.shard)) continue;
    let rows: Record<string, unknown>[];
    try {
      rows = await readParquetRows(source, metadata, [column.name, ...facts], group.rowStart, group.rowEnd);
    } catch (e) {
      // One row group that cannot be decoded costs its rows, each an error row; the next group goes on.
      const message = `cannot read row group ${group.index + 1}: ${e instanceof Error ? e.message : String(e)}`;
      for (let r = group.rowStart; r < group.rowEnd; r++) {
        const issue: ParseIssue = { file, line: r + 1, field: column.name, message, severity: 'error' };
        sink.issue(issue);
        sink.failed?.({ line: r + 1, start: 0, end: 0, parquetColumn: column.name }, issue);
      }
      continue;
    }
    rows.forEach((row, i) => {
      const line = group.rowStart + i + 1;
      const at = { line, start: 0, end: 0, parquetColumn: column.name };
      const rowFacts = factsOf(row, scalars);
      const doc = rowDocument(row[column.name], rowFacts);
      if (!doc.ok) {
        const issue: ParseIssue = { file, line, field: column.name, message: doc.message, severity: 'error' };
        sink.issue(issue);
        sink.failed?.(at, issue);
        return;
      }
      const r = loadCorpusLine(file, line, JSON.stringify(doc.value));
      applyFacts(r.sessions, corpusLineName(file, line), rowFacts);
      for (const issue of r.issues) sink.issue(issue.field === null && issue.line === line ? { ...issue, field: column.name } : issue);
      if (r.sessions.length === 0) sink.failed?.(at, failureOf(r.issues, file, line));
      outcome.trajectories += measure(r.sessions, file, at, counter, sink);
    });
    done += group.bytes;
    sink.progress?.(done);
  }
  sink.progress?.(source.byteLength);
  return outcome;
}
