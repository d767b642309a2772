// Which items hold a key, for keys chosen up front. The audit of a long session asks "which later items
// could mention this lost identifier?" for hundreds of thousands of identifiers over tens of megabytes of
// text; indexing every word of every item cost seconds. Here the keys the lost identifiers need are known
// before the pass, so the pass hashes each word as it goes and only looks up the few that may be wanted.
//
// Keys, as `keysOf` in later-index.ts reads a lowercased text: a word is a maximal run of [a-z0-9]; a pair
// or triple is two or three words each joined to the next by exactly one character (`db/pool_conn`).
// Digit keys (`#42`) are maximal runs of [0-9], leading zeros dropped (`07` and `7` are both `#7`), for
// identifiers matched by number (dates, quantities, phone numbers). Quantity keys (`q:30 s`) are the
// `quantityKey` of each amount the quantity pass matches in the text (claimed by an earlier pass or not). Each text is also read with thousands
// separators removed (as number look-ups read it), and, when it holds a character whose lower case is an
// ASCII letter (`İ`, the Kelvin sign), with that character as a separator, since matching rules check their
// boundaries either in the lowercased text or in the original: postings can only grow, never miss an item.

import { quantityMatches } from './identifiers';
import { keysOf } from './later-index';
import { quantityKey } from './normalize';

const THOUSANDS = /(?<=\d),(?=\d{3}(?!\d))/g;
/** The only characters whose lower case holds an ASCII letter or digit (U+0130 → `i̇`, U+212A → `k`). */
const LOWERS_TO_ASCII = /[\u0130\u212A]/g;

const P = 0x01000193;
const DIGIT_SEED = 0x2545f491;

/** Quantity key of an amount with a unit or currency: `q:` and its `quantityKey`. */
export const quantityIndexKey = (value: string): string => `q:${quantityKey(value)}`;

/** Digit key of a run of digits: `#` and the digits without leading zeros. */
export function digitKey(digits: string): string {
  return `#${digits.replace(/^0+(?=\d)/, '')}`;
}

const isDigitKey = (key: string): boolean => /^#\d+$/.test(key);
const isQuantityKey = (key: string): boolean => key.startsWith('q:');

function hashOf(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, P) + s.charCodeAt(i)) | 0;
  return h;
}

/** Spreads a hash's bits before it picks a filter bit (murmur3's finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Every key of a text, read the straightforward way (`keysOf` and the digit runs of each reading): what `KeyIndex` finds. */
export function textKeys(text: string): Set<string> {
  const lower = text.toLowerCase();
  const readings = [lower];
  LOWERS_TO_ASCII.lastIndex = 0;
  if (LOWERS_TO_ASCII.test(text)) readings.push(text.replace(LOWERS_TO_ASCII, ' ').toLowerCase());
  const keys = new Set<string>();
  for (const reading of readings) {
    for (const r of [reading, reading.replace(THOUSANDS, '')]) {
      for (const k of keysOf(r)) keys.add(k);
      for (const m of r.matchAll(/\d+/g)) keys.add(digitKey(m[0]));
    }
  }
  for (const q of quantityMatches(text, false)) keys.add(quantityIndexKey(q));
  return keys;
}

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

export class KeyIndex {
  private readonly postingsOf = new Map<string, number[]>();
  // One bit per hash value (mod the filter size): a clear bit means the text's key is not wanted.
  private readonly filter: Uint32Array;
  private readonly mask: number;
  private readonly maxWordLength: number;
  private readonly maxDigits: number;
  /** pow[n] = P^n, up to the longest wanted key and one. */
  private readonly pow: Int32Array;
  private readonly quantities: boolean;

  constructor(keys: Iterable<string>) {
    let words = 0;
    let maxWordLength = 0;
    let maxDigits = 0;
    let quantities = false;
    for (const key of keys) {
      if (this.postingsOf.has(key)) continue;
      this.postingsOf.set(key, []);
      if (isQuantityKey(key)) quantities = true;
      else if (isDigitKey(key)) maxDigits = Math.max(maxDigits, key.length - 1);
      else maxWordLength = Math.max(maxWordLength, key.length);
      words++;
    }
    this.quantities = quantities;
    this.maxWordLength = maxWordLength;
    this.maxDigits = maxDigits;
    // About 32 bits per key: one text key in 32 that is not wanted gets past the filter to a lookup.
    let size = 1 << 11;
    while (size < words && size < 1 << 22) size <<= 1;
    this.filter = new Uint32Array(size);
    this.mask = size - 1;
    for (const key of this.postingsOf.keys()) if (!isQuantityKey(key)) this.mark(isDigitKey(key) ? hashOf(key.slice(1), DIGIT_SEED) : hashOf(key, 0));
    this.pow = new Int32Array(maxWordLength + 2);
    this.pow[0] = 1;
    for (let i = 1; i < this.pow.length; i++) this.pow[i] = Math.imul(this.pow[i - 1]!, P);
  }

  private mark(h: number): void {
    const m = mix(h);
    this.filter[(m >>> 5) & this.mask]! |= 1 << (m & 31);
  }

  private maybe(h: number): boolean {
    const m = mix(h);
    return (this.filter[(m >>> 5) & this.mask]! & (1 << (m & 31))) !== 0;
  }

  /** Items must be added in ascending order of `item`. */
  add(item: number, text: string): void {
    this.scanReadings(text.toLowerCase(), item);
    LOWERS_TO_ASCII.lastIndex = 0;
    if (LOWERS_TO_ASCII.test(text)) this.scanReadings(text.replace(LOWERS_TO_ASCII, ' ').toLowerCase(), item);
    if (this.quantities) for (const q of quantityMatches(text, false)) this.hit(quantityIndexKey(q), item);
  }

  /** The text, and the text without thousands separators. */
  private scanReadings(lower: string, item: number): void {
    this.scan(lower, item);
    if (lower.includes(',')) {
      const plain = lower.replace(THOUSANDS, '');
      if (plain !== lower) this.scan(plain, item);
    }
  }

  /** Ascending items holding `key`; the key must be one the index was built for. */
  postings(key: string): readonly number[] {
    const list = this.postingsOf.get(key);
    if (!list) throw new Error(`key not indexed: ${key}`);
    return list;
  }

  private hit(key: string, item: number): void {
    const list = this.postingsOf.get(key);
    if (list && list[list.length - 1] !== item) list.push(item);
  }

  private scan(s: string, item: number): void {
    const n = s.length;
    const maxLen = this.maxWordLength;
    const pow = this.pow;
    // The previous word, and the pair that ends with it when it was joined to the one before.
    let prevStart = -1;
    let prevEnd = -1;
    let prevHash = 0;
    let pairStart = -1;
    let pairHash = 0;
    let i = 0;
    while (i < n) {
      let c = s.charCodeAt(i);
      if (!isWordChar(c)) {
        i++;
        continue;
      }
      const start = i;
      let h = 0;
      // The digit run inside the word, hashed without its leading zeros.
      let digitStart = -1;
      let digitHash = 0;
      let digits = 0;
      for (;;) {
        h = (Math.imul(h, P) + c) | 0;
        if (c <= 57) {
          if (digitStart < 0) {
            digitStart = i;
            digitHash = DIGIT_SEED;
            digits = 0;
          }
          if (digits > 0 || c !== 48) {
            digitHash = (Math.imul(digitHash, P) + c) | 0;
            digits++;
          }
        } else if (digitStart >= 0) {
          this.digitRun(s, digitStart, i, digitHash, digits, item);
          digitStart = -1;
        }
        i++;
        if (i >= n) break;
        c = s.charCodeAt(i);
        if (!isWordChar(c)) break;
      }
      if (digitStart >= 0) this.digitRun(s, digitStart, i, digitHash, digits, item);
      const len = i - start;
      if (len <= maxLen && this.maybe(h)) this.hit(s.slice(start, i), item);
      if (prevEnd >= 0 && start === prevEnd + 1) {
        const sep = s.charCodeAt(prevEnd);
        let pair = 0;
        if (i - prevStart <= maxLen) {
          pair = (Math.imul(prevHash, pow[len + 1]!) + Math.imul(sep, pow[len]!) + h) | 0;
          if (this.maybe(pair)) this.hit(s.slice(prevStart, i), item);
          if (pairStart >= 0 && i - pairStart <= maxLen) {
            const triple = (Math.imul(pairHash, pow[len + 1]!) + Math.imul(sep, pow[len]!) + h) | 0;
            if (this.maybe(triple)) this.hit(s.slice(pairStart, i), item);
          }
        }
        // A pair too long to be wanted makes every triple holding it too long as well.
        pairStart = prevStart;
        pairHash = pair;
      } else pairStart = -1;
      prevStart = start;
      prevEnd = i;
      prevHash = h;
    }
  }

  private digitRun(s: string, start: number, end: number, hash: number, digits: number, item: number): void {
    if (digits === 0) {
      // All zeros: the key is `#0`.
      hash = (Math.imul(DIGIT_SEED, P) + 48) | 0;
      digits = 1;
    }
    if (digits <= this.maxDigits && this.maybe(hash)) this.hit(digitKey(s.slice(start, end)), item);
  }
}
