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
// Common words of the other languages most written in the Latin script (Portuguese, Spanish, French, German, Italian,
// Dutch, Polish, Turkish, Indonesian, Vietnamese) that are no English word: a text is another language only on such evidence, never for lacking English words
// (terse English, "GitHub organization: LAF-US ; Visibility: private", has none).
const OTHER_WORDS = new Set(
  ('de da do das dos que não nao com para uma um por mais como está esta são sao também tambem ' +
    'el la los las del y es en por con para una pero más está son también ' +
    'le les des du et est une pour dans pas avec sur qui sont aussi être ' +
    'der die das und ist nicht mit für auf ein eine den dem zu auch sind wird ' +
    'il di che non per una sono anche della questo ' +
    'het een van en niet met voor zijn ook dat op ' +
    'się nie jest że czy jak dla oraz tylko może który która które są być będzie proszę żeby więc już ' +
    'bir ve bu için ile da de değil çok daha gibi olan ' +
    'yang dan untuk dengan tidak ini itu ada dari akan bisa saya ' +
    'và của là không có được cho này một những các ' +
    // Vietnamese as typed without its marks ("ban dang hoat dong tren may nao va tai khoan nao").
    'va cua khong duoc nhung cac mot toi chung nhe neu thi voi nao dang tren lam viec minh roi gi cung')
    .split(' '),
);

// Built once: the CLI's bundle writes a `\p{…}` pattern outside a class as `new RegExp(…)`, which in place would be
// made anew for every word.
const LETTERS = /\p{L}+(?:['’]\p{L}+)*/gu;
const LATIN = /^\p{Script=Latin}/u;

/**
 * The language a text is written in, told by its prose (paths, URLs, code words and command-line options left out): Chinese or Japanese by
 * its characters, English when at least one word in twelve is a common English word, another language when at least
 * one in twelve is a common word of another Latin-script language and English words are fewer; null with fewer than
 * eight words to tell by, or no such evidence either way.
 */
export function languageOf(text: string): Language | null {
  if (writtenInCjk(text)) return 'cjk';
  const words = text.replace(/\S*[/\\.:_=<>{}()`@#$]\S*|(?<!\S)-\S*/g, ' ').toLowerCase().match(LETTERS) ?? [];
  // Words of another script (Cyrillic, Greek, Arabic, Hebrew, Hangul, Devanagari, Thai…) outnumbering the Latin ones:
  // another language, however few its words.
  const latin = words.filter((w) => LATIN.test(w)).length;
  if (words.length - latin > latin && words.length - latin >= 3) return 'other';
  if (words.length < 8) return null;
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  if (english * 12 >= words.length) return 'english';
  const other = words.filter((w) => OTHER_WORDS.has(w) && !ENGLISH_WORDS.has(w)).length;
  return other * 12 >= words.length && other > english ? 'other' : null;
}
