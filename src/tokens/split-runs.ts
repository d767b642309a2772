// Cuts long runs of non-whitespace (and of whitespace) into short parts before encoding. js-tiktoken merges
// a BPE piece in quadratic time: a 20,000-letter run takes ~20 s, a 20,000-space run as long. Capping every
// run at `maxRun` characters bounds the work per piece. Each cut may cost or save a token where it falls,
// so a count over cut parts is marked approximate. Cuts prefer an ASCII letter/digit seam within the last
// 32 characters: no BPE piece of o200k_base or cl100k_base crosses one, so base64-like runs stay exact in practice.

export const DEFAULT_MAX_RUN = 256;
const SEAM_LOOKBACK = 32;

export interface RunSplit {
  /** The text in order; joined they give the text back. One part, the text itself, when nothing was cut. */
  parts: string[];
  /** True when at least one run was cut. */
  approximate: boolean;
}

/** JS `\s`: the whitespace class the tokenizers' split patterns use. */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function asciiClass(c: number): 0 | 1 | 2 {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return 1;
  if (c >= 48 && c <= 57) return 2;
  return 0;
}

/** Where to cut a run that reached `end`: a letter/digit seam if one is near, never inside a surrogate pair. */
function cutPoint(text: string, end: number, floor: number): number {
  const stop = Math.max(floor + 1, end - SEAM_LOOKBACK);
  for (let p = end; p >= stop; p--) {
    const a = asciiClass(text.charCodeAt(p - 1));
    const b = asciiClass(text.charCodeAt(p));
    if (a !== 0 && b !== 0 && a !== b) return p;
  }
  const c = text.charCodeAt(end);
  return c >= 0xdc00 && c <= 0xdfff && end - 1 > floor ? end - 1 : end;
}

/**
 * Might a run of white space or of non-white space be longer than `maxRun` (the only case `splitLongRuns` cuts)? Such a
 * run holds a whole block of `(maxRun + 2) >> 1` characters that starts at a multiple of that length; a block whose
 * characters are not all of one kind ends its reading at the first change, a few characters in for prose and code, so
 * a text is read a fraction of the way through instead of character by character (every counted text is).
 */
function mayHaveLongRun(text: string, maxRun: number): boolean {
  const block = (maxRun + 2) >> 1;
  for (let s = 0; s + block <= text.length; s += block) {
    let c = text.charCodeAt(s);
    const ws = c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWhitespaceCode(c);
    let j = s + 1;
    for (; j < s + block; j++) {
      c = text.charCodeAt(j);
      if ((c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWhitespaceCode(c)) !== ws) break;
    }
    if (j === s + block) return true;
  }
  return false;
}

/** Splits `text` so that no run of whitespace or of non-whitespace in any part is longer than `maxRun`. */
export function splitLongRuns(text: string, maxRun: number = DEFAULT_MAX_RUN): RunSplit {
  if (!(maxRun >= 2) || text.length <= maxRun || !mayHaveLongRun(text, maxRun)) return { parts: [text], approximate: false };
  let cuts: number[] | null = null;
  let runWs = isWhitespaceCode(text.charCodeAt(0));
  let last = 0; // start of the current uncut stretch of the current run
  for (let i = 1; i < text.length; i++) {
    // ASCII answered inline (isWhitespaceCode's first two lines), the rest by the call: the CLI runs without
    // TurboFan's inlining (see the bin), and this reads every character of every counted text.
    const c = text.charCodeAt(i);
    const ws = c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWhitespaceCode(c);
    if (ws !== runWs) {
      runWs = ws;
      last = i;
    } else if (i - last >= maxRun) {
      last = cutPoint(text, i, last);
      (cuts ??= []).push(last);
    }
  }
  if (!cuts) return { parts: [text], approximate: false };
  const parts: string[] = [];
  let from = 0;
  for (const c of cuts) {
    parts.push(text.slice(from, c));
    from = c;
  }
  parts.push(text.slice(from));
  return { parts, approximate: true };
}
