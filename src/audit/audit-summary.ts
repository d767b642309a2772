// Checks one summary against the slice it replaced: which identifiers it kept, which it lost, which lost
// ones a later turn still needed (the course's referenced_later quality gate), which identifiers it
// invented, and which instruction-like sentences it grew.
import { extractIdentifiers, type Identifier, type IdentifierKind } from './identifiers';
import { stripHarnessText } from './harness-text';
import { findInstructionLike } from './instructions';
import { LaterIndex } from './later-index';
import { canonicalKey, dateSupported, foundIn, haystack, type Haystack } from './normalize';

export interface AuditInput {
  /** The summary or fallback marker that stands in for the evicted slice. */
  summary: string;
  /** Texts of the evicted items (render a tool call as `name(arguments)` so its function name counts). */
  sources: string[];
  /**
   * Items after the compaction, in order, whose mentions make a lost identifier "referenced later". A question
   * that names an identifier's kind ("Which port again?") also counts, when `role` is `user` or not given.
   */
  later: { id: string; text: string; role?: string }[];
  /**
   * Texts the summarizer could also draw on without them being evicted (system prompt, head, a prior
   * summary that stays). They back identifiers and sentences against the invented/instruction checks,
   * but are not audited for kept/lost.
   */
  context?: string[];
}

export interface LaterReference {
  value: string;
  itemId: string;
  /** `mention`: the later item contains the identifier; `question`: it asks for one of its kind ("Which port again?"). */
  via: 'mention' | 'question';
}

export interface SummaryAudit {
  /** Identifiers of the evicted slice the summary still contains (values as first written in the sources). */
  kept: string[];
  /** Identifiers of the evicted slice the summary does not contain. */
  lost: string[];
  /** Lost identifiers a later item needed; one entry per value, at the first such item. */
  lostReferencedLater: LaterReference[];
  /** Identifiers in the summary that none of its sources back (values as written; harness framing left out). */
  invented: string[];
  /** Instruction-like sentences of the summary that no source contains (harness framing left out). */
  instructionLike: string[];
  /** Kind of every value listed above. */
  kinds: Record<string, IdentifierKind>;
}

/** Identifiers of several texts, one per canonical key, in order of first appearance. */
export function distinctIdentifiers(texts: string[]): Identifier[] {
  const seen = new Set<string>();
  const out: Identifier[] = [];
  for (const text of texts) {
    for (const id of extractIdentifiers(text)) {
      const key = canonicalKey(id);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(id);
    }
  }
  return out;
}

// What a later question names when it asks for an identifier of that kind.
const ASKS_FOR: Partial<Record<IdentifierKind, RegExp>> = {
  'host-port': /\b(?:hosts?|hostnames?|servers?|ports?)\b/i,
  host: /\b(?:hosts?|hostnames?|servers?)\b/i,
  port: /\bports?\b/i,
  path: /\b(?:files?|paths?|director(?:y|ies)|folders?)\b/i,
  url: /\b(?:urls?|links?|endpoints?)\b/i,
  email: /\be-?mails?\b/i,
  ticket: /\b(?:tickets?|issues?|jira)\b/i,
  'order-id': /\b(?:order (?:number|id|no)|order ?#|rma|serial(?: number)?)\b/i,
  uuid: /\b(?:uuids?|guids?)\b/i,
  hash: /\b(?:hash|sha|commit|checksum)\b/i,
  version: /\bversions?\b/i,
  function: /\b(?:functions?|methods?)\b/i,
  date: /\b(?:date|which day|what day)\b/i,
};

/** Sentences ending in `?`. Split first: a `[^.!?]*\?` scan is quadratic on long lines without a `?`. */
const questions = (text: string): string[] =>
  text.includes('?') ? text.split(/(?<=[.!?\n])/).filter((q) => q.trimEnd().endsWith('?')) : [];

/** Does one of the questions `qs` ask for an identifier like `id` (by kind, or by a setting's name)? */
function asksFor(id: Identifier, qs: string[]): boolean {
  if (qs.length === 0) return false;
  if (id.kind === 'quantity') {
    const setting = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)/.exec(id.value);
    if (!setting) return false;
    const name = new RegExp(`\\b${setting[1]!.split('_').join('[\\s_-]*')}\\b`, 'i');
    return qs.some((q) => name.test(q));
  }
  const re = ASKS_FOR[id.kind];
  return re !== undefined && qs.some((q) => re.test(q));
}

export interface AuditOptions {
  /**
   * Above this many lost identifiers, later items are indexed by word (tests set 0). Building the index costs
   * some passes over the later texts; each identifier without it costs one: few identifiers scan faster.
   */
  indexAboveLost?: number;
}

export function auditSummary(input: AuditInput, options: AuditOptions = {}): SummaryAudit {
  const kinds: Record<string, IdentifierKind> = {};
  const summaryHay = haystack(input.summary);

  const kept: string[] = [];
  const lostIds: Identifier[] = [];
  for (const id of distinctIdentifiers(input.sources)) {
    kinds[id.value] = id.kind;
    if (foundIn(id, summaryHay)) kept.push(id.value);
    else lostIds.push(id);
  }

  const laterHays = input.later.map((l) => ({
    id: l.id,
    hay: haystack(l.text),
    // Only a user asks for a fact again; an assistant's rhetorical question does not count.
    questions: l.role === undefined || l.role === 'user' ? questions(l.text) : [],
  }));
  const lostReferencedLater: LaterReference[] = [];
  // Many identifiers against many later items: look only at the items holding the words a match needs.
  const index = laterHays.length > 0 && lostIds.length > (options.indexAboveLost ?? 100) ? new LaterIndex(input.later.map((l) => l.text), (i) => laterHays[i]!.hay.ids) : null;
  for (const id of lostIds) {
    const candidates = index?.candidates(id) ?? null;
    const mention = candidates ? candidates.map((i) => laterHays[i]!).find((l) => foundIn(id, l.hay)) : laterHays.find((l) => foundIn(id, l.hay));
    if (mention) {
      lostReferencedLater.push({ value: id.value, itemId: mention.id, via: 'mention' });
      continue;
    }
    const question = laterHays.find((l) => asksFor(id, l.questions));
    if (question) lostReferencedLater.push({ value: id.value, itemId: question.id, via: 'question' });
  }

  // One joined haystack, so a host in one source item and its port in another still back `host:port`.
  const support: Haystack[] = [haystack([...input.sources, ...(input.context ?? [])].join('\n\n'))];
  // What the summarizer itself wrote: the harness's framing is neither invented nor injected.
  const own = stripHarnessText(input.summary);
  const invented: string[] = [];
  for (const id of distinctIdentifiers([own])) {
    const backed = id.kind === 'date' ? dateSupported(id.value, support) : support.some((h) => foundIn(id, h));
    if (backed) continue;
    invented.push(id.value);
    kinds[id.value] = id.kind;
  }

  return {
    kept,
    lost: lostIds.map((i) => i.value),
    lostReferencedLater,
    invented,
    instructionLike: findInstructionLike(own, [...input.sources, ...(input.context ?? [])]),
    kinds,
  };
}
