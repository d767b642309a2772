// A text's token count is the sum of its split pieces' counts: the encoding's split pattern cuts it into pieces
// and byte-pair merging never crosses a piece. Pieces repeat across a session (words, indents, punctuation runs),
// so each distinct piece is merged once and its count kept: the counts are gpt-tokenizer's countNative's, in a
// fifth of the time on a long session (the merging, not the split, was most of it).

import { byteMergeCount, type ByteRanks } from './byte-merge';
import { RankLookup } from './rank-lookup';

/** What this reads of gpt-tokenizer's BytePairEncodingCore (private there; checked before use). */
export interface PieceCore {
  countNative(text: string): number;
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): readonly number[];
  /** Its text → rank map: a RankLookup where the counter put one there (counter.ts), which the ASCII path reads. */
  bytePairStringRankEncoder?: unknown;
}

/**
 * A split pattern and the counter's own rank tables (counter.ts): every piece is merged on them (byte-merge.ts), and
 * gpt-tokenizer's core is not built.
 */
export interface RankPieces {
  tokenSplitRegex: RegExp;
  lookup: RankLookup;
  bytes: ByteRanks;
}

/** The core as a PieceCore, or null when its internals are not what this reads. */
export function asPieceCore(core: unknown): PieceCore | null {
  const c = core as Partial<PieceCore> | null;
  return c && typeof c.countNative === 'function' && c.tokenSplitRegex instanceof RegExp && c.tokenSplitRegex.global && typeof c.getBpeRankFromString === 'function' && typeof c.bytePairEncode === 'function' ? (c as PieceCore) : null;
}

/**
 * A piece as a string of its own: a match of 13 characters or more is a slice that keeps the whole text it was cut
 * from alive, and a pool worker would hold every text it ever counted through its memo's keys.
 */
function ownCopy(piece: string): string {
  return piece.length < 13 ? piece : (JSON.parse(JSON.stringify(piece)) as string);
}

/** Distinct pieces kept; cleared when this many are held (a piece is short: runs are cut at split-runs' limit). */
const PIECES = 200_000;

/** o200k_base's split pattern (gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX): the one the ASCII scanner below follows. */
export const O200K_SPLIT_SOURCE = String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`;

// Character classes as the pattern sees them (\s in ASCII: tab, LF, VT, FF, CR, space), by UTF-16 unit.
const NON = 0; // no class known: the scanner leaves the piece to the regex
const UP = 1;
const LO = 2;
const DIG = 3;
const NL = 4; // \r \n
const WS = 5; // other ASCII white space
const PUN = 6; // [^\s\p{L}\p{N}] and no mark: all other ASCII, and past ASCII what `knowClasses` found so
const CLASS = new Uint8Array(65536);
CLASS.fill(PUN, 0, 128);
for (let c = 65; c <= 90; c++) CLASS[c] = UP;
for (let c = 97; c <= 122; c++) CLASS[c] = LO;
for (let c = 48; c <= 57; c++) CLASS[c] = DIG;
for (const c of [9, 11, 12, 32]) CLASS[c] = WS;
CLASS[10] = NL;
CLASS[13] = NL;
/** Characters past ASCII `knowClasses` has looked at. */
const LOOKED = new Uint8Array(65536);
/** What makes a character past ASCII anything but punctuation or a symbol to the pattern: a letter, number, mark or space. */
const NOT_PUNCTUATION = /[\p{L}\p{N}\p{M}\s]/u;

/**
 * Marks the characters of `t[from, to)` past ASCII that are punctuation or symbols to the pattern (`→`, `—`, `✓`,
 * box drawing) as PUN, the rest staying NON: the scanner then reads them as it reads ASCII punctuation, where each
 * sent it to the regex (a Read result's `→` on every line). The pieces the regex decides call this. A surrogate stays
 * NON (its code point is read by the regex).
 */
export function knowClasses(t: string, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const ch = t.charCodeAt(i);
    if (ch < 128 || LOOKED[ch] === 1) continue;
    LOOKED[ch] = 1;
    if ((ch < 0xd800 || ch > 0xdfff) && !NOT_PUNCTUATION.test(String.fromCharCode(ch))) CLASS[ch] = PUN;
  }
}

/**
 * The length of the contraction suffix after an apostrophe, by the next two characters in lower case (`a * 128 + b`,
 * b 0 past the text or past ASCII): 's 'd 'm 't whatever follows, 'll 've 're.
 */
const CONTRACTION = new Uint8Array(128 * 128);
for (const a of 'sdmt') CONTRACTION.fill(2, a.charCodeAt(0) * 128, a.charCodeAt(0) * 128 + 128);
for (const ab of ['ll', 've', 're']) CONTRACTION[ab.charCodeAt(0) * 128 + ab.charCodeAt(1)] = 3;
/**
 * The end of o200k's split piece that starts at `p`, read from the characters' classes (the alternatives in the
 * pattern's order); -1 when the answer hangs on a character of no known class (a letter, digit, space or mark of
 * another script could continue the piece), which the regex then decides. A character's class is read inline from
 * the table, not through a helper: the CLI runs without TurboFan's inlining (see the bin), and a call per character
 * was a fifth of the counting.
 */
export function o200kPieceEnd(t: string, p: number, n: number): number {
  let ch = t.charCodeAt(p);
  const c = CLASS[ch]!;
  if (c === NON) return -1;
  // Letters (upper then lower), after at most one character that is no line break, letter or digit.
  let j = -1;
  if (c === UP || c === LO) j = p;
  else if ((c === WS || c === PUN) && p + 1 < n) {
    ch = t.charCodeAt(p + 1);
    const d = CLASS[ch]!;
    if (d === NON) return -1;
    if (d === UP || d === LO) j = p + 1;
  }
  if (j >= 0) {
    let e = j;
    while (e < n && CLASS[t.charCodeAt(e)] === UP) e++;
    while (e < n && CLASS[t.charCodeAt(e)] === LO) e++;
    if (e < n && CLASS[t.charCodeAt(e)] === NON) return -1;
    // The contraction suffix ('s 'd 'm 't 'll 've 're, either case); a character past ASCII simply does not match it.
    // Read from a table and returned through one addition, so every operation here has run once the first apostrophe
    // after letters has: one that had not when V8 compiled the function (the real sample's first `'re`, later) made it
    // drop the compiled code and compile it again.
    let suffix = 0;
    if (e + 1 < n && t.charCodeAt(e) === 39) {
      const a = t.charCodeAt(e + 1) | 32;
      const b = e + 2 < n ? t.charCodeAt(e + 2) | 32 : 0;
      suffix = a < 128 ? CONTRACTION[a * 128 + (b < 128 ? b : 0)]! : 0;
    }
    return e + suffix;
  }
  // One to three digits.
  if (c === DIG) {
    let e = p + 1;
    while (e < n && e < p + 3) {
      const k = CLASS[t.charCodeAt(e)]!;
      if (k === NON) return -1;
      if (k === DIG) e++;
      else break;
    }
    return e;
  }
  // Punctuation after an optional space, then line breaks and slashes.
  let q = -1;
  if (c === PUN) q = p;
  else if (t.charCodeAt(p) === 32 && p + 1 < n) {
    const d = CLASS[t.charCodeAt(p + 1)]!;
    if (d === NON) return -1;
    if (d === PUN) q = p + 1;
  }
  if (q >= 0) {
    let e = q;
    while (e < n && CLASS[t.charCodeAt(e)] === PUN) e++;
    if (e < n && CLASS[t.charCodeAt(e)] === NON) return -1;
    // Read only inside the text: a read past its end made V8 drop this function's optimized code and compile it again.
    while (e < n) {
      ch = t.charCodeAt(e);
      if (ch !== 10 && ch !== 13 && ch !== 47) break;
      e++;
    }
    return e;
  }
  // White space: up to its last line break; else all of it at the end, or all but its last character before a
  // non-space, or one character.
  let w = p + 1;
  while (w < n) {
    const k = CLASS[t.charCodeAt(w)]!;
    if (k !== WS && k !== NL) break;
    w++;
  }
  if (w < n && CLASS[t.charCodeAt(w)] === NON) return -1;
  // `k` is one past the character read: a run's first multi-line piece came after the function was compiled, and
  // `return k + 1` (an addition no run had made yet) made V8 drop its optimized code and compile it again.
  for (let k = w; k > p; k--) {
    ch = t.charCodeAt(k - 1);
    if (ch === 10 || ch === 13) return k;
  }
  if (w === n) return n;
  return w - p >= 2 ? w - 1 : w;
}

const NO_RANK = 0x7fffffff;
let starts = new Int32Array(64);
let ranks = new Int32Array(64);

/**
 * Tokens of the ASCII piece `s[from, from + n)`: gpt-tokenizer's bytePairMerge (merge the lowest-ranked adjacent
 * pair, the leftmost of equals, until none is a token), on the string itself, since its bytes are its characters.
 */
export function asciiMergeCount(lookup: RankLookup, s: string, from: number, n: number): number {
  if (n <= 1 || lookup.rankOf(s, from, n) >= 0) return n === 0 ? 0 : 1;
  if (starts.length < n + 1) {
    starts = new Int32Array(2 * (n + 1));
    ranks = new Int32Array(2 * (n + 1));
  }
  const st = starts;
  const rk = ranks;
  const pair = (a: number, b: number) => {
    const r = lookup.rankOf(s, a, b - a);
    return r < 0 ? NO_RANK : r;
  };
  for (let i = 0; i <= n; i++) st[i] = from + i;
  for (let i = 0; i < n - 1; i++) rk[i] = pair(from + i, from + i + 2);
  rk[n - 1] = NO_RANK;
  rk[n] = NO_RANK;
  let len = n + 1;
  while (len > 1) {
    let lowest = NO_RANK;
    let at = -1;
    for (let i = 0; i < len - 1; i++) {
      if (rk[i]! < lowest) {
        lowest = rk[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    for (let i = at + 1; i < len - 1; i++) st[i] = st[i + 1]!;
    for (let i = at; i < len - 1; i++) rk[i] = rk[i + 1]!;
    len--;
    rk[at] = at + 2 < len ? pair(st[at]!, st[at + 2]!) : NO_RANK;
    if (at > 0) rk[at - 1] = at + 1 < len ? pair(st[at - 1]!, st[at + 1]!) : NO_RANK;
  }
  return len - 1;
}

/** FNV-1a over `s[from, from + n)`. */
function hashOf(s: string, from: number, n: number): number {
  let h = 0x811c9dc5;
  for (let i = from, end = from + n; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}

function sameRange(k: string, s: string, from: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (k.charCodeAt(i) !== s.charCodeAt(from + i)) return false;
  return true;
}

/** Longest piece packed into a number key: 7 ASCII characters of 7 bits and the length in 3 bits (52 bits). */
const PACKED = 7;

/** `s[from, from + n)` as an exact number key (never 0), or 0 when it is too long or not ASCII. */
function packedKey(s: string, from: number, n: number): number {
  if (n > PACKED) return 0;
  let k = 0;
  for (let i = from, end = from + n; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) return 0;
    k = k * 128 + c;
  }
  return k * 8 + n;
}

function packedHash(k: number): number {
  const h = (k | 0) ^ Math.imul((k / 4294967296) | 0, 0x9e3779b1);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ (h >>> 13);
}

/**
 * Piece → tokens, looked up by a range of the text (no piece is cut out to look it up), cleared past `limit`. Short
 * ASCII pieces (most of them) are packed into number keys, compared without reading a string; the tables grow with
 * what they hold, so the common pieces stay in the processor's cache.
 */
class PieceTable {
  private size = 0;
  private packedKeys = new Float64Array(1024);
  private packedCounts = new Int32Array(1024);
  private packedMask = 1023;
  private packedSize = 0;
  private keys: string[] = [];
  private counts: number[] = [];
  private slots = new Int32Array(1024);
  private mask = 1023;
  constructor(private readonly limit: number) {}

  /** Tokens of the piece, -1 when not held. */
  get(s: string, from: number, n: number): number {
    // `packedKey` and `packedHash` written out: the CLI runs without TurboFan's inlining (see the bin), and every
    // piece of every counted text paid the two calls.
    let key = 0;
    if (n <= PACKED) {
      const end = from + n;
      for (let i = from; i < end; i++) {
        const c = s.charCodeAt(i);
        if (c >= 128) {
          key = -1;
          break;
        }
        key = key * 128 + c;
      }
      key = key < 0 ? 0 : key * 8 + n;
    }
    if (key !== 0) {
      const { packedKeys, packedMask } = this;
      let h = (key | 0) ^ Math.imul((key / 4294967296) | 0, 0x9e3779b1);
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ (h >>> 13);
      for (let i = h & packedMask; ; i = (i + 1) & packedMask) {
        const k = packedKeys[i]!;
        if (k === key) return this.packedCounts[i]!;
        if (k === 0) return -1;
      }
    }
    const { slots, keys, mask } = this;
    for (let i = hashOf(s, from, n) & mask; ; i = (i + 1) & mask) {
      const r = slots[i]!;
      if (r === 0) return -1;
      const k = keys[r - 1]!;
      if (k.length === n && sameRange(k, s, from, n)) return this.counts[r - 1]!;
    }
  }

  add(piece: string, tokens: number): void {
    if (this.size >= this.limit) this.clear();
    this.size++;
    const key = packedKey(piece, 0, piece.length);
    if (key !== 0) {
      if (++this.packedSize * 2 > this.packedKeys.length) this.growPacked();
      this.putPacked(key, tokens);
      return;
    }
    this.keys.push(ownCopy(piece));
    this.counts.push(tokens);
    if (this.keys.length * 2 > this.slots.length) this.growSlots();
    else this.putSlot(this.keys.length);
  }

  private putPacked(key: number, tokens: number): void {
    const { packedKeys, packedMask } = this;
    let i = packedHash(key) & packedMask;
    while (packedKeys[i] !== 0) i = (i + 1) & packedMask;
    packedKeys[i] = key;
    this.packedCounts[i] = tokens;
  }

  private putSlot(r: number): void {
    const k = this.keys[r - 1]!;
    let i = hashOf(k, 0, k.length) & this.mask;
    while (this.slots[i] !== 0) i = (i + 1) & this.mask;
    this.slots[i] = r;
  }

  private growPacked(): void {
    const keys = this.packedKeys;
    const counts = this.packedCounts;
    this.packedKeys = new Float64Array(keys.length * 2);
    this.packedCounts = new Int32Array(keys.length * 2);
    this.packedMask = keys.length * 2 - 1;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.putPacked(keys[i]!, counts[i]!);
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    for (let r = 1; r <= this.keys.length; r++) this.putSlot(r);
  }

  private clear(): void {
    this.size = 0;
    this.packedSize = 0;
    this.packedKeys = new Float64Array(1024);
    this.packedCounts = new Int32Array(1024);
    this.packedMask = 1023;
    this.keys = [];
    this.counts = [];
    this.slots = new Int32Array(1024);
    this.mask = 1023;
  }
}

/**
 * countNative with no special token allowed (special-token text counts as plain text), each distinct piece merged
 * once (on the counter's own tables when given RankPieces). The same pieces as countNative's: its own split pattern, in a copy so its lastIndex is ours. Under o200k's
 * pattern with the counter's rank lookup, ASCII stretches are cut by a scanner that follows the pattern and merged
 * on the lookup, neither allocating per piece (the regex's matches and the merge's byte arrays were most of a long
 * session's counting); the regex decides every piece the scanner cannot.
 */
export function pieceMemoCount(core: PieceCore | RankPieces, limit: number = PIECES): (text: string) => number {
  const split = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags);
  const table = new PieceTable(limit);
  const own = 'lookup' in core ? core : null;
  const gpt = 'lookup' in core ? null : core;
  const lookup = own ? own.lookup : gpt!.bytePairStringRankEncoder instanceof RankLookup ? gpt!.bytePairStringRankEncoder : null;
  const scan = lookup !== null && split.source === O200K_SPLIT_SOURCE && split.flags === 'gu';
  const tokensOf = (piece: string): number => {
    if (lookup && !/[^\x00-\x7f]/.test(piece)) return asciiMergeCount(lookup, piece, 0, piece.length);
    if (own) return byteMergeCount(own.lookup, own.bytes, piece);
    return gpt!.getBpeRankFromString(piece) !== undefined ? 1 : gpt!.bytePairEncode(piece).length;
  };
  const regexCount = (text: string): number => {
    split.lastIndex = 0;
    let n = 0;
    let m: RegExpExecArray | null;
    while ((m = split.exec(text)) !== null) {
      const piece = m[0];
      if (piece.length === 0) {
        // No alternative of the o200k/cl100k patterns matches nothing; a pattern that did would loop here.
        split.lastIndex++;
        continue;
      }
      let k = table.get(piece, 0, piece.length);
      if (k < 0) table.add(piece, (k = tokensOf(piece)));
      n += k;
    }
    return n;
  };
  return (text) => {
    if (text.length === 0) return 0;
    if (!scan) return regexCount(text);
    const len = text.length;
    let n = 0;
    for (let p = 0; p < len; ) {
      let e = o200kPieceEnd(text, p, len);
      let k: number;
      if (e >= 0) {
        k = table.get(text, p, e - p);
        if (k < 0) {
          // A piece with punctuation past ASCII (`→x`) is merged on its bytes.
          const piece = text.slice(p, e);
          table.add(piece, (k = tokensOf(piece)));
        }
      } else {
        // Every position starts a piece of the pattern, so the regex from here gives this piece.
        split.lastIndex = p;
        const m = split.exec(text);
        if (m === null || m.index !== p || m[0].length === 0) return regexCount(text);
        e = p + m[0].length;
        // The scanner reads the punctuation among these characters (and the one after) itself from now on.
        knowClasses(text, p, Math.min(e + 1, len));
        k = table.get(text, p, e - p);
        if (k < 0) table.add(m[0], (k = tokensOf(m[0])));
      }
      n += k;
      p = e;
    }
    return n;
  };
}
