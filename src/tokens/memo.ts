// Token counts memoized by content, so a request log that repeats its prefix on every call counts it once.
//
// Why not key on a full content hash alone: a 200-call log repeats each message ~100 times, and hashing
// every repeat in JS (~1.7 ns/char) costs more than encoding the unique text once with gpt-tokenizer
// (~100 ns/char, so 100 repeats ≈ +170%; bench/memo.ts measures 2.3× against the 1.3× budget). So the key
// hashes the length and a fixed sample of characters (O(1) per text), and a hit is confirmed by comparing
// the text with the one stored (native string equality, ~0.2–0.4 ns/char, nothing when both are one string).
// Texts that share a sampled key but differ (same-length tool outputs differing in one digit) fall back to a
// full content hash (cyrb53) once a bucket holds more than a few of them, so no bucket degrades to a scan.
import type { TokenCount } from './counter';

const SAMPLES = 32;
const FULL_HASH_BELOW = 2 * SAMPLES;
const BUCKET_SCAN_LIMIT = 4;

/** cyrb53: a fast 53-bit non-cryptographic hash of the whole text. */
export function contentHash(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A hash of the length and of up to 64 characters spread over the text: cheap whatever the length. */
export function sampleKey(text: string): number {
  const n = text.length;
  let h = 0x811c9dc5 ^ n;
  if (n <= FULL_HASH_BELOW) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  } else {
    // Both ends (where edits and appended lines show up) and evenly spaced points between.
    const half = SAMPLES / 2;
    for (let i = 0; i < half; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    for (let i = n - half; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    const step = ((n - SAMPLES) / (SAMPLES + 1)) | 0;
    for (let k = 1, i = half + step; k <= SAMPLES; k++, i += step) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  }
  // A small integer, so Map lookups need no boxed number; keys that collide only share a bucket, and the
  // equality check (which rejects texts of another length at once) tells them apart.
  return (h ^ Math.imul(n, 0x9e3779b1)) & 0x3fffffff;
}

interface Entry<V> {
  text: string;
  value: V;
}

/** A bucket of texts sharing a sampled key; past a few entries it is indexed by full content hash. */
type Bucket<V> = Entry<V>[] | Map<number, Entry<V>[]>;

/** A map from text content to a value, with cheap lookups of repeated texts. Holds the first copy of each text. */
export class ContentMap<V> {
  private readonly buckets = new Map<number, Bucket<V>>();
  private entries = 0;
  private chars = 0;

  get size(): number {
    return this.entries;
  }

  /** Characters of text held (one copy per distinct text). */
  get heldChars(): number {
    return this.chars;
  }

  get(text: string): V | undefined {
    const bucket = this.buckets.get(sampleKey(text));
    if (bucket === undefined) return undefined;
    const list = Array.isArray(bucket) ? bucket : bucket.get(contentHash(text));
    if (list) for (const e of list) if (e.text === text) return e.value;
    return undefined;
  }

  set(text: string, value: V): void {
    const key = sampleKey(text);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      this.buckets.set(key, [{ text, value }]);
      this.added(text);
      return;
    }
    let list: Entry<V>[];
    if (Array.isArray(bucket)) {
      if (bucket.length >= BUCKET_SCAN_LIMIT && !bucket.some((e) => e.text === text)) {
        const indexed = new Map<number, Entry<V>[]>();
        for (const e of bucket) push(indexed, contentHash(e.text), e);
        this.buckets.set(key, indexed);
        bucket = indexed;
      }
    }
    if (Array.isArray(bucket)) list = bucket;
    else {
      const h = contentHash(text);
      list = bucket.get(h) ?? [];
      if (list.length === 0) bucket.set(h, list);
    }
    const found = list.find((e) => e.text === text);
    if (found) {
      found.value = value;
      return;
    }
    list.push({ text, value });
    this.added(text);
  }

  clear(): void {
    this.buckets.clear();
    this.entries = 0;
    this.chars = 0;
  }

  private added(text: string): void {
    this.entries++;
    this.chars += text.length;
  }
}

function push<V>(m: Map<number, Entry<V>[]>, h: number, e: Entry<V>): void {
  const list = m.get(h);
  if (list) list.push(e);
  else m.set(h, [e]);
}

export interface MemoStats {
  hits: number;
  misses: number;
  /** Distinct texts with a stored count. */
  entries: number;
  /** Characters held by those texts. */
  chars: number;
}

/** Counts of one encoding (and encoder) by content, with hit/miss statistics. */
export class TokenMemo {
  private readonly map = new ContentMap<TokenCount>();
  private hits = 0;
  private misses = 0;

  /** The stored count, or undefined; every call is a hit or a miss. */
  lookup(text: string): TokenCount | undefined {
    const c = this.map.get(text);
    if (c) this.hits++;
    else this.misses++;
    return c;
  }

  store(text: string, count: TokenCount): void {
    this.map.set(text, count);
  }

  /** The stored count, or `compute(text)` stored for next time. */
  count(text: string, compute: (text: string) => TokenCount): TokenCount {
    const hit = this.lookup(text);
    if (hit) return hit;
    const c = compute(text);
    this.map.set(text, c);
    return c;
  }

  get stats(): MemoStats {
    return { hits: this.hits, misses: this.misses, entries: this.map.size, chars: this.map.heldChars };
  }

  clear(): void {
    this.map.clear();
    this.hits = 0;
    this.misses = 0;
  }
}
