// Is this file a Parquet dataset? By name or by its first four bytes, without loading a Parquet reader: what the
// drop decision (and the CLI's walk) asks before anything is read.

export const PARQUET_EXT = /\.parquet$/i;

/** `PAR1`: the first (and last) four bytes of every Parquet file. */
export function isParquetHead(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31;
}

/** A `.parquet` name, or the Parquet magic at the start of the bytes given. */
export function isParquetFile(name: string, head: Uint8Array | null): boolean {
  return PARQUET_EXT.test(name) || (head !== null && isParquetHead(head));
}
