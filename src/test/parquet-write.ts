// Writes small Parquet files in tests, with hyparquet-writer: a schema given as nested fields (lists, structs,
// strings, JSON, numbers), the rows as plain objects, and a row-group size so a file holds several row groups.
import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';

export type Field =
  | { name: string; type: 'string' | 'json' | 'bool' | 'int64' | 'double' }
  | { name: string; struct: Field[] }
  | { name: string; list: Field };

function leaf(name: string, type: 'string' | 'json' | 'bool' | 'int64' | 'double'): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' as const };
  if (type === 'string') return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
  if (type === 'json') return { ...optional, type: 'BYTE_ARRAY', converted_type: 'JSON' };
  if (type === 'bool') return { ...optional, type: 'BOOLEAN' };
  if (type === 'int64') return { ...optional, type: 'INT64' };
  return { ...optional, type: 'DOUBLE' };
}

/** The flat, depth-first schema elements of one field (the 3-level LIST layout pyarrow writes). */
function elements(f: Field): SchemaElement[] {
  if ('type' in f) return [leaf(f.name, f.type)];
  if ('struct' in f) return [{ name: f.name, repetition_type: 'OPTIONAL', num_children: f.struct.length }, ...f.struct.flatMap(elements)];
  const element = elements({ ...f.list, name: 'element' });
  return [{ name: f.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...element];
}

/** A Parquet file of these rows; a field missing from a row is written null. */
export function writeParquet(fields: Field[], rows: Record<string, unknown>[], rowGroupSize = 2): Uint8Array {
  const schema: SchemaElement[] = [{ name: 'root', num_children: fields.length }, ...fields.flatMap(elements)];
  const buffer = parquetWriteBuffer({
    schema,
    columnData: fields.map((f) => ({ name: f.name, data: rows.map((r) => (r[f.name] === undefined ? null : r[f.name])) as never })),
    rowGroupSize,
  });
  return new Uint8Array(buffer);
}
