// Whether a text quotes 16 characters of another, asked for every (user message, earlier tool call) pair of every
// context. Scanning each tool call once per slice of the message made the causal-order rule the lints' main cost
// on sessions with many long prompts. Each text's 8-character windows are hashed once instead, so a pair costs two
// set lookups per slice, and only a slice whose two halves both occur is searched for.
export const SPAN = 16;
const HALF = SPAN / 2;
const BASE = 0x01000193;
// BASE^(HALF-1) mod 2^32: what the first character of a window weighs.
const TOP = Array.from({ length: HALF - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);

/** The hash of every HALF-character window of `s`, by start. */
export function windowHashes(s: string): Int32Array {
  return windowHashesInto(s, new Int32Array(Math.max(0, s.length - HALF + 1)));
}

/**
 * `windowHashes` written into `into` when it is long enough (else into a new array): a caller hashing thousands of
 * texts one after the other reuses one array instead of allocating one per text. Read the first
 * `s.length - HALF + 1` entries of what it returns.
 */
export function windowHashesInto(s: string, into: Int32Array): Int32Array {
  const n = Math.max(0, s.length - HALF + 1);
  const out = into.length >= n ? into : new Int32Array(Math.max(n, into.length * 2));
  if (n === 0) return out;
  let h = 0;
  for (let i = 0; i < HALF; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  out[0] = h;
  for (let i = 1; i < n; i++) {
    h = (Math.imul(h - Math.imul(s.charCodeAt(i - 1), TOP), BASE) + s.charCodeAt(i + HALF - 1)) | 0;
    out[i] = h;
  }
  return out;
}

/** A message's slices a quote would contain: every fourth SPAN-character slice, with its halves' hashes. */
export interface Slices {
  texts: string[];
  heads: number[];
  tails: number[];
}

export function slicesOf(s: string): Slices {
  const hashes = windowHashes(s);
  const out: Slices = { texts: [], heads: [], tails: [] };
  for (let i = 0; i + SPAN <= s.length; i += 4) {
    out.texts.push(s.slice(i, i + SPAN));
    out.heads.push(hashes[i]!);
    out.tails.push(hashes[i + HALF]!);
  }
  return out;
}

/** Answers "does `text` contain one of these slices" for many texts, hashing each text's windows once. */
export class QuoteFinder {
  private readonly windows = new Map<string, Set<number>>();

  contains(text: string, slices: Slices): boolean {
    if (text.length < SPAN || slices.texts.length === 0) return false;
    let set = this.windows.get(text);
    if (!set) this.windows.set(text, (set = new Set(windowHashes(text))));
    for (let k = 0; k < slices.texts.length; k++) {
      if (set.has(slices.heads[k]!) && set.has(slices.tails[k]!) && text.includes(slices.texts[k]!)) return true;
    }
    return false;
  }
}
