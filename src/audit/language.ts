// The language a text is written in, as far as comparing words needs: a claim or a kept message is compared word by
// word only with text in its own language. Read by the invented-instruction list and by survival by kind.

/** A Chinese or Japanese character. */
export const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
/** Every Chinese or Japanese character of a text, with `match`. */
export const CJK_ALL = new RegExp(CJK.source, 'g');
/** Is a message written in Chinese or Japanese (its paths, URLs and code words aside)? */
export function writtenInCjk(text: string): boolean {
  const prose = text.replace(/\S*[/\\.:]\S*/g, ' ');
  const cjk = prose.match(CJK_ALL)?.length ?? 0;
  const latin = prose.match(/[A-Za-z]+/g)?.length ?? 0;
  return cjk > 0 && cjk >= latin;
}

/** The languages told apart: text is compared word by word only with text in its own. */
export type Language = 'cjk' | 'english' | 'other';
// Common English words that are no word of the other languages most written in the Latin script (so not "a", "in",
// "no", "do", "me", "so", "as", which Portuguese, Spanish, Italian or German also write).
const ENGLISH_WORDS = new Set(
  ('the and to of is it that for you with on this are not have we can what was at but if or my there from will should would ' +
    'how why all just please they your which when then also now here need want make use be been has had does did i i’m i\'m ' +
    'don’t don\'t it’s it\'s can’t can\'t')
    .split(' '),
);
/**
 * The language a text is written in, told by its prose (paths, URLs, code words and command-line options left out): Chinese or Japanese by
 * its characters, English when at least one word in twelve is a common English word, another language when none
 * nearly is; null with fewer than eight words to tell by.
 */
export function languageOf(text: string): Language | null {
  if (writtenInCjk(text)) return 'cjk';
  const words = text.replace(/\S*[/\\.:_=<>{}()`@#$]\S*|(?<!\S)-\S*/g, ' ').toLowerCase().match(/\p{L}+(?:['’]\p{L}+)*/gu) ?? [];
  if (words.length < 8) return null;
  return words.filter((w) => ENGLISH_WORDS.has(w)).length * 12 >= words.length ? 'english' : 'other';
}
