// Which items hold a key, for keys chosen up front. The audit of a long session asks "which later items
// could mention this lost identifier?" for hundreds of thousands of identifiers over tens of megabytes of
// text; indexing every word of every item cost seconds. Here the keys the lost identifiers need are known
// before the pass, so the pass hashes each word (and pair, and triple) as it goes and looks the hash up among
// the wanted keys, comparing characters in place: no substring is cut for the many keys nothing needs.
//
// Keys, as `keysOf` in later-index.ts reads a lowercased text: a word is a maximal run of [a-z0-9]; a pair
// or triple is two or three words each joined to the next by exactly one character (`db/pool_conn`).
// Digit keys (`#42`) are maximal runs of [0-9], leading zeros dropped (`07` and `7` are both `#7`), for
// identifiers matched by number (dates, settings, phone numbers). Quantity keys (`q:30 s`) are the
// `quantityKey` of each amount the quantity pass matches in the text (claimed by an earlier pass or not).
// Each text is also read with thousands separators removed (as number look-ups read it), and, when it holds
// a character whose lower case is an ASCII letter (`İ`, the Kelvin sign), with that character as a
// separator, since matching rules check their boundaries either in the lowercased text or in the original:
// postings can only grow, never miss an item.

import { quantityMatches } from './identifiers';
import { keysOf } from './later-index';
import { quantityKey, withoutThousands } from './normalize';

/** The only characters whose lower case holds an ASCII letter or digit (U+0130 → `i̇`, U+212A → `k`). */
const LOWERS_TO_ASCII = /[\u0130\u212A]/g;
/** Whether a text holds either: two `includes` scans, several times faster than the class regex over every item. */
const lowersToAscii = (text: string): boolean => text.includes('\u0130') || text.includes('\u212A');

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

/** Spreads a hash's bits before it picks a slot (murmur3's finalizer). */
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
  if (lowersToAscii(text)) readings.push(text.replace(LOWERS_TO_ASCII, ' ').toLowerCase());
  const keys = new Set<string>();
  for (const reading of readings) {
    for (const r of [reading, withoutThousands(reading)]) {
      for (const k of keysOf(r)) keys.add(k);
      for (const m of r.matchAll(/\d+/g)) keys.add(digitKey(m[0]));
    }
  }
  for (const q of quantityMatches(text, false)) keys.add(quantityIndexKey(q));
  return keys;
}

export interface Posting {
  key: string;
  /** Items holding the key, ascending. */
  items: number[];
  /** Where the key first stands in each item's lowercased text; 0 when not known (another reading, or `İ`). */
  offsets: number[];
}

/** The filter's slot of a hash: its low bits with the high ones folded in. The scan writes the same sum inline. */
const filterSlot = (h: number, mask: number): number => (h ^ (h >>> 15)) & mask;

const WORD = 0;
const DIGITS = 1;
const QUANTITY = 2;

export class KeyIndex {
  /** Each wanted key's number, and by number its posting, kind, hash and the text a reading must show. */
  private readonly ids = new Map<string, number>();
  private readonly postingList: Posting[] = [];
  private readonly kindList: number[] = [];
  private readonly shown: string[] = [];
  private sealed = false;
  private kinds = new Uint8Array(0);
  private hashes = new Int32Array(0);
  /** The last item recorded for each key: an item is listed once however often it holds the key. */
  private lastItem = new Int32Array(0);
  // Open addressing by hash: a slot holds a key number plus one, 0 when empty. A text's key is looked up by its
  // hash and compared in place, so no substring is cut for the many keys no identifier needs.
  private slots = new Int32Array(0);
  private mask = 0;
  /**
   * Which hashes a wanted key has, by a few of their bits (`filterSlot`): most words of a text are no wanted key, and
   * one byte read rejects them without the table's probe. The CLI runs without TurboFan's inlining (see the bin), so
   * the scan's per-character and per-word tests are written out in the loop rather than called.
   */
  private filter = new Uint8Array(0);
  private filterMask = 0;
  /** Does the text being scanned have the offsets of the item's text and lower case? */
  private aligned = false;
  private maxWordLength = 0;
  private maxDigits = 0;
  /** pow[n] = P^n, up to the longest wanted key and one. */
  private pow = new Int32Array(0);
  private quantities = false;

  /** An index for these keys; `want` adds more until the first item is added. */
  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.want(key);
  }

  /** Adds a key to index (before the first `add`), and gives its posting, filled as items are added. */
  want(key: string): Readonly<Posting> {
    const known = this.ids.get(key);
    if (known !== undefined) return this.postingList[known]!;
    if (this.sealed) throw new Error(`key wanted after items were added: ${key}`);
    const posting = { key, items: [], offsets: [] };
    this.ids.set(key, this.postingList.length);
    this.postingList.push(posting);
    const kind = isQuantityKey(key) ? QUANTITY : isDigitKey(key) ? DIGITS : WORD;
    this.kindList.push(kind);
    this.shown.push(kind === DIGITS ? key.slice(1) : key);
    return posting;
  }

  /** Builds the hash table of the wanted keys. */
  private seal(): void {
    this.sealed = true;
    const count = this.kindList.length;
    this.kinds = Uint8Array.from(this.kindList);
    this.hashes = new Int32Array(count);
    this.lastItem = new Int32Array(count).fill(-1);
    let size = 1 << 10;
    while (size < 2 * count) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    let filterSize = 1 << 12;
    while (filterSize < 16 * count) filterSize <<= 1;
    this.filter = new Uint8Array(filterSize);
    this.filterMask = filterSize - 1;
    for (let id = 0; id < count; id++) {
      const kind = this.kinds[id]!;
      if (kind === QUANTITY) {
        this.quantities = true;
        continue;
      }
      const shown = this.shown[id]!;
      if (kind === DIGITS) this.maxDigits = Math.max(this.maxDigits, shown.length);
      else this.maxWordLength = Math.max(this.maxWordLength, shown.length);
      const h = hashOf(shown, kind === DIGITS ? DIGIT_SEED : 0);
      this.hashes[id] = h;
      let slot = mix(h) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
      this.filter[filterSlot(h, this.filterMask)] = 1;
    }
    this.pow = new Int32Array(this.maxWordLength + 2);
    this.pow[0] = 1;
    for (let i = 1; i < this.pow.length; i++) this.pow[i] = Math.imul(this.pow[i - 1]!, P);
  }

  /** The wanted key of this kind that `s` shows at [start, start + len), with hash h; -1 when none. */
  private find(kind: number, s: string, start: number, len: number, h: number): number {
    for (let slot = mix(h) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const id = entry - 1;
      if (this.hashes[id] === h && this.kinds[id] === kind) {
        const shown = this.shown[id]!;
        if (shown.length === len && s.startsWith(shown, start)) return id;
      }
    }
  }

  private record(id: number, item: number, at: number): void {
    if (this.lastItem[id] === item) return;
    this.lastItem[id] = item;
    const posting = this.postingList[id]!;
    posting.items.push(item);
    posting.offsets.push(this.aligned ? at : 0);
  }

  /** Items must be added in ascending order of `item`; `lower` is the text's lower case, when the caller has it. */
  add(item: number, text: string, lower = text.toLowerCase()): void {
    if (!this.sealed) this.seal();
    // Lowercasing keeps every offset unless the text holds `İ`, which lowercases to two characters.
    this.aligned = lower.length === text.length;
    this.scan(lower, item);
    this.aligned = false;
    this.scanPlain(lower, item);
    if (lowersToAscii(text)) {
      const spaced = text.replace(LOWERS_TO_ASCII, ' ').toLowerCase();
      this.scan(spaced, item);
      this.scanPlain(spaced, item);
    }
    if (this.quantities) {
      for (const q of quantityMatches(text, false)) {
        const id = this.ids.get(quantityIndexKey(q));
        if (id !== undefined) this.record(id, item, 0);
      }
    }
  }

  /** The text without thousands separators, when it has any. */
  private scanPlain(lower: string, item: number): void {
    if (!lower.includes(',')) return;
    const plain = withoutThousands(lower);
    if (plain !== lower) this.scan(plain, item);
  }

  /** Ascending items holding `key`; the key must be one the index was built for. */
  postings(key: string): readonly number[] {
    return this.posting(key).items;
  }

  /** Where `key` first stands in each item of `postings(key)` (0 when not known). */
  offsets(key: string): readonly number[] {
    return this.posting(key).offsets;
  }

  /** The key's items, ascending, and where it first stands in each. */
  posting(key: string): Readonly<Posting> {
    const id = this.ids.get(key);
    if (id === undefined) throw new Error(`key not indexed: ${key}`);
    return this.postingList[id]!;
  }

  /**
   * Records the wanted word key `s` shows at [start, end), with hash h. `find`'s probe and `record` are written out:
   * a 3 MB session's texts send ~47k words past the filter, most of them wanted, and each call costs (see the bin).
   */
  private word(s: string, start: number, end: number, h: number, item: number): void {
    const len = end - start;
    const slots = this.slots;
    const mask = this.mask;
    let m = h ^ (h >>> 16);
    m = Math.imul(m, 0x85ebca6b);
    m ^= m >>> 13;
    m = Math.imul(m, 0xc2b2ae35);
    for (let slot = ((m ^ (m >>> 16)) >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return;
      const id = entry - 1;
      if (this.hashes[id] !== h || this.kinds[id] !== WORD) continue;
      const shown = this.shown[id]!;
      if (shown.length !== len || !s.startsWith(shown, start)) continue;
      if (this.lastItem[id] === item) return;
      this.lastItem[id] = item;
      const posting = this.postingList[id]!;
      posting.items.push(item);
      posting.offsets.push(this.aligned ? start : 0);
      return;
    }
  }

  private scan(s: string, item: number): void {
    const n = s.length;
    const maxLen = this.maxWordLength;
    const pow = this.pow;
    const filter = this.filter;
    const fmask = this.filterMask;
    // The previous word, and the pair that ends with it when it was joined to the one before.
    let prevStart = -1;
    let prevEnd = -1;
    let prevHash = 0;
    let pairStart = -1;
    let pairHash = 0;
    let i = 0;
    while (i < n) {
      let c = s.charCodeAt(i);
      // [a-z0-9]: a word character of the lowercased text.
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
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
        if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) break;
      }
      if (digitStart >= 0) this.digitRun(s, digitStart, i, digitHash, digits, item);
      const len = i - start;
      if (len <= maxLen && filter[(h ^ (h >>> 15)) & fmask] !== 0) this.word(s, start, i, h, item);
      if (prevEnd >= 0 && start === prevEnd + 1) {
        const sep = s.charCodeAt(prevEnd);
        let pair = 0;
        if (i - prevStart <= maxLen) {
          pair = (Math.imul(prevHash, pow[len + 1]!) + Math.imul(sep, pow[len]!) + h) | 0;
          if (filter[(pair ^ (pair >>> 15)) & fmask] !== 0) this.word(s, prevStart, i, pair, item);
          if (pairStart >= 0 && i - pairStart <= maxLen) {
            const triple = (Math.imul(pairHash, pow[len + 1]!) + Math.imul(sep, pow[len]!) + h) | 0;
            if (filter[(triple ^ (triple >>> 15)) & fmask] !== 0) this.word(s, pairStart, i, triple, item);
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
    // Compared without the leading zeros; a run of zeros reads `0` (its last zero).
    let from = end - digits;
    if (digits === 0) {
      hash = (Math.imul(DIGIT_SEED, P) + 48) | 0;
      digits = 1;
      from = end - 1;
    }
    if (digits > this.maxDigits || this.filter[filterSlot(hash, this.filterMask)] === 0) return;
    const id = this.find(DIGITS, s, from, digits, hash);
    if (id >= 0) this.record(id, item, start);
  }
}
