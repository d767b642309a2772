// Reading a Parquet dataset of trajectories with hyparquet: the footer, the columns and their shapes, and the rows of
// one row group at a time (only the columns asked for), so memory is bounded by a row group, never the file. A
// column's value becomes the JSON document of one trajectory (rowDocument); which column holds trajectories is
// decided in parquet-corpus.ts with the format registry.
import { gunzipSync } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import { corpusLineName } from './corpus-line-name';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type Compressors, type FileMetaData, type SchemaTree } from 'hyparquet';

export type { AsyncBuffer, FileMetaData };

/**
 * Codecs besides the two hyparquet reads itself (SNAPPY, uncompressed): GZIP (fflate) and ZSTD (fzstd, Polars'
 * default), both plain JavaScript, so no WebAssembly has to pass the page's Content-Security-Policy.
 */
export const PARQUET_COMPRESSORS: Compressors = {
  GZIP: (input) => gunzipSync(input),
  ZSTD: (input) => zstdDecompress(input),
};

/** A Blob (a dropped File) read by ranges: the footer, then one row group's column chunks at a time. */
export function blobAsyncBuffer(blob: Blob): AsyncBuffer {
  return { byteLength: blob.size, slice: (start, end) => blob.slice(start, end).arrayBuffer() };
}

/** How a top-level column is shaped, as far as holding a trajectory goes. */
export type ColumnShape =
  /** A list of structs: messages (`role`/`content`), turns (`from`/`value`), events. */
  | 'list-of-structs'
  /** A struct: a whole trajectory object. */
  | 'struct'
  /** The JSON logical type: hyparquet hands over the parsed value. */
  | 'json'
  /** A string column, which may hold JSON text. */
  | 'string'
  | 'other';

export interface ParquetColumn {
  name: string;
  shape: ColumnShape;
  /** Its type as a person reads it: `list<struct<role, text>>`, `string`, `int64`, … */
  type: string;
}

function isList(t: SchemaTree): boolean {
  const e = t.element;
  return e.converted_type === 'LIST' || e.logical_type?.type === 'LIST';
}

function leafType(t: SchemaTree): string {
  const e = t.element;
  if (e.logical_type?.type === 'JSON' || e.converted_type === 'JSON') return 'json';
  if (e.logical_type?.type === 'STRING' || e.converted_type === 'UTF8') return 'string';
  return (e.type ?? 'group').toLowerCase();
}

/** `list<struct<role, text>>`: what the column holds, for messages naming the candidates. */
function describe(t: SchemaTree): string {
  if (isList(t)) {
    const element = t.children[0]?.children.length === 1 ? t.children[0]!.children[0]! : t.children[0];
    return `list<${element ? describe(element) : '?'}>`;
  }
  if (t.element.repetition_type === 'REPEATED' && t.children.length > 0) return `list<struct<${t.children.map((c) => c.element.name).join(', ')}>>`;
  if (t.children.length > 0) return `struct<${t.children.map((c) => c.element.name).join(', ')}>`;
  return leafType(t);
}

function shapeOf(t: SchemaTree): ColumnShape {
  if (isList(t)) {
    // LIST → repeated `list` group → its `element`; older writers put the struct's fields straight in the repeated group.
    const repeated = t.children[0];
    const element = repeated && repeated.children.length === 1 && repeated.children[0]!.children.length > 0 ? repeated.children[0]! : repeated;
    return element && element.children.length > 0 ? 'list-of-structs' : 'other';
  }
  if (t.element.repetition_type === 'REPEATED' && t.children.length > 0) return 'list-of-structs';
  if (t.children.length > 0) return 'struct';
  const leaf = leafType(t);
  return leaf === 'json' ? 'json' : leaf === 'string' ? 'string' : 'other';
}

export async function readParquetMetadata(file: AsyncBuffer): Promise<FileMetaData> {
  return parquetMetadataAsync(file);
}

/** The top-level columns, in schema order. */
export function parquetColumns(metadata: FileMetaData): ParquetColumn[] {
  return parquetSchema(metadata).children.map((t) => ({ name: t.element.name, shape: shapeOf(t), type: describe(t) }));
}

export interface RowGroupRange {
  index: number;
  /** First row (0-based, in the file) and one past the last. */
  rowStart: number;
  rowEnd: number;
  /** Compressed bytes of the row group: what reading it costs. */
  bytes: number;
}

export function rowGroups(metadata: FileMetaData): RowGroupRange[] {
  const out: RowGroupRange[] = [];
  let start = 0;
  metadata.row_groups.forEach((g, index) => {
    const n = Number(g.num_rows);
    const bytes = g.columns.reduce((s, c) => s + Number(c.meta_data?.total_compressed_size ?? 0n), 0);
    out.push({ index, rowStart: start, rowEnd: start + n, bytes });
    start += n;
  });
  return out;
}

/**
 * A decoded Parquet value as plain JSON: 64-bit integers as numbers, timestamps as ISO text, bytes as UTF-8 text,
 * and struct fields that are null dropped (a struct column lists every field for every row, set or not).
 */
export function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (Array.isArray(v)) return v.map(plainValue);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const p = plainValue(x);
      if (p !== null) out[k] = p;
    }
    return out;
  }
  return v;
}

/** Rows `rowStart`…`rowEnd − 1` of the named columns, as plain objects. Stay within one row group to bound memory. */
export async function readParquetRows(file: AsyncBuffer, metadata: FileMetaData, columns: string[], rowStart: number, rowEnd: number): Promise<Record<string, unknown>[]> {
  const rows = await parquetReadObjects({ file, metadata, columns, rowStart, rowEnd, compressors: PARQUET_COMPRESSORS });
  return rows.map((r) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) out[c] = r[c] === null || r[c] === undefined ? null : plainValue(r[c]);
    return out;
  });
}

/** Chat roles some datasets spell their own way (nebius/SWE-agent-trajectories writes `ai`). */
const ROLE_ALIASES: Record<string, string> = { ai: 'assistant', human: 'user' };

function normalizeMessage(m: unknown): unknown {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return m;
  const o = { ...(m as Record<string, unknown>) };
  const role = o['role'];
  if (typeof role === 'string' && Object.hasOwn(ROLE_ALIASES, role)) o['role'] = ROLE_ALIASES[role];
  // `text` for the message's content (nebius/SWE-agent-trajectories).
  if (o['content'] === undefined && typeof o['text'] === 'string') {
    o['content'] = o['text'];
    delete o['text'];
  }
  return o;
}

const has = (xs: unknown[], key: string) => xs.some((x) => typeof x === 'object' && x !== null && key in x);

/** What one trajectory's document should carry from the row's other columns, where the document has room for it. */
export interface RowFacts {
  id: string | null;
  model: string | null;
}

/**
 * The JSON document of one trajectory from a column's value: a JSON string is parsed; a list of role messages
 * becomes `{messages}` (roles and `text` read the chat way, the row's id and model in `metadata.session_id` and
 * `model`), a list of `from`/`value` turns `{conversations}`; any other list or object is the document as it is
 * (an event list, a `.traj`, an ATIF trajectory), for the format registry to recognize.
 */
export function rowDocument(value: unknown, facts: RowFacts = { id: null, model: null }): { ok: true; value: unknown } | { ok: false; message: string } {
  let v = value;
  if (v === null || v === undefined) return { ok: false, message: 'the column is empty in this row' };
  if (typeof v === 'string') {
    const t = v.trim();
    if (!t) return { ok: false, message: 'the column is empty in this row' };
    try {
      v = JSON.parse(t);
    } catch (e) {
      return { ok: false, message: `the column's text is not JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  if (!Array.isArray(v)) return typeof v === 'object' && v !== null ? { ok: true, value: v } : { ok: false, message: `expected a trajectory (a list or an object), got ${typeof v}` };
  if (v.length === 0) return { ok: false, message: 'the trajectory has no messages' };
  if (has(v, 'from') && has(v, 'value') && !has(v, 'role')) return { ok: true, value: { conversations: v } };
  if (has(v, 'role')) {
    const doc: Record<string, unknown> = { messages: v.map(normalizeMessage) };
    if (facts.model) doc['model'] = facts.model;
    if (facts.id) doc['metadata'] = { session_id: facts.id };
    return { ok: true, value: doc };
  }
  return { ok: true, value: v };
}

/** A row's own id, else its task and run together (several runs of one task share the task id). */
const OWN_ID = ['trajectory_id', 'traj_id', 'session_id', 'id'];
const TASK_ID = ['instance_id', 'task_id'];
const RUN_ID = ['run_id', 'model_name', 'model'];
const MODEL = ['model_name', 'model'];
const SUCCESS = ['resolved', 'success', 'is_success', 'solved', 'target'];
const REWARD = ['reward', 'score'];

function firstOf(row: Record<string, unknown>, names: string[], columns: Set<string>): unknown {
  for (const n of names) if (columns.has(n) && row[n] !== null && row[n] !== undefined && row[n] !== '') return row[n];
  return undefined;
}

const text = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

export interface RowOutcome extends RowFacts {
  success: boolean | null;
  reward: number | null;
}

export function factsOf(row: Record<string, unknown>, scalars: Set<string>): RowOutcome {
  const own = text(firstOf(row, OWN_ID, scalars));
  const task = text(firstOf(row, TASK_ID, scalars));
  const run = text(firstOf(row, RUN_ID, scalars));
  const id = own ?? (task && run ? `${task}/${run}` : task ?? null);
  const s = firstOf(row, SUCCESS, scalars);
  const r = firstOf(row, REWARD, scalars);
  return {
    id,
    model: text(firstOf(row, MODEL, scalars)),
    success: typeof s === 'boolean' ? s : s === 0 || s === 1 ? s === 1 : null,
    reward: typeof r === 'number' && Number.isFinite(r) ? r : null,
  };
}

/** Columns whose values name the row (ids, model, outcome), read beside the trajectory column. */
export function factColumns(metadata: FileMetaData, trajectory: string): string[] {
  const names = new Set([...OWN_ID, ...TASK_ID, ...RUN_ID, ...MODEL, ...SUCCESS, ...REWARD]);
  return parquetColumns(metadata)
    .filter((c) => c.name !== trajectory && names.has(c.name) && (c.shape === 'string' || c.shape === 'other'))
    .map((c) => c.name);
}

/**
 * One row's trajectory as the text a JSONL corpus line would hold, named `file#L<row>`: what the app opens when a
 * Parquet row of the corpus table is clicked. Reads only the row group that holds the row.
 */
export async function readParquetTrajectory(file: string, source: AsyncBuffer, line: number, column: string): Promise<{ name: string; text: string }> {
  const metadata = await readParquetMetadata(source);
  const facts = factColumns(metadata, column);
  const [row] = await readParquetRows(source, metadata, [column, ...facts], line - 1, line);
  if (!row) throw new Error(`${file} has no row ${line}`);
  const doc = rowDocument(row[column], factsOf(row, new Set(facts)));
  if (!doc.ok) throw new Error(`${file} row ${line}: ${doc.message}`);
  return { name: corpusLineName(file, line), text: JSON.stringify(doc.value) };
}
