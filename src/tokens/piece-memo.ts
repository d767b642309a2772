// A text's token count is the sum of its split pieces' counts: the encoding's split pattern cuts it into pieces
// and byte-pair merging never crosses a piece. Pieces repeat across a session (words, indents, punctuation runs),
// so each distinct piece is merged once and its count kept: the counts are gpt-tokenizer's countNative's, in a
// fifth of the time on a long session (the merging, not the split, was most of it).

/** What this reads of gpt-tokenizer's BytePairEncodingCore (private there; checked before use). */
export interface PieceCore {
  countNative(text: string): number;
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): readonly number[];
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

/**
 * countNative with no special token allowed (special-token text counts as plain text), each distinct piece merged
 * once. The same pieces as countNative's: its own split pattern, in a copy so its lastIndex is ours.
 */
export function pieceMemoCount(core: PieceCore, limit: number = PIECES): (text: string) => number {
  const split = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags);
  const pieces = new Map<string, number>();
  return (text) => {
    if (text.length === 0) return 0;
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
      let k = pieces.get(piece);
      if (k === undefined) {
        k = core.getBpeRankFromString(piece) !== undefined ? 1 : core.bytePairEncode(piece).length;
        if (pieces.size >= limit) pieces.clear();
        pieces.set(ownCopy(piece), k);
      }
      n += k;
    }
    return n;
  };
}
