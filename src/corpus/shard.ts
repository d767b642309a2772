// `--shard i/n`: which files one machine of n takes. A file goes to shard (FNV-1a 32-bit of its key mod n) + 1,
// so shards partition the corpus exactly, the same file always lands in the same shard, and adding files
// never moves the others. The key is the file's path relative to the folder it was found in (see corpusKey),
// so the same corpus mounted at different places on different machines shards the same way.

export interface Shard {
  /** 1-based shard number. */
  index: number;
  count: number;
}

/** Parses `i/n` with 1 ≤ i ≤ n; an error message otherwise. */
export function parseShard(text: string): Shard | { error: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return { error: `--shard expects i/n (for example 1/4), got ${JSON.stringify(text)}` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return { error: `--shard ${index}/${count}: i must be between 1 and n` };
  return { index, count };
}

/** FNV-1a over the UTF-8 bytes: tiny, stable across platforms and versions, good enough spread for paths. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The shard (1-based) a key belongs to among `count` shards. */
export function shardOf(key: string, count: number): number {
  return (fnv1a(key) % count) + 1;
}

/**
 * The shard key of a file: its path relative to the folder argument it was found under, with `/`
 * separators; a file named directly on the command line is keyed by the path as given.
 */
export function corpusKey(relativePath: string): string {
  return relativePath.replace(/\\/g, '/').replace(/^\.\//, '');
}

export function inShard(key: string, shard: Shard | null): boolean {
  return shard === null || shardOf(key, shard.count) === shard.index;
}
