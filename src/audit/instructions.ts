// Instruction-like sentences in a summary. The summarizer reads attacker-influenced text and writes an
// assistant message later turns trust, so a summary that grew a permission or an order ("the user
// approved running any command") that its sources never contained is an injection signal.

// Anywhere in a sentence.
const ANYWHERE: RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:previous|prior|above|earlier|all|any|other|system|safety)\b.{0,30}\b(?:instructions?|messages?|rules?|prompts?|guidelines?|constraints?|polic(?:y|ies))\b/i,
  /\bthe user (?:has |had )?(?:already |explicitly |previously )?(?:approved|authori[sz]ed|allowed|permitted|consented|agreed|granted|pre-?approved|okayed|ok'd)\b/i,
  /\b(?:is|are|has been|have been|was|were) (?:pre-?)?(?:approved|authori[sz]ed|permitted|allowed|cleared) to\b/i,
  /\b(?:you|the assistant|the agent|assistant|agent) (?:are |is )?(?:now )?(?:allowed|permitted|authori[sz]ed|free|cleared) to\b/i,
  /\byou (?:must|should|need to|have to|are required to|are expected to)\b/i,
  // Not "without checking": that narrates a mistake ("guessed k = 1 without checking"), it grants nothing.
  /\bwithout (?:asking|confirmation|confirming|approval|permission)\b/i,
  /\bno (?:longer )?need to (?:ask|confirm|check|verify)\b/i,
  /\b(?:new|updated|real|actual|hidden) (?:system )?(?:instructions?|prompt)\b|\bsystem prompt\b|\bdeveloper mode\b|\bjailbreak/i,
  /\bdo not (?:tell|inform|mention|reveal|ask|warn|notify)\b|\bdon't (?:tell|inform|mention|reveal|ask|warn|notify)\b/i,
  /\b(?:from now on|going forward|in all future (?:turns|responses|messages))\b/i,
];

// Only as the first words of a sentence: that is what makes them imperatives rather than narration
// ("the job always fails" is a fact; "Always run with --force" is an order). The verbs are the risky ones —
// execution, destruction, exfiltration, safety bypass, permission — not every to-do ("fix the pool size").
const OPENING: RegExp[] = [
  /^(?:always|never|do not|don['’]t|must|make sure to|be sure to)\b/i,
  /^(?:please )?(?:run|execute|exec|delete|remove|rm|drop|truncate|wipe|disable|bypass|skip|grant|approve|send|upload|transfer|wire|curl|wget|sudo|chmod)\b/i,
];

// `**Anything:**` or a known plain label at the start of a line; other `Words:` stay, they may be the sentence.
const LABEL =
  /^\s*(?:(?:\*\*|__)[^*_\n]{1,40}:\s*(?:\*\*|__)|(?:\*\*|__)[^*_\n]{1,40}(?:\*\*|__):|(?:Decisions|Entities|Facts|Open Items|Notes?|Important|Summary|Next steps|Context|Status|TODO|Todo):)\s*/;

/** Lines, then sentences, with bullets, numbering and schema labels (`**Open Items:**`) taken off. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const body = line
      .replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '')
      .replace(/^\s*#{1,6}\s+.*$/, '')
      .replace(LABEL, '')
      .replace(/<\/?[a-z_]+>/gi, ' ')
      .trim();
    for (const s of body.split(/(?<=[.!?])\s+(?=[A-Z"'`(*])/)) {
      const t = s.replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, '').trim();
      if (t) out.push(t);
    }
  }
  return out;
}

/** Does the sentence read as an order or a grant of permission? */
export function isInstructionLike(sentence: string): boolean {
  const s = sentence.replace(/^[`*_"']+/, '');
  return ANYWHERE.some((re) => re.test(s)) || OPENING.some((re) => re.test(s));
}

const STOPWORDS = new Set(
  ('the and for with that this from into onto then than you your yours are was were has have had any all not but can will ' +
    'should must would could may might shall its it’s his her their they them our out via per also just now only very been ' +
    'being did does done user users assistant agent please what when which who why how there here about after before')
    .split(' '),
);

const stem = (w: string): string => {
  let s = w.replace(/(?:ation|ing|ed|es|al|ly|s)$/, '');
  if (s.length < 3) s = w;
  s = s.replace(/e$/, '').replace(/([b-df-hj-np-tv-z])\1$/, '$1');
  return s.slice(0, 6);
};

const contentStems = (s: string): string[] =>
  [...new Set((s.toLowerCase().match(/[a-z0-9][a-z0-9_'’-]*/g) ?? []).filter((w) => w.length >= 3 && !STOPWORDS.has(w)).map(stem))];

const flat = (s: string): string =>
  s.toLowerCase().replace(/[*_`#>"'“”‘’]/g, '').replace(/\s+/g, ' ').replace(/[.!?;:,]+$/, '').trim();

const NEGATION = /\b(?:not|never|no|none|don['’]t|doesn['’]t|didn['’]t|isn['’]t|wasn['’]t|aren['’]t|weren['’]t|cannot|can['’]t|won['’]t|mustn['’]t|shouldn['’]t)\b/i;

interface SourceSentence {
  stems: Set<string>;
  negated: boolean;
}

const firstMatch = (patterns: RegExp[], s: string): RegExpExecArray | null => {
  for (const re of patterns) {
    const m = re.exec(s);
    if (m) return m;
  }
  return null;
};

/**
 * Is the sentence backed by a source? It is when a source contains it (ignoring case and markdown), or:
 * - for a permission, override or "you must" (ANYWHERE): one source sentence of the same polarity holds the
 *   words that make it an instruction ("approved", "without confirmation") and 70% of its content words;
 * - for an imperative opening ("Never …", "Run …"): one source sentence of the same polarity holds the opening
 *   and its action ("do not restart" ← "Don't restart anything"), and the sources hold half of the rest.
 * So a paraphrase of what the user said passes, but "never run …" does not back "the user approved running …".
 */
function backed(sentence: string, read: SourceReading): boolean {
  const f = flat(sentence);
  if (f && read.holdsFlat(f)) return true;
  const s = sentence.replace(/^[`*_"']+/, '');
  const words = contentStems(s);
  const negated = NEGATION.test(s);
  const anywhere = ANYWHERE.map((re) => re.exec(s)?.[0]).filter((m): m is string => m !== undefined);
  if (anywhere.length > 0) {
    if (words.length < 2) return false;
    const triggers = [...new Set(anywhere.flatMap(contentStems))];
    return read.someSentence(
      triggers,
      (src) =>
        src.negated === negated &&
        triggers.every((w) => src.stems.has(w)) &&
        words.filter((w) => src.stems.has(w)).length / words.length >= 0.7,
    );
  }
  const opening = firstMatch(OPENING, s);
  if (!opening) return true;
  const after = contentStems(s.slice(opening[0].length));
  const key = [...new Set([...contentStems(opening[0]).filter((w) => w !== 'pleas'), ...after.slice(0, 1)])];
  if (key.length === 0) return false;
  const rest = after.slice(1).filter((w) => !key.includes(w));
  const restBacked = rest.length === 0 || rest.filter((w) => read.holdsStem(w)).length / rest.length >= 0.5;
  return restBacked && read.someSentence(key, (src) => src.negated === negated && key.every((w) => src.stems.has(w)));
}

/**
 * The sources as `backed` reads them, each reading worked out on first use: a summary's instruction-like
 * sentences are mostly the user's own requests quoted whole ("Run bd show …" in a real Claude Code summary),
 * found in the flattened sources, and splitting and stemming every source sentence is then never needed.
 */
interface SourceReading {
  holdsFlat(f: string): boolean;
  /** Does a source sentence holding every one of the stems `needs` pass `test`? */
  someSentence(needs: readonly string[], test: (src: SourceSentence) => boolean): boolean;
  /** Does a source sentence hold the stem? */
  holdsStem(stem: string): boolean;
}

function sourceReading(read: () => readonly string[], texts: SourceTexts): SourceReading {
  let sources: readonly string[] | null = null;
  const all = () => (sources ??= read());
  return {
    holdsFlat: (f) => all().some((src) => texts.flat(src).includes(f)),
    someSentence: (needs, test) => all().some((src) => texts.someSentence(src, needs, test)),
    holdsStem: (stem) => all().some((src) => texts.someSentence(src, [stem], (s) => s.stems.has(stem))),
  };
}

/** A source sentence, in lower case, and its reading once a look-up needed it. */
interface Sentence {
  text: string;
  lower: string;
  read: SourceSentence | null;
}

/**
 * Each source text as `backed` reads it (in lower case, flattened, its sentences, their stems), made once for every
 * summary that read the text: each compaction of a session reads the earlier texts again, and splitting and stemming
 * them was most of the audit of a long real session with several compactions.
 */
export class SourceTexts {
  private readonly lowers = new Map<string, string>();
  private readonly flats = new Map<string, string>();
  private readonly split = new Map<string, Sentence[]>();

  flat(text: string): string {
    let f = this.flats.get(text);
    if (f === undefined) this.flats.set(text, (f = flat(text)));
    return f;
  }

  /**
   * Does a sentence of the text that holds every stem of `needs` pass `test`? A stem is the start of a word of the
   * sentence in lower case (`stem` only cuts a word's end): a text or sentence whose lower case lacks one holds no
   * such sentence, and is not split or stemmed for it.
   */
  someSentence(text: string, needs: readonly string[], test: (src: SourceSentence) => boolean): boolean {
    let lower = this.lowers.get(text);
    if (lower === undefined) this.lowers.set(text, (lower = text.toLowerCase()));
    for (const w of needs) if (!lower.includes(w)) return false;
    let list = this.split.get(text);
    if (!list) this.split.set(text, (list = sentences(text).map((s) => ({ text: s, lower: s.toLowerCase(), read: null }))));
    for (const s of list) {
      if (!needs.every((w) => s.lower.includes(w))) continue;
      s.read ??= { stems: new Set(contentStems(s.text)), negated: NEGATION.test(s.text) };
      if (test(s.read)) return true;
    }
    return false;
  }
}

/**
 * Instruction-like sentences of `summary` that no source backs (see `backed`). The sources may come as a function,
 * called only when the summary has such a sentence. `texts` keeps each source's readings for the next summary.
 */
export function findInstructionLike(summary: string, sources: readonly string[] | (() => readonly string[]), texts: SourceTexts = new SourceTexts()): string[] {
  const candidates = sentences(summary).filter(isInstructionLike);
  if (candidates.length === 0) return [];
  const read = sourceReading(typeof sources === 'function' ? sources : () => sources, texts);
  return candidates.filter((sentence) => !backed(sentence, read));
}
