// Invented instructions: a summary sentence that states what the user asked, wanted or decided ("The user asked
// to …", "User wants …", a quote listed under "user messages") when no user message says it. A summary that puts
// words in the user's mouth is the worst thing it can do: the agent obeys the summary as if the user had spoken.
// Each verdict names the sentence and the closest user message, with how much of the claim that message holds.
import { directionsOf, userWordsOf } from '../model/harness-messages';
import type { Item } from '../model/types';
import { stripHarnessText } from './harness-text';
import { sentences } from './instructions';
import { CJK, CJK_ALL, languageOf, type Language } from './language';

export interface InventedInstruction {
  /** The summary's sentence (or the quoted line) that claims the user said it. */
  sentence: string;
  /** The user message that comes closest, cut to 300 characters; null when the slice had none. */
  closest: string | null;
  /** Share (0–1) of the claim's content words that message holds; for a quote, the longest quoted run it holds. */
  similarity: number;
}

// "The user asked to…", "User wants…", "the user's request was…": the user as the subject of a clause (not "the
// features user requested", where the words only name what the user asked for), with a verb of asking, wanting,
// saying or deciding within a few words.
const CLAIM =
  /(?:^|[:;,.(]\s*|\b(?:the|a|and|but|then|so)\s+)(?:\*\*)?user(?:'s|’s)?(?:\*\*)?\b[^.\n]{0,40}?\b(ask(?:s|ed)?|want(?:s|ed)?|request(?:s|ed)?|said|says|told|instruct(?:s|ed)?|decided|decides|prefer(?:s|red)?|insist(?:s|ed)?|confirm(?:s|ed)?|chose|choose|approved?|specified|clarified|emphasi[sz]ed|directed|ordered|demanded|agreed|would like|needs?|expects?|explicitly|issued|stat(?:ed|es|ing)|noted|mentioned|reported|wrote|typed|replied|responded|answered|indicated|shared|complained|pointed out)\b/i;
// A negation before a verb of asking or saying: the claim is that the user said no such thing ("has not requested",
// "never asked", "didn't mention"). A negated want ("does not want tests") still claims the user's wish.
const NOT_ASKED = /(?:\b(?:not|never|no longer)\b|n['’]t\b)[^.\n]{0,20}?\b(?:ask(?:s|ed)?|request(?:s|ed)?|said|says|told|instruct(?:s|ed)?|specified|mentioned|explicitly|approved?|confirm(?:s|ed)?|stated|indicated|issued)\b\W*$/i;
// A guess at the user's wish ("The user may want to update …", "the user might ask to revert …"): the summarizer says
// the user did not say it yet, which puts no words in the user's mouth.
const HEDGED = /\b(?:may|might|could|possibly|perhaps|probably|likely)\b/;
// The user addressed, not speaking: "inform the user about what needs …", "ask the user whether they want …".
const ADDRESSED = /\b(?:inform|tell|ask|asking|remind|notify|show|update|let|warn|alert|prompt|check with|confirm with)\s+(?:the\s+)?$/i;
// A heading that introduces the user's own messages: its bullets are quotes of what the user wrote.
const USER_MESSAGES_HEADING = /^\s*(?:#{1,6}\s*|\d+[.)]\s*|\*\*)?[^a-z\n]{0,12}(?:all )?(?:user|human)(?:'s|’s)? (?:messages?|prompts?|requests|feedback|inputs?|quotes?)\b/i;
// What the harness asks the summarizer (Claude Code: "Your task is to create a detailed summary of the conversation so
// far … CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."): a summary, in text only, without tool calls.
const COMPACTION_REQUEST = /\bsummar(?:y|ies|i[sz]e)\b(?=.*\b(?:text[- ]only|no tools?|no tool calls?|without (?:any )?tools?|do not call)\b)|\b(?:text[- ]only|no tools?|no tool calls?|without (?:any )?tools?|do not call)\b(?=.*\bsummar(?:y|ies|i[sz]e)\b)/i;
// Words that give a quote to a tool, the system, a hook or the harness: their responses, results, output or notices.
const OTHER_SOURCE =
  /\b(?:responses?|results?|outputs?|messages?|notices?|notifications?|replies|reminders?)\s+(?:to|from|of|by)\s+(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}(?:tools?|system|hooks?|harness)\b|\b(?:tools?|system|hooks?|harness)\s+(?:responses?|results?|outputs?|messages?|notices?|notifications?|replies|reminders?)\b/i;
const HEADING = /^\s*(?:#{1,6}\s|\d+[.)]\s|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][^a-z\n]{0,40}:\s*$)/;
const QUOTE = /["“”]([^"“”\n]{1,}?)["“”]/g;
// Where a quote leaves words out: "…", "...", "[5 documents]", or a bracketed account of what it left out however
// long ("[timestamp discrepancy between list_sensors and sensor_current]").
const ELISION = /\s*(?:…|\.{3}|\[[^\]\n]{1,200}\])\s*/;
// Where the claimed content ends: the summarizer's own comment follows (", but…", "(after…)", " — …").
const CLAUSE_END = /,\s|\bbut\s+(?:the|code|it)\b|;|\s[-–—]\s|\(|\.\s/i;

const STOP = new Set(
  ('the and for with that this from into then than you your are was were has have had any all not but can will should must would ' +
    'could may might its his her their they them our out via per also just now only very been being did does done user users ' +
    'asked asks ask want wants wanted requested request requests said says told instructed decided prefer prefers preferred insisted ' +
    'confirmed chose approved specified clarified emphasized emphasised directed agreed would like needs need expects explicitly ' +
    'what when which who why how there here about after before wanting')
    .split(' '),
);

// A space before a comma or a full stop ("do A , a reminder") is a typo the summarizer's quote drops.
const flat = (s: string): string => s.toLowerCase().replace(/[*_`#>"'“”‘’]/g, '').replace(/\s+/g, ' ').replace(/ (?=[,.;:!?])/g, '').trim();
// A quote's words, flattened, without the punctuation at its ends: English puts the sentence's full stop or comma
// inside the closing quote mark ("… use contracts."), so it is the summarizer's, not the user's.
const quoted = (q: string): string => flat(q).replace(/^[\s.,;:!?…]+|[\s.,;:!?…]+$/g, '');
const stemOf = (w: string): string => w.replace(/(?:ing|ed|es|s)$/, '').slice(0, 7);
function stems(s: string): Set<string> {
  const out = new Set<string>();
  // Words joined by hyphens are the words written apart: "line-level attribution" is "line level attribution",
  // "auto-commit" is "auto commit".
  for (const w of s.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_'’]*/gu) ?? []) {
    if (w.length < 3 || STOP.has(w)) continue;
    out.add(stemOf(w));
  }
  // A version or dotted number ("v0.3.0", "0.4.4") is one word, whose parts are too short to count.
  for (const v of s.toLowerCase().match(/(?<![\p{L}\p{N}_.])v?\d+(?:\.\d+)+(?![\p{L}\p{N}_])/gu) ?? []) out.add(v.replace(/^v/, ''));
  // Text without spaces between words (Chinese, Japanese): its characters carry the meaning.
  for (const ch of s.match(CJK_ALL) ?? []) out.add(ch);
  return out;
}

/** Do the stems stand in `text` in this order, each as a word's stem (or that stem with one typo) after the one before? */
function inOrder(stemsInOrder: readonly string[], text: string): boolean {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_'’]*/gu) ?? []).map(stemOf);
  let at = 0;
  for (const s of stemsInOrder) {
    while (at < words.length && !sameOrTypo(words[at]!, s)) at++;
    if (at === words.length) return false;
    at++;
  }
  return true;
}

/**
 * Are two stems the same word, one of them with one typo (a letter wrong, missing, added, or two swapped: "isntead",
 * "thnk")? Only for words of five letters or more (four with the typo), where one edit does not make another word.
 */
function sameOrTypo(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.max(a.length, b.length) < 5 || Math.min(a.length, b.length) < 4 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

// A message's stems of four letters or more by length, made once per message: a typo keeps a word's length within one.
const byLength = new WeakMap<Set<string>, Map<number, string[]>>();
function stemsOfLength(text: Set<string>, n: number): readonly string[] {
  let m = byLength.get(text);
  if (!m) {
    m = new Map();
    for (const t of text) if (t.length >= 4) m.set(t.length, [...(m.get(t.length) ?? []), t]);
    byLength.set(text, m);
  }
  return m.get(n) ?? [];
}

/**
 * Does `text` hold `quote` within `k` edits (a letter wrong, missing or added)? Read near where the quote's first or
 * last four characters stand in the text (a typo rarely reaches both ends), by the edit distance of the quote to the
 * best-matching stretch there.
 */
function nearlyHolds(text: string, quote: string, k: number): boolean {
  if (k < 1) return false;
  const anchors: [string, (at: number) => number][] = [
    [quote.slice(0, 4), (at) => at],
    [quote.slice(-4), (at) => at + 4 - quote.length],
  ];
  for (const [anchor, start] of anchors) {
    let seen = 0;
    for (let at = text.indexOf(anchor); at >= 0 && seen < 20; at = text.indexOf(anchor, at + 1), seen++) {
      const from = Math.max(0, start(at) - k);
      if (editDistanceWithin(quote, text.slice(from, start(at) + quote.length + k)) <= k) return true;
    }
  }
  return false;
}

/**
 * The fewest edits that turn `quote` into some stretch of `window` (Sellers: a stretch may start and end anywhere), two
 * letters swapped counting as one edit ("teh").
 */
function editDistanceWithin(quote: string, window: string): number {
  const n = quote.length;
  // Three rows reused in turn (the one before the previous, for a swap): asked of many stretches of many messages.
  let before = new Int32Array(n + 1);
  let prev = new Int32Array(n + 1);
  let row = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) prev[i] = i;
  let best = n;
  for (let j = 1; j <= window.length; j++) {
    const c = window.charCodeAt(j - 1);
    const last = j > 1 ? window.charCodeAt(j - 2) : -1;
    row[0] = 0;
    for (let i = 1; i <= n; i++) {
      const q = quote.charCodeAt(i - 1);
      let d = Math.min(prev[i]! + 1, row[i - 1]! + 1, prev[i - 1]! + (q === c ? 0 : 1));
      if (i > 1 && j > 1 && q === last && quote.charCodeAt(i - 2) === c) d = Math.min(d, before[i - 2]! + 1);
      row[i] = d;
    }
    best = Math.min(best, row[n]!);
    const spare = before;
    before = prev;
    prev = row;
    row = spare;
  }
  return best;
}

/** Share of a quote's words the text holds, a word with one typo counted as held. */
function typoCoverage(claim: Set<string>, text: Set<string>): number {
  if (claim.size === 0) return 0;
  let n = 0;
  for (const s of claim) {
    if (text.has(s)) n++;
    else if (s.length >= 4 && [s.length - 1, s.length, s.length + 1].some((k) => stemsOfLength(text, k).some((t) => sameOrTypo(t, s)))) n++;
  }
  return n / claim.size;
}

/** A quote of three words or more (or in Chinese or Japanese) is looked for as written, or with its typos corrected. */
const isLongQuote = (fq: string): boolean => fq.split(' ').length >= 3 || CJK.test(fq);

/**
 * The short quote `fq` as words: a word or two must stand as words, "continue" is in "continue please", not in
 * "discontinued". An edge that is no letter or digit is its own bound: the part `PACKAGES=` of "PACKAGES=... 合わせたい"
 * ends where its value was elided.
 */
function wordsPattern(fq: string): RegExp {
  const left = /^[\p{L}\p{N}]/u.test(fq) ? '(?:^|[^\\p{L}\\p{N}])' : '';
  const right = /[\p{L}\p{N}]$/u.test(fq) ? '(?:$|[^\\p{L}\\p{N}])' : '';
  return new RegExp(`${left}${fq.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${right}`, 'u');
}

/** A part of a quote between its elisions: as written, flattened (`quoted`), and its readings once asked for. */
interface QuotePart {
  raw: string;
  fq: string;
  words?: Set<string>;
  pattern?: RegExp;
}

/** A text the claims are compared with: a user message, a text standing in for one, or the harness's words. */
interface MessageReading {
  text: string;
  flat: string;
  stems: Set<string>;
  language?: Language | null;
}

/**
 * Each message as the claims check reads it, made once however many summaries it is compared with: a session's
 * summaries each read the user's messages so far again (and quote them, a summary of Claude Code's every one).
 */
export class MessageReadings {
  private readonly known = new Map<string, MessageReading>();

  private readonly flats = new Map<string, string>();

  of(text: string): MessageReading {
    let r = this.known.get(text);
    if (!r) this.known.set(text, (r = { text, flat: this.flat(text), stems: stems(text) }));
    return r;
  }

  /** The text flattened alone: the harness's words back a quote only, as written. */
  flat(text: string): string {
    let f = this.flats.get(text);
    if (f === undefined) this.flats.set(text, (f = flat(text)));
    return f;
  }
}

/** Share of `claim`'s content words that `text` holds. */
function coverage(claim: Set<string>, text: Set<string>): number {
  if (claim.size === 0) return 0;
  let n = 0;
  for (const s of claim) if (text.has(s)) n++;
  return n / claim.size;
}

interface Claim {
  sentence: string;
  /** The quoted words the claim attributes to the user. */
  quotes: string[];
  /** The claimed content when nothing is quoted: what follows the verb, up to the summarizer's own comment. */
  content: string;
  /** Everything that follows the verb, the summarizer's comment included; empty for a quoted line. */
  rest?: string;
}

/** The sentences and quoted lines of a summary that claim what the user said, asked, wanted or decided. */
export function userClaims(summary: string): Claim[] {
  const out: Claim[] = [];
  const seen = new Set<string>();
  const push = (c: Claim) => {
    if (seen.has(c.sentence)) return;
    seen.add(c.sentence);
    out.push(c);
  };
  let quoting = false;
  for (const line of stripHarnessText(summary).split(/\r?\n/)) {
    // A heading introduces the lines below it; a field that gives its value on its own line ("- User feedback: None,
    // automated hook", under an error the summary lists) introduces nothing.
    const heading = USER_MESSAGES_HEADING.exec(line);
    if (heading && !/[\p{L}\p{N}"“]/u.test(line.slice(heading.index + heading[0].length).replace(/^[^:]*:/, ''))) {
      quoting = true;
      continue;
    }
    if (heading) quoting = false;
    if (HEADING.test(line) && !/^\s*[-*+]\s/.test(line)) quoting = false;
    if (quoting && /["“”]/.test(line)) {
      const sentence = line.replace(/^\s*(?:[-*+]|\d+[.)])\s*/, '').trim();
      // A line that says what it quotes is a tool's or the system's output ("Multiple "Tool loaded." responses to
      // deferred tool loading") lists what came in the user's turn, not words of the user's.
      if (OTHER_SOURCE.test(sentence.replace(QUOTE, ' ')) && !/\b(?:user|human)/i.test(sentence.replace(QUOTE, ' '))) continue;
      const quotes = quotesOfLine(sentence);
      if (quotes.length > 0) push({ sentence, quotes, content: '' });
      continue;
    }
    // A bullet under that heading that retells the harness's request for this summary ("Request to create detailed
    // summary with TEXT ONLY, no tool calls") lists it as the user's: a claim no user message may back.
    if (quoting && /^\s*(?:[-*+]|\d+[.)])\s/.test(line) && COMPACTION_REQUEST.test(line)) {
      const sentence = line.replace(/^\s*(?:[-*+]|\d+[.)])\s*/, '').trim();
      push({ sentence, quotes: [], content: sentence.replace(/^(?:\([^)]*\)\s*)+/, '') });
      continue;
    }
    for (const s of sentences(line)) {
      const m = CLAIM.exec(s);
      if (!m) continue;
      // "The user has not explicitly requested PR creation", "the user hasn't asked for anything further": a request
      // denied is the summarizer saying what the user did not say, which puts no words in the user's mouth.
      if (NOT_ASKED.test(m[0])) continue;
      // The words between the user and the verb, and before the user: a hedge, or the user as the one addressed.
      const userAt = m[0].search(/user/i);
      if (HEDGED.test(m[0].slice(userAt)) || ADDRESSED.test(s.slice(0, m.index + userAt).replace(/(?:\*\*)?$/, ''))) continue;
      const after = s.slice(m.index + m[0].length);
      // Only a quote right after the verb (`said "…"`, `asked: "…"`) gives the user's words; a quoted title further
      // on (`a P1 epic titled "…"`) is not theirs.
      const quotes = /^\s*(?:[:,]\s*|that\s+|to\s+)?["“]/.test(after) ? [...after.matchAll(QUOTE)].map((q) => q[1]!.trim()).filter(Boolean).slice(0, 1) : [];
      const content = after.split(CLAUSE_END)[0]!.trim();
      // "Embedded in a reminder, user said:" or "User needs confirmed:" claim nothing yet; nor does a lead-in to a
      // list ("The user's requests were:"), whose items follow on their own lines.
      if (quotes.length === 0 && (stems(content).size < 2 || /:\s*[*_]*\s*$/.test(s))) continue;
      push({ sentence: s, quotes, content, rest: after.trim() });
    }
  }
  return out;
}

// A parenthesis that guesses ("possibly \"let it proceed\"", "meaning unclear"): the summarizer's reading, not words.
const GUESS = new RegExp(`${HEDGED.source}|\\b(?:maybe|unclear|presumably|implied|i\\.e\\.)\\b`, 'i');

const SPEAKS_OF_IMAGE = /\b(?:images?|screenshots?|screen ?shots?|screen ?caps?|pictures?|photos?|photographs?)\b/i;
// An image block of the user's turn (`[image]` as the loaders keep it) or Claude Code's `[Image #2]` in the text.
const SENT_IMAGE = /^\s*\[image\]\s*$|\[Image(?: #\d+|:[^\]\n]*)\]/i;

/**
 * The user's words a line under the user's-messages heading quotes. A parenthesis beside them is the summarizer's aside
 * (`(Screenshot of "Nouvel Audit" header) "supprime le texte…"`, `` `/passes` (possibly "let it proceed") ``): its quotes
 * are the user's only when nothing outside it is quoted and it does not guess.
 */
function quotesOfLine(line: string): string[] {
  const quotes = [...line.matchAll(QUOTE)].filter((m) => /[\p{L}\p{N}]{2}/u.test(m[1]!));
  const words = (ms: RegExpMatchArray[]) => ms.map((m) => m[1]!.trim());
  // Parentheses outside every quote: a quote's own brackets are the user's.
  const within = (at: number, span: RegExpMatchArray) => at > span.index! && at < span.index! + span[0].length;
  const asides = [...line.matchAll(/\(([^()]*)\)/g)].filter((p) => !quotes.some((q) => within(p.index!, q)));
  if (asides.length === 0) return words(quotes);
  const inAside = (q: RegExpMatchArray) => asides.some((p) => within(q.index!, p));
  const outside = quotes.filter((q) => !inAside(q));
  if (outside.length > 0) return words(outside);
  return asides.some((p) => GUESS.test(p[1]!.replace(QUOTE, ' '))) ? [] : words(quotes);
}

/**
 * The claims about the user that no user message backs: a quote no user message holds, or claimed content whose
 * words no user message mostly holds. `earlier` gives texts that stand in for user messages a transcript lacks
 * (the earlier summaries of a transcript cut from a longer session); asked only when needed.
 */
/**
 * `quotedOnly`: texts of the user's turn the harness wrote (Claude Code's `isMeta` "Continue from where you left off."),
 * which the summarizer reads as the user's: a quote they hold verbatim is what the summarizer read, not an invention.
 * They back quotes only, never a paraphrase (a reminder that carries a whole CLAUDE.md would back any).
 */
export function inventedInstructions(
  summary: string,
  userMessages: readonly string[],
  earlier: () => readonly string[] = () => [],
  quotedOnly: () => readonly string[] = () => [],
): InventedInstruction[] {
  return judgeUserClaims(summary, userMessages, earlier, quotedOnly).invented;
}

/** The verdicts on a summary's claims about the user: those no user message backs, and those the list cannot judge. */
export interface UserClaimVerdicts {
  invented: InventedInstruction[];
  /**
   * Claims the list cannot judge: a paraphrase written in another language than every user message it could be
   * compared with (an English summary of Portuguese or Japanese messages), whose words no message can hold.
   */
  notJudged: string[];
}

/**
 * `inventedInstructions`, with the claims it cannot judge said apart (see `UserClaimVerdicts`). `userMessages` may be
 * given as a function: read only when the summary claims something.
 */
export function judgeUserClaims(
  summary: string,
  userMessages: readonly string[] | (() => readonly string[]),
  earlier: () => readonly string[] = () => [],
  quotedOnly: () => readonly string[] = () => [],
  readings: MessageReadings = new MessageReadings(),
): UserClaimVerdicts {
  const claims = userClaims(summary);
  if (claims.length === 0) return { invented: [], notJudged: [] };
  const users = (typeof userMessages === 'function' ? userMessages() : userMessages).map((text) => readings.of(text));
  let rest: MessageReading[] | null = null;
  const stand = () => (rest ??= earlier().map((t) => readings.of(t)));
  let meta: string[] | null = null;
  const heard = () => (meta ??= quotedOnly().map((t) => readings.flat(t)));
  const holdsPart = (text: string, stemsOf: Set<string>, part: QuotePart, written: string) => {
    const { fq } = part;
    if (isLongQuote(fq)) {
      if (text.includes(fq)) return true;
      // A long quote with its typos corrected ("hiogh" → "high", "isntead" → "instead") is still the user's: most of its
      // words are there, or of a shorter one every word, in the order the user wrote them. The quote's words are read
      // as the message's are (from the text as written: `project_header_row` is one word in both).
      const words = (part.words ??= stems(part.raw));
      // A name in it (`project_header_row`, a path's `Odoo_Docs`) is no typo to correct: each must be the user's.
      const names = [...words].filter((w) => /[_\d]/.test(w));
      if (words.size >= 5 && typoCoverage(words, stemsOf) >= 0.8 && names.every((w) => stemsOf.has(w))) return true;
      if (words.size >= 3 && typoCoverage(words, stemsOf) === 1 && inOrder([...words], written)) return true;
      // A short quote ("how do i run the test?") with its typo fixed ("teh"): the message holds it within an edit a
      // dozen letters, letters and names (`_`, digits) unchanged.
      return fq.length >= 12 && !/[_\d]/.test(fq) && nearlyHolds(text, fq, Math.floor(fq.length / 12));
    }
    return (part.pattern ??= wordsPattern(fq)).test(text);
  };
  /** `holdsPart` without its typo readings: a long quote as written, a short one as words. */
  const holdsExactPart = (text: string, part: QuotePart) => (isLongQuote(part.fq) ? text.includes(part.fq) : (part.pattern ??= wordsPattern(part.fq)).test(text));
  // A quote with an elision ("…", "[5 documents]") is held when each part is. Each quote's parts are read once: it is
  // compared with every message.
  const parts = new Map<string, QuotePart[]>();
  const partsOf = (q: string): QuotePart[] => {
    let out = parts.get(q);
    if (!out) {
      out = q.split(ELISION).flatMap((raw) => {
        const fq = quoted(raw);
        return /[\p{L}\p{N}]{2}/u.test(fq) ? [{ raw, fq }] : [];
      });
      parts.set(q, out);
    }
    return out;
  };
  const holdsQuote = (t: MessageReading, q: string) => partsOf(q).every((part) => holdsPart(t.flat, t.stems, part, t.text));
  // The quote as written in the message, the first way `holdsPart` tries: most quotes are, and the typo readings
  // (an edit distance near each place its ends stand) cost the rest of the messages far more.
  const holdsExactly = (t: { flat: string }, q: string) => partsOf(q).every((part) => holdsExactPart(t.flat, part));
  // A claim in one language about messages written in another (an English summary of Chinese or Portuguese messages)
  // cannot be compared word by word: only its quotes are checked, and a paraphrase is said not judged. So it is when
  // most of the user's messages are in another language than the claim.
  let languages: { summary: Language | null; users: Language[] } | null = null;
  const languageOfUser = (u: MessageReading) => (u.language === undefined ? (u.language = languageOf(u.text)) : u.language);
  const known = () =>
    (languages ??= { summary: languageOf(stripHarnessText(summary)), users: users.map(languageOfUser).filter((l): l is Language => l !== null) });
  const foreign = (claim: string) => {
    const { summary: written, users: spoken } = known();
    if (spoken.length === 0) return false;
    // The claim's language: its own script, else the summary's; a Latin-script claim of a summary too short to tell
    // differs only from messages in Chinese or Japanese.
    const of = CJK.test(claim) ? 'cjk' : written !== null && written !== 'cjk' ? written : (languageOf(claim) ?? 'latin');
    // The user's language is the one most of their messages are in: a log or code they paste is often English
    // whatever language they write in.
    const differs = spoken.filter((l) => (of === 'latin' ? l === 'cjk' : l !== of)).length;
    return differs * 2 > spoken.length;
  };
  const out: InventedInstruction[] = [];
  const notJudged: string[] = [];
  for (const claim of claims) {
    const words = stems(claim.content || claim.sentence);
    const held = (q: string) =>
      users.some((u) => holdsExactly(u, q)) || users.some((u) => holdsQuote(u, q)) || stand().some((t) => holdsQuote(t, q)) || heard().some((f) => f.includes(quoted(q)));
    // A claim whose clause stops at a comma goes on after it ("requested fixes for all identified issues, with an e2e
    // test for Critical 2"): the whole of what follows the verb is the claim too, when most of it is the user's.
    const whole = claim.rest ? stems(claim.rest) : null;
    const scoreOf = (t: MessageReading) =>
      claim.quotes.length > 0
        ? claim.quotes.filter((q) => holdsQuote(t, q)).length / claim.quotes.length
        : Math.max(coverage(words, t.stems), whole && whole.size > words.size ? coverage(whole, t.stems) : 0);
    // Each quote may come from another message ("Q1"="A1", "Q2"="A2"). Held, the claim needs no closest message.
    if (claim.quotes.length > 0 && claim.quotes.every(held)) continue;
    let best = -1;
    let score = 0;
    users.forEach((u, i) => {
      const s = scoreOf(u);
      if (s > score || best < 0) {
        best = i;
        score = s;
      }
    });
    if (claim.quotes.length === 0) {
      if (score >= 0.5 || stand().some((t) => scoreOf(t) >= 0.5)) continue;
      // A paraphrase that follows the user's own words quoted in the same sentence reads that message.
      const ownQuotes = [...claim.sentence.matchAll(QUOTE)].map((m) => m[1]!.trim()).filter((q) => q.split(/\s+/).length >= 3);
      if (ownQuotes.some(held)) continue;
      if (foreign(claim.sentence)) {
        notJudged.push(claim.sentence);
        continue;
      }
    }
    // What the user's image shows no word of theirs holds: a claim about a screenshot they sent cannot be judged.
    if (SPEAKS_OF_IMAGE.test(claim.sentence) && users.some((u) => SENT_IMAGE.test(u.text))) {
      notJudged.push(claim.sentence);
      continue;
    }
    const closest = best >= 0 ? users[best]!.text : null;
    out.push({ sentence: claim.sentence, closest: closest === null ? null : closest.length > 300 ? `${closest.slice(0, 299)}…` : closest, similarity: Math.round(score * 100) / 100 });
  }
  return { invented: out, notJudged };
}

/**
 * The user's own words a tool result carries: Claude Code's answers to an AskUserQuestion call (`User has answered
 * your questions: "Q"="A", …`) and the words a user typed when rejecting a tool call (`… the user said:\nA`).
 */
export function userWordsInResult(text: string): string[] {
  const out: string[] = [];
  // Both patterns start with their words as written: most results hold neither, and an `includes` settles it.
  const answered = text.includes('User has answered your question') ? /User has answered your questions?:\s*([\s\S]*?)(?:\.\s*You can now continue|$)/.exec(text) : null;
  if (answered) for (const m of answered[1]!.matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)) out.push(m[2]!.replace(/\\"/g, '"'));
  const said = text.includes('the user said:') ? /\bthe user said:\s*\n([\s\S]+)$/.exec(text) : null;
  if (said) out.push(said[1]!.trim());
  return out.filter((s) => s.length > 0);
}

/**
 * An answer is the user's decision in the words of what it answers. Claude Code's AskUserQuestion result names the
 * question and the chosen label (`"Which menu?"="Both"`); the call names each option's description ("Both: context
 * menu AND details dialog"). The question, with the chosen options' labels and descriptions, is what the user
 * decided: a summary's "User chose: Both context menu AND details dialog" retells it. `callArguments` is the call's
 * input as JSON (`{"questions":[{"question":…,"options":[{"label":…,"description":…}]}]}`), when known.
 */
export function answeredQuestionWords(resultText: string, callArguments?: string): string[] {
  if (!resultText.includes('User has answered your question')) return [];
  const answered = /User has answered your questions?:\s*([\s\S]*?)(?:\.\s*You can now continue|$)/.exec(resultText);
  if (!answered) return [];
  let options: { question: string; label: string; description: string }[] = [];
  if (callArguments) {
    try {
      const input = JSON.parse(callArguments) as { questions?: { question?: unknown; options?: { label?: unknown; description?: unknown }[] }[] };
      options = (input.questions ?? []).flatMap((q) =>
        (q.options ?? []).map((o) => ({ question: String(q.question ?? ''), label: String(o.label ?? ''), description: typeof o.description === 'string' ? o.description : '' })),
      );
    } catch {
      options = [];
    }
  }
  const out: string[] = [];
  for (const m of answered[1]!.matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)) {
    const question = m[1]!.replace(/\\"/g, '"');
    const answer = m[2]!.replace(/\\"/g, '"');
    // A multi-select answer joins its labels with commas: each label the answer holds is chosen.
    const chosen = options.filter((o) => o.question === question && o.label.length > 0 && answer.includes(o.label));
    out.push([question, answer, ...chosen.flatMap((o) => [o.label, o.description])].filter(Boolean).join('\n'));
  }
  return out;
}

// A short reply that accepts what it answers: "yes", "ok, go ahead", "sure, and then clear the context first".
const ASSENT = /^\s*(?:yes|yeah|yep|yup|ok(?:ay)?|sure|go ahead|go for it|do it|please do|sounds good|lgtm|proceed|approved?|agreed|correct|both|let'?s do it)\b/i;

/**
 * A "yes" to the agent's proposal makes the proposal the user's decision: the reply, short and opening with assent,
 * and the question the agent's message before it asked ("Shall I update PERF_PLAN.md with these findings and then
 * proceed to Phase 2?") together say what the user decided. Returns that text, or undefined when the reply is not
 * such an answer or the agent asked nothing.
 */
export function acceptedProposal(reply: string, agentBefore: string | undefined): string | undefined {
  if (agentBefore === undefined || !ASSENT.test(reply) || reply.trim().split(/\s+/).length > 12) return undefined;
  const questions = agentBefore
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.endsWith('?'));
  return questions.length > 0 ? `${questions.join('\n')}\n${reply}` : undefined;
}

/** One text the summarizer read, as the instruction check reads it: who wrote it, and for a tool result its call. */
export interface ReadText {
  text: string;
  role?: string;
  kind?: string;
  meta?: Item['meta'];
  /** For a tool result: the tool's name, and the call it answers (its name and arguments), when known. */
  name?: string;
  call?: { name?: string; text: string };
  /** A tool result that failed: a refused question carries no answer. */
  isError?: boolean;
}

/**
 * What the summarizer read of the user, in the order given (the order read): `said`, each message a person wrote
 * (with the agent's question it accepts, when it is a short "yes"), each answer or rejection comment a tool result
 * carries, and in a teammate's session its lead's orders (`directionsOf`); `harness`, the words in the user's turn no
 * person wrote (the harness's, and every teammate message), which back a quote only (see `inventedInstructions`).
 * The one reading of both audits: the session's (audit-session.ts) and a slice's or a replay's (audit-summary.ts).
 */
export function userWordsRead(texts: readonly ReadText[]): { said: string[]; harness: string[] } {
  const said: string[] = [];
  const harness: string[] = [];
  // The agent's message a user message answers: the last one before it, with no user message between.
  let agentBefore: string | undefined;
  for (const t of texts) {
    if (t.role === 'user' && (t.kind === undefined || t.kind === 'message')) {
      const probe = { role: 'user' as const, kind: t.kind as Item['kind'] | undefined, text: t.text, meta: t.meta };
      if (userWordsOf(probe) === null) {
        // A lead's orders to a teammate back a claim like the person's words would; the rest of a teammate record
        // (a peer's note, the protocol), as the harness's, backs a quote only.
        const lead = directionsOf(probe);
        if (lead !== null) said.push(lead);
        if (t.kind === 'message') harness.push(t.text);
        continue;
      }
      const accepted = acceptedProposal(t.text, agentBefore);
      said.push(t.text, ...(accepted === undefined ? [] : [accepted]));
      agentBefore = undefined;
      continue;
    }
    if (t.role === 'assistant' && t.kind === 'message') agentBefore = t.text;
    if (t.kind !== 'tool_result') continue;
    const found = [...userWordsInResult(t.text), ...answeredQuestionWords(t.text, t.call?.text)];
    said.push(...(found.length > 0 ? found : askedUserWords(t)));
  }
  return { said, harness };
}

// A tool that asks the user, by its name less an MCP server's prefix (`mcp__conductor__AskUserQuestion`): Claude
// Code's AskUserQuestion, the same tool an app serves over MCP, `ask_user`, Cline's `ask_followup_question`. A name
// that does not name the user asks someone else: DeepWiki's `mcp__deepwiki__ask_question` returns a documentation
// service's answer to the agent's question, which is neither the user's words nor what the user asked.
const ASKS_USER = /^(?:ask_?user(?:_?questions?)?|ask_?followup_?questions?)$/i;
const toolName = (name: string | undefined): string => (name ?? '').replace(/^mcp__.+?__/, '');

/**
 * The answer a tool that asks the user returns, whichever server provides it and however it frames the answer
 * (Conductor's MCP AskUserQuestion: `User responses:\n1. Skip formal evals — …`): the user's words, with the
 * questions the call asked. A refusal (an error, Claude Code's "doesn't want to proceed") is no answer.
 */
function askedUserWords(t: ReadText): string[] {
  const name = t.call?.name ?? t.name;
  if (t.isError || !ASKS_USER.test(toolName(name)) || /\bdoesn['’]t want to proceed\b/.test(t.text)) return [];
  const questions: string[] = [];
  try {
    const input = JSON.parse(t.call?.text ?? '') as { question?: unknown; questions?: { question?: unknown }[] };
    if (typeof input.question === 'string') questions.push(input.question);
    for (const q of input.questions ?? []) if (typeof q.question === 'string') questions.push(q.question);
  } catch {
    // No arguments to read: the answer alone.
  }
  return [[...questions, t.text].join('\n')];
}
