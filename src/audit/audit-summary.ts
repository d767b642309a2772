// Checks one summary against the slice it replaced: which identifiers it kept, which it lost, which lost
// ones a later turn still needed (the course's referenced_later quality gate), which identifiers it
// invented, and which instruction-like sentences it grew.
import { extractIdentifiers, type Identifier, type IdentifierKind } from './identifiers';
import { stripHarnessText } from './harness-text';
import { findInstructionLike } from './instructions';
import { asksAgain, asksFor, questions } from './questions';
import { textKeys } from './key-index';
import { LaterIndex } from './later-index';
import type { MentionKeys } from './mention-keys';
import { isHarnessMessage } from '../model/harness-messages';
import { lineSet, needleOf, onlyEchoes } from './echo';
import { isNoise, type NoiseContext } from './noise';
import { canonicalKey, dateSupported, foundIn, haystack, referencedIn, type Haystack } from './normalize';
import { setOwn } from '../model/dictionary';

export interface AuditInput {
  /** The summary or fallback marker that stands in for the evicted slice. */
  summary: string;
  /** Texts of the evicted items (render a tool call as `name(arguments)` so its function name counts). */
  sources: string[];
  /**
   * Items after the compaction, in order, whose mentions make a lost identifier "referenced later". A question
   * that names an identifier's kind ("Which port again?") also counts, when `role` is `user` or not given.
   */
  later: { id: string; text: string; role?: string; kind?: string; call?: string }[];
  /**
   * For each source, the fetch key (tool and target, see refetch/call-target.ts) of the call whose result it is. A
   * later result with the same key repeats the fetch: it shows the identifier again without a turn asking for it.
   */
  sourceCalls?: (string | null)[];
  /**
   * Texts the summarizer could also draw on without them being evicted (system prompt, head, a prior
   * summary that stays). They back identifiers and sentences against the invented/instruction checks,
   * but are not audited for kept/lost.
   */
  context?: string[];
  /** `YYYY-MM-DD` of the days the session ran: its own dates are not reported (see noise.ts). */
  sessionDays?: readonly string[];
}

export interface LaterReference {
  value: string;
  /** The item that refers to it: a later user message, tool call or tool result (never a harness notice). */
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
  return distinctOf(texts.map(extractIdentifiers));
}

/** One identifier per canonical key, in order of first appearance, from each text's identifiers in order. */
export function distinctOf(perText: Identifier[][]): Identifier[] {
  const seen = new Set<string>();
  const out: Identifier[] = [];
  for (const ids of perText) {
    for (const id of ids) {
      const key = canonicalKey(id);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(id);
    }
  }
  return out;
}

export interface AuditOptions {
  /**
   * Above this many lost identifiers, later items are indexed by word (tests set 0). Building the index costs
   * some passes over the later texts; each identifier without it costs one: few identifiers scan faster.
   */
  indexAboveLost?: number;
}

/**
 * Which identifiers of the evicted slice the summary kept and which it lost; `kinds` gets the kind of each.
 * With `keysOf` (see mention-keys.ts), an identifier whose keys the summary lacks is lost without a look.
 */
export function keptAndLost(
  summary: string,
  sourceIds: Identifier[],
  kinds: Record<string, IdentifierKind>,
  keysOf?: (id: Identifier) => MentionKeys,
): { kept: string[]; lost: Identifier[] } {
  const summaryHay = haystack(summary);
  const summaryKeys = keysOf ? textKeys(summary) : null;
  const kept: string[] = [];
  const lost: Identifier[] = [];
  for (const id of sourceIds) {
    setOwn(kinds, id.value, id.kind);
    const keys = keysOf?.(id) ?? null;
    const mayHold = !keys || !summaryKeys || keys.some((group) => group.every((k) => summaryKeys.has(k)));
    if (mayHold && foundIn(id, summaryHay)) kept.push(id.value);
    else lost.push(id);
  }
  return { kept, lost };
}

/** The identifiers the summarizer itself wrote: the harness's framing is neither invented nor injected. */
export const ownIdentifiers = (summary: string): Identifier[] => distinctIdentifiers([stripHarnessText(summary)]);

/**
 * Identifiers and instruction-like sentences the summary wrote that nothing it read backs. `support` gives the
 * evicted texts, then the context texts; it is called only when the summary has something to check. `backs`
 * answers for an identifier as the texts joined with blank lines would (see session-support.ts).
 */
export function unbacked(
  summary: string,
  support: () => string[],
  kinds: Record<string, IdentifierKind>,
  backs?: (id: Identifier) => boolean,
  noise: NoiseContext = {},
): { invented: string[]; instructionLike: string[] } {
  const own = stripHarnessText(summary);
  let texts: string[] | undefined;
  const read = () => (texts ??= support());
  // One joined haystack, so a host in one source item and its port in another still back `host:port`.
  let joined: Haystack | undefined;
  const backedByJoined = (id: Identifier) => {
    joined ??= haystack(read().join('\n\n'));
    return id.kind === 'date' ? dateSupported(id.value, [joined]) : foundIn(id, joined);
  };
  const invented: string[] = [];
  for (const id of distinctIdentifiers([own])) {
    if (isNoise(id, noise) || (backs ?? backedByJoined)(id)) continue;
    invented.push(id.value);
    setOwn(kinds, id.value, id.kind);
  }
  return { invented, instructionLike: findInstructionLike(own, read) };
}

export function auditSummary(input: AuditInput, options: AuditOptions = {}): SummaryAudit {
  const kinds: Record<string, IdentifierKind> = {};
  const noise: NoiseContext = { sessionDays: new Set(input.sessionDays ?? []) };
  const sourceIds = distinctIdentifiers(input.sources).filter((id) => !isNoise(id, noise));
  const { kept, lost: lostIds } = keptAndLost(input.summary, sourceIds, kinds);

  const later = input.later.filter((l) => isReference(l.role, l.kind, l.text));
  const laterHays = later.map((l) => ({
    id: l.id,
    hay: haystack(l.text),
    questions: asksAgain(l.role) ? questions(l.text) : [],
  }));
  const lostReferencedLater: LaterReference[] = [];
  // Many identifiers against many later items: look only at the items holding the words a match needs.
  const index = laterHays.length > 0 && lostIds.length > (options.indexAboveLost ?? 100) ? new LaterIndex(later.map((l) => l.text), (i) => laterHays[i]!.hay.ids) : null;
  let allSourceHays: Haystack[] | null = null;
  const sourceHaysOf = () => (allSourceHays ??= input.sources.map(haystack));
  for (const id of lostIds) {
    const candidates = index?.candidates(id) ?? null;
    let fetchedBy: Set<string> | null = null;
    const refetch = (i: number) => {
      const call = later[i]!.call;
      if (!call) return false;
      fetchedBy ??= new Set(sourceHaysOf().flatMap((h, k) => (input.sourceCalls?.[k] && foundIn(id, h) ? [input.sourceCalls[k]] : [])));
      return fetchedBy.has(call);
    };
    let lines: Set<string> | null = null;
    // A tool result that only prints again lines the evicted text held (see echo.ts).
    const echoes = (i: number) =>
      later[i]!.kind === 'tool_result' && onlyEchoes(later[i]!.text, needleOf(id.value), (lines ??= lineSet(sourceHaysOf().filter((h) => foundIn(id, h)).map((h) => h.text))));
    const refers = (i: number) => referencedIn(id, laterHays[i]!.hay) && !refetch(i) && !echoes(i);
    const at = candidates ? candidates.find(refers) : laterHays.findIndex((_, i) => refers(i));
    const mention = at !== undefined && at >= 0 ? laterHays[at] : undefined;
    if (mention) {
      lostReferencedLater.push({ value: id.value, itemId: mention.id, via: 'mention' });
      continue;
    }
    const question = laterHays.find((l) => asksFor(id, l.questions));
    if (question) lostReferencedLater.push({ value: id.value, itemId: question.id, via: 'question' });
  }

  const { invented, instructionLike } = unbacked(input.summary, () => [...input.sources, ...(input.context ?? [])], kinds, undefined, noise);
  return { kept, lost: lostIds.map((i) => i.value), lostReferencedLater, invented, instructionLike, kinds };
}

/**
 * Can this later item show that a lost identifier was needed? A user message, a tool call's arguments or a tool
 * result can; the agent's own prose and thinking only repeat what it still knew, and a harness notice in the
 * user's turn (`<task-notification>`, `<system-reminder>`) repeats what the harness knows.
 */
export function isReference(role: string | undefined, kind: string | undefined, text: string): boolean {
  if (role === 'assistant' && (kind === 'message' || kind === 'thinking')) return false;
  if (asksAgain(role) && (kind === undefined || kind === 'message') && isHarnessMessage(text)) return false;
  return true;
}

