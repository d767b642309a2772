// Tokens of a split piece past ASCII, merged on its UTF-8 bytes with the counter's own rank tables: the count of
// gpt-tokenizer's bytePairEncode. Its core decoded every candidate pair's bytes with a TextDecoder to look the pair
// up, and building the core walked a 200k-slot sparse array (~11 ms of every cold CLI run); a piece past ASCII (a
// Read result's `→`, an em dash) is rare, but each cost ~0.1 ms while that code ran cold.
import { isPackedRanks, type PackedRanks, type RankLookup, type RankTable } from './rank-lookup';

/** The tokens that are not valid UTF-8, by their bytes as a string of char codes 0–255. */
export class ByteRanks {
  private readonly ranks = new Map<string, number>();

  constructor(tokens: Iterable<readonly [number, readonly number[]]>) {
    for (const [rank, bytes] of tokens) this.ranks.set(String.fromCharCode(...bytes), rank);
  }

  static of(source: RankTable | PackedRanks): ByteRanks {
    if (isPackedRanks(source)) return new ByteRanks(source.bytes);
    const tokens: [number, number[]][] = [];
    source.forEach((t, r) => {
      if (Array.isArray(t)) tokens.push([r, t]);
    });
    return new ByteRanks(tokens);
  }

  /** The rank of `bytes[from, to)`, -1 when no token has those bytes. */
  rankOf(bytes: Uint8Array, from: number, to: number): number {
    let key = '';
    for (let i = from; i < to; i++) key += String.fromCharCode(bytes[i]!);
    return this.ranks.get(key) ?? -1;
  }
}

const NO_RANK = 0x7fffffff;

/**
 * gpt-tokenizer's `bytePairEncode(piece).length` (1 when the piece is a token): the piece's UTF-8 bytes as its
 * TextEncoder writes them (a lone surrogate as U+FFFD), merged lowest rank first, leftmost of equals. A run of bytes
 * is looked up as text when it is valid UTF-8, which it is exactly when it starts and ends on a character: the text
 * is then the piece's own characters there (less a leading U+FEFF, which gpt-tokenizer's TextDecoder drops); else
 * among the byte tokens.
 */
export function byteMergeCount(lookup: RankLookup, byteRanks: ByteRanks, piece: string): number {
  if (lookup.rankOf(piece, 0, piece.length) >= 0) return 1;
  const bytes = new Uint8Array(piece.length * 3);
  // For each byte that starts a character, where that character stands in `text`; -1 inside a character.
  const at = new Int32Array(piece.length * 3 + 1);
  let text = piece;
  let n = 0;
  for (let i = 0; i < piece.length; i++) {
    let c = piece.charCodeAt(i);
    at[n] = i;
    if (c < 0x80) {
      bytes[n++] = c;
      continue;
    }
    if (c < 0x800) {
      bytes[n++] = 0xc0 | (c >> 6);
    } else {
      const next = i + 1 < piece.length ? piece.charCodeAt(i + 1) : 0;
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        bytes[n++] = 0xf0 | (c >> 18);
        at[n] = -1;
        bytes[n++] = 0x80 | ((c >> 12) & 0x3f);
        i++;
      } else {
        if (c >= 0xd800 && c <= 0xdfff) {
          // A lone surrogate: U+FFFD in the bytes, and in the text its runs are read from.
          c = 0xfffd;
          text = `${text.slice(0, i)}\ufffd${text.slice(i + 1)}`;
        }
        bytes[n++] = 0xe0 | (c >> 12);
      }
      at[n] = -1;
      bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
    }
    at[n] = -1;
    bytes[n++] = 0x80 | (c & 0x3f);
  }
  at[n] = piece.length;
  const rank = (a: number, b: number): number => {
    let r: number;
    const from = at[a]!;
    const to = at[b]!;
    if (from >= 0 && to >= 0) {
      const s = text.charCodeAt(from) === 0xfeff ? from + 1 : from;
      r = lookup.rankOf(text, s, to - s);
    } else r = byteRanks.rankOf(bytes, a, b);
    return r < 0 ? NO_RANK : r;
  };
  const st: number[] = [];
  const rk: number[] = [];
  for (let i = 0; i <= n; i++) st.push(i);
  for (let i = 0; i < n - 1; i++) rk.push(rank(i, i + 2));
  rk.push(NO_RANK, NO_RANK);
  let len = n + 1;
  while (len > 1) {
    let lowest = NO_RANK;
    let low = -1;
    for (let i = 0; i < len - 1; i++) {
      if (rk[i]! < lowest) {
        lowest = rk[i]!;
        low = i;
      }
    }
    if (low < 0) break;
    st.splice(low + 1, 1);
    rk.splice(low, 1);
    len--;
    rk[low] = low + 2 < len ? rank(st[low]!, st[low + 2]!) : NO_RANK;
    if (low > 0) rk[low - 1] = low + 1 < len ? rank(st[low - 1]!, st[low + 1]!) : NO_RANK;
  }
  return len - 1;
}
