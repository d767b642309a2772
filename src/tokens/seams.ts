// Splits a long text into parts whose token counts add up exactly to the whole's, so one huge tool
// output can be counted by several workers and report progress on the way.
//
// A seam is the position right after a run of line breaks when the next character is neither whitespace
// nor `/`. In the split patterns of o200k_base and cl100k_base no piece crosses it: letter and number pieces
// cannot start with a line break, whitespace pieces end at the first non-space, and a punctuation piece
// only swallows trailing line breaks (and `/` in o200k_base). So the pieces, and therefore the tokens, of
// the parts are those of the whole.

function isSeam(text: string, p: number): boolean {
  const before = text.charCodeAt(p - 1);
  if (before !== 10 && before !== 13) return false;
  const c = text.charCodeAt(p);
  return c !== 47 && c > 32 && !(c >= 0x80 && /\s/.test(text[p]!));
}

/** Parts of at most about `maxChars` characters, cut only at seams; a text without seams stays whole. */
export function splitAtSeams(text: string, maxChars: number): string[] {
  if (!(maxChars >= 2) || text.length <= maxChars) return [text];
  const parts: string[] = [];
  let from = 0;
  while (text.length - from > maxChars) {
    let cut = -1;
    const target = from + maxChars;
    for (let p = target; p > from + maxChars / 2; p--) {
      if (isSeam(text, p)) {
        cut = p;
        break;
      }
    }
    if (cut < 0) {
      for (let p = target + 1; p < text.length; p++) {
        if (isSeam(text, p)) {
          cut = p;
          break;
        }
      }
    }
    if (cut < 0) break;
    parts.push(text.slice(from, cut));
    from = cut;
  }
  parts.push(text.slice(from));
  return parts;
}
