// A token estimate that costs one pass over the characters and no rank table: shown at once, replaced by
// exact counts as they arrive. Plain chars/4 is fine for English prose but undercounts code, JSON and
// numbers (punctuation and digits are short tokens) and badly undercounts CJK (about a token per
// character), so each character class is priced on its own. Weights were fitted on the fixtures and samples.
import type { EncodingName } from './encoding';
import { countWithRedactions } from './redaction';
import { isWhitespaceCode } from './split-runs';

interface Weights {
  /** Tokens for a run of ASCII letters: 1 per `wordChars` letters, at least 1. */
  wordChars: number;
  /** Tokens per non-ASCII letter outside CJK (Cyrillic, Greek, accented Latin, …). */
  otherLetter: number;
  /** Tokens per CJK character (Han, kana, Hangul, fullwidth forms). */
  cjk: number;
  /** Tokens per ASCII punctuation or symbol character. */
  punct: number;
}

const WEIGHTS: Record<EncodingName, Weights> = {
  o200k_base: { wordChars: 7, otherLetter: 0.3, cjk: 0.75, punct: 0.55 },
  cl100k_base: { wordChars: 7, otherLetter: 0.45, cjk: 1.1, punct: 0.55 },
};

function isCjk(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || // kana
    (c >= 0x3400 && c <= 0x9fff) || // Han
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef) || // fullwidth forms
    (c >= 0x3000 && c <= 0x303f) // CJK punctuation
  );
}

function isSymbol(c: number): boolean {
  // Latin-1 signs, general punctuation, arrows, math operators, box drawing: about a token each.
  return (c >= 0xa1 && c <= 0xbf) || c === 0xd7 || c === 0xf7 || (c >= 0x2010 && c <= 0x2bff);
}

/** Estimated token count; never 0 for a non-empty text. */
export function estimateTokens(text: string, encoding: EncodingName = 'o200k_base'): number {
  return countWithRedactions(text, (t) => estimatePlain(t, encoding));
}

function estimatePlain(text: string, encoding: EncodingName): number {
  const w = WEIGHTS[encoding];
  let tokens = 0;
  let word = 0; // current run of ASCII letters
  let upper = 0; // upper-case letters in it
  let digits = 0; // current run of digits
  let spaces = 0; // current run of whitespace
  let prev = -1; // previous character, to price repeated punctuation (`-----`, `.....`) as one run
  const endWord = () => {
    // All-caps words split into short tokens; other words into about one token per `wordChars`.
    tokens += upper === word && word > 1 ? Math.ceil(word / 3) : Math.ceil(word / w.wordChars);
    word = 0;
    upper = 0;
  };
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const lower = c >= 97 && c <= 122;
    const up = c >= 65 && c <= 90;
    if (lower || up) {
      word++;
      if (up) upper++;
    } else if (word > 0) endWord();
    const digit = c >= 48 && c <= 57;
    if (digit) {
      digits++;
    } else if (digits > 0) {
      tokens += Math.ceil(digits / 3);
      digits = 0;
    }
    if (lower || up || digit) {
      spaces = 0;
    } else if (isWhitespaceCode(c)) {
      // One space joins the next word's token; a newline or a longer run (indentation) is a token per ~16.
      if (spaces === 0 ? c !== 32 : spaces % 16 === 1) tokens += 1;
      spaces++;
    } else {
      spaces = 0;
      if (c < 128) tokens += c === prev ? w.punct / 4 : w.punct;
      else if (isCjk(c)) tokens += w.cjk;
      else if (c >= 0xd800 && c <= 0xdfff) tokens += 1.5; // astral: emoji and rare scripts, ~3 tokens per pair
      else if (isSymbol(c)) tokens += 1;
      else tokens += w.otherLetter;
    }
    prev = c;
  }
  if (word > 0) endWord();
  if (digits > 0) tokens += Math.ceil(digits / 3);
  return n === 0 ? 0 : Math.max(1, Math.round(tokens));
}
