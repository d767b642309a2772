// gpt-tokenizer's text → rank lookup without its Map of 200k strings. Building that Map (and, before it, the 200k
// strings of the table) took ~0.25 s of CPU per counter in every cold CLI run and every counting thread: the
// packed form is two strings (every token's text end to end, and each token's length as one character), and the
// lookup is an open-addressing table of ranks over them, filled in a few milliseconds.
/** gpt-tokenizer's mergeable ranks: each token's text, or its bytes when they are not valid UTF-8. */
export type RankTable = (string | number[])[];

/** A rank table as two strings and the tokens that are not valid UTF-8 (bin/build-cli.mjs writes it as JSON). */
export interface PackedRanks {
  packed: 1;
  /** The text of every string token, in rank order, end to end. */
  text: string;
  /** Per rank, its token's length in UTF-16 units plus 32, as one character (32 for a byte token or a hole). */
  lengths: string;
  /** The tokens that are not valid UTF-8: [rank, bytes]. */
  bytes: [number, number[]][];
  /** The lookup's table worked out at build time (`rankSlots`; the CLI reads it from a binary file beside the JSON). */
  slots?: Int32Array;
  /** Where each rank's text starts in `text`, and at the end the text's length (`rankStarts`; the CLI reads it from its file). */
  starts?: Uint32Array;
}

export const isPackedRanks = (v: unknown): v is PackedRanks => typeof v === 'object' && v !== null && (v as { packed?: unknown }).packed === 1;

export function packRankTable(table: RankTable): PackedRanks {
  let text = '';
  const lengths: string[] = [];
  const bytes: [number, number[]][] = [];
  for (let r = 0; r < table.length; r++) {
    const t = table[r];
    if (typeof t === 'string') {
      if (t.length === 0 || t.length > 0xffff - 32) throw new Error(`rank ${r}: a token of ${t.length} characters cannot be packed`);
      text += t;
      lengths.push(String.fromCharCode(t.length + 32));
    } else {
      if (Array.isArray(t)) bytes.push([r, t]);
      lengths.push(' ');
    }
  }
  return { packed: 1, text, lengths: lengths.join(''), bytes };
}

/** The table again (for a reader that wants gpt-tokenizer's own form). */
export function unpackRanks(p: PackedRanks): RankTable {
  const out: RankTable = new Array(p.lengths.length);
  let at = 0;
  for (let r = 0; r < p.lengths.length; r++) {
    const n = p.lengths.charCodeAt(r) - 32;
    if (n > 0) out[r] = p.text.slice(at, (at += n));
  }
  for (const [r, b] of p.bytes) out[r] = b;
  return out;
}

/** FNV-1a over the UTF-16 units of `s[from, from + n)`. */
function hashOf(s: string, from: number, n: number): number {
  let h = 0x811c9dc5;
  for (let i = from, end = from + n; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}

/** Where each rank's text starts in the packed text, and at the end the text's length; a rank of no text (a byte token or a hole) has the next one's start. */
export function rankStarts(p: PackedRanks): Uint32Array {
  const n = p.lengths.length;
  const start = new Uint32Array(n + 1);
  let at = 0;
  for (let r = 0; r < n; r++) {
    start[r] = at;
    at += p.lengths.charCodeAt(r) - 32;
  }
  if (at !== p.text.length) throw new Error('packed rank table: the lengths do not add up to the text');
  start[n] = at;
  return start;
}

/** Do starts from elsewhere fit the table: its text's length at the end, and its lengths at both ends of the ranks? */
function startsFit(p: PackedRanks, start: Uint32Array): boolean {
  const n = p.lengths.length;
  if (start.length !== n + 1 || start[0] !== 0 || start[n] !== p.text.length) return false;
  for (let r = 0; r < n; r = r === 255 && n > 512 ? n - 256 : r + 1) if (start[r + 1]! - start[r]! !== p.lengths.charCodeAt(r) - 32) return false;
  return true;
}

/** A Map-like `get(text) → rank` over the string tokens of a table; gpt-tokenizer's core reads only `get`. */
export class RankLookup {
  private readonly text: string;
  /** Where each rank's text starts in `text`, and one more at the end: a rank's length is the step to the next (0 for none). */
  private readonly start: Uint32Array;
  /** rank + 1 per slot, 0 when empty; slot `hash & mask` or the next free one after it. */
  readonly slots: Int32Array;
  private readonly mask: number;

  /** `count`: how many ranks have a text. */
  private constructor(text: string, start: Uint32Array, count: number, slots?: Int32Array) {
    this.text = text;
    this.start = start;
    let cap = 16;
    while (cap < count * 2) cap *= 2;
    this.mask = cap - 1;
    if (slots && slots.length === cap && this.spotCheck(slots)) {
      this.slots = slots;
      return;
    }
    this.slots = new Int32Array(cap);
    for (let r = 0; r + 1 < start.length; r++) {
      const n = start[r + 1]! - start[r]!;
      if (n === 0) continue;
      let i = hashOf(text, start[r]!, n) & this.mask;
      // A repeated token takes the later rank, as gpt-tokenizer's Map does (none repeats in the tables).
      while (this.slots[i] !== 0 && !this.equals(this.slots[i]! - 1, text, start[r]!, n)) i = (i + 1) & this.mask;
      this.slots[i] = r + 1;
    }
  }

  /** Slots from elsewhere find the table's first tokens (the single bytes) at their ranks: else they are rebuilt. */
  private spotCheck(slots: Int32Array): boolean {
    for (let r = 0; r < Math.min(256, this.start.length - 1); r++) {
      const n = this.start[r + 1]! - this.start[r]!;
      if (n === 0) continue;
      let i = hashOf(this.text, this.start[r]!, n) & this.mask;
      while (slots[i] !== 0 && slots[i] !== r + 1) i = (i + 1) & this.mask;
      if (slots[i] !== r + 1) return false;
    }
    return true;
  }

  /**
   * The lookup of a packed table. The starts and slots worked out at build time are used when they fit (the CLI reads
   * both from its files): filling them in a cold process was a loop of 200k steps each, ~12 ms.
   */
  static fromPacked(p: PackedRanks): RankLookup {
    const start = p.starts && startsFit(p, p.starts) ? p.starts : rankStarts(p);
    // A rank without text has the length 0, written as a space.
    const count = p.lengths.length - (p.lengths.split(' ').length - 1);
    return new RankLookup(p.text, start, count, p.slots);
  }

  static fromTable(table: RankTable): RankLookup {
    const parts: string[] = [];
    const start = new Uint32Array(table.length + 1);
    let at = 0;
    let count = 0;
    for (let r = 0; r < table.length; r++) {
      start[r] = at;
      const t = table[r];
      if (typeof t !== 'string' || t.length === 0) continue;
      parts.push(t);
      at += t.length;
      count++;
    }
    start[table.length] = at;
    return new RankLookup(parts.join(''), start, count);
  }

  private equals(r: number, s: string, from: number, n: number): boolean {
    const o = this.start[r]!;
    if (this.start[r + 1]! - o !== n) return false;
    const t = this.text;
    for (let k = 0; k < n; k++) if (t.charCodeAt(o + k) !== s.charCodeAt(from + k)) return false;
    return true;
  }

  get(key: string): number | undefined {
    const r = this.rankOf(key, 0, key.length);
    return r < 0 ? undefined : r;
  }

  /** The rank of `s[from, from + n)`, -1 when it is no token: a look-up without cutting the piece out. */
  rankOf(s: string, from: number, n: number): number {
    for (let i = hashOf(s, from, n) & this.mask; ; i = (i + 1) & this.mask) {
      const r = this.slots[i]!;
      if (r === 0) return -1;
      if (this.equals(r - 1, s, from, n)) return r - 1;
    }
  }
}

/** The lookup table of a packed rank table, for the build to write beside it. */
export function rankSlots(p: PackedRanks): Int32Array {
  return RankLookup.fromPacked({ ...p, slots: undefined, starts: undefined }).slots;
}

/** The byte tokens of a table as gpt-tokenizer's core wants them: a sparse array holding only those. */
export function byteTokens(source: RankTable | PackedRanks): RankTable {
  if (isPackedRanks(source)) {
    const out: RankTable = [];
    for (const [r, b] of source.bytes) out[r] = b;
    return out;
  }
  const out: RankTable = [];
  source.forEach((t, r) => {
    if (Array.isArray(t)) out[r] = t;
  });
  return out;
}
