// Runs the summary audit over every compaction of a loaded session: the evicted items are the sources,
// the summary (or marker) stands in for them, the items after it are "later".
import type { CompactionEvent, Item, Session } from '../model/types';
import { distinctOf, isReference, keptAndLost, ownIdentifiers, unbacked, type AuditInput, type LaterReference, type SummaryAudit } from './audit-summary';
import { callTarget, targetKey } from '../refetch/call-target';
import { lineSet, needleOf, onlyEchoes } from './echo';
import { daysOf, isNoise, type NoiseContext } from './noise';
import type { Identifier, IdentifierKind } from './identifiers';
import { SessionItems } from './session-items';
import { SupportCheck, supportKeys } from './session-support';
import { maxOf } from '../model/arrays';

/** One row per audited compaction; `compaction` is the event's 0-based index in the session. */
export interface CompactionAudit extends SummaryAudit {
  compaction: number;
  compactionId: string;
}

/** A tool call reads as `name(arguments)`, so its function name is one of the slice's identifiers. */
export function renderForAudit(item: Item): string {
  if (item.kind === 'tool_call' && item.name) return `${item.name}(${item.text})`;
  return item.text;
}

/**
 * Audit input for one compaction, or null when the event records no evicted items (a compaction-log line
 * without ids carries its own kept/lost lists instead) or its summary is opaque.
 */
export function auditInputFor(session: Session, event: CompactionEvent): AuditInput | null {
  // An encrypted summary cannot be read: auditing it would count every identifier as lost.
  if (event.replacedIds.length === 0 || event.opaque) return null;
  const replaced = new Set(event.replacedIds);
  const position = new Map(session.items.map((item, i) => [item.id, i]));
  const summaryItem = event.summaryId ? session.items.find((i) => i.id === event.summaryId) : undefined;
  const summary = summaryItem?.text ?? event.log?.summary ?? '';
  // The compaction takes effect at its summary or boundary record, else right after the last evicted item.
  const anchors = [event.summaryId, event.atItemId].map((id) => (id ? position.get(id) : undefined)).filter((i) => i !== undefined);
  const at = anchors.length > 0 ? maxOf(anchors) : maxOf(event.replacedIds.map((id) => position.get(id) ?? -1));
  const isContent = (item: Item) => item.kind !== 'compaction' && item.id !== event.summaryId && !replaced.has(item.id);
  const keys = fetchKeys(session.items);
  const keyOf = new Map(session.items.map((it, i) => [it, keys[i] ?? null]));
  const evicted = session.items.filter((i) => replaced.has(i.id));
  return {
    summary,
    sources: evicted.map(renderForAudit),
    sourceCalls: evicted.map((i) => keyOf.get(i) ?? null),
    later: session.items
      .slice(at + 1)
      .filter(isContent)
      .map((i) => ({ id: i.id, text: renderForAudit(i), role: i.role, kind: i.kind, ...(keyOf.get(i) ? { call: keyOf.get(i)! } : {}) })),
    // Head, system prompt and the verbatim-kept items: the summarizer saw them too.
    context: session.items.slice(0, at + 1).filter(isContent).map(renderForAudit),
    sessionDays: [...daysOf(session.items.map((i) => i.timestamp))],
  };
}

/**
 * Tool names are in the schema the model is sent every call, so a summary cannot lose them;
 * counting `read_file()` as lost or needed later only buries the facts that matter.
 */
function withoutToolNames(audit: SummaryAudit, tools: ReadonlySet<string>): SummaryAudit {
  const isTool = (v: string) => tools.has(v.replace(/\(\)$/, ''));
  return {
    ...audit,
    kept: audit.kept.filter((v) => !isTool(v)),
    lost: audit.lost.filter((v) => !isTool(v)),
    lostReferencedLater: audit.lostReferencedLater.filter((r) => !isTool(r.value)),
    invented: audit.invented.filter((v) => !isTool(v)),
  };
}

/** For each tool result, the key of the fetch that produced it (see call-target.ts); null for other items. */
export function fetchKeys(items: readonly Item[]): (string | null)[] {
  const byId = new Map(items.map((it) => [it.id, it]));
  return items.map((it) => {
    if (it.kind !== 'tool_result' || !it.pairId) return null;
    const call = byId.get(it.pairId);
    const target = call ? callTarget(call) : null;
    return target ? targetKey(target) : null;
  });
}

/** Where one compaction sits among the session's items. */
interface Placement {
  event: CompactionEvent;
  /** Positions of the evicted items, ascending. */
  sources: number[];
  /** The position the compaction takes effect at: later items come after it, context items up to it. */
  at: number;
  summary: string;
  /** Not a content item of this compaction (a compaction record, its summary, an evicted item). */
  skip: (i: number) => boolean;
}

/** `auditInputFor`'s reading of a compaction, as positions in the session's items. */
function placements(session: Session): Placement[] {
  const items = session.items;
  const last = new Map<string, number>();
  const first = new Map<string, number>();
  const all = new Map<string, number[]>();
  items.forEach((item, i) => {
    last.set(item.id, i);
    if (!first.has(item.id)) first.set(item.id, i);
    const list = all.get(item.id);
    if (list) list.push(i);
    else all.set(item.id, [i]);
  });
  const out: Placement[] = [];
  for (const event of session.compactions) {
    if (event.replacedIds.length === 0 || event.opaque) continue;
    const replaced = new Set(event.replacedIds);
    const summaryAt = event.summaryId ? first.get(event.summaryId) : undefined;
    const summary = (summaryAt !== undefined ? items[summaryAt]!.text : undefined) ?? event.log?.summary ?? '';
    let at = -Infinity;
    for (const id of [event.summaryId, event.atItemId]) {
      const p = id ? last.get(id) : undefined;
      if (p !== undefined) at = Math.max(at, p);
    }
    if (at === -Infinity) for (const id of event.replacedIds) at = Math.max(at, last.get(id) ?? -1);
    const sources = [...new Set([...replaced].flatMap((id) => all.get(id) ?? []))].sort((a, b) => a - b);
    const summaryId = event.summaryId;
    const skip = (i: number) => {
      const item = items[i]!;
      return item.kind === 'compaction' || item.id === summaryId || replaced.has(item.id);
    };
    out.push({ event, sources, at, summary, skip });
  }
  return out;
}

/**
 * The audit of every compaction in the session that records its evicted items, in order: for each,
 * `auditSummary(auditInputFor(session, event))` without the tool names, computed with the work shared
 * across compactions (each item's identifiers, questions and key postings are found once per session).
 */
export function auditSession(session: Session): CompactionAudit[] {
  // Nothing to audit without a compaction that replaced something readable: the indexes below cost the whole session.
  if (!session.compactions.some((c) => c.replacedIds.length > 0 && !c.opaque)) return [];
  const items = session.items;
  const tools = new Set(items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));
  const texts = items.map(renderForAudit);
  const shared = new SessionItems(texts, items.map((i) => i.role));
  const placed = placements(session);
  const noise: NoiseContext = { sessionDays: daysOf(items.map((i) => i.timestamp)) };
  // Harness notices in the user's turn refer to nothing the summary should have kept (see harness-messages.ts).
  // The agent's own prose and thinking repeat what it still knew: only a user message, a tool call's arguments
  // or a tool result is a later reference (see `isReference`).
  const notReference = items.map((item) => !isReference(item.role, item.kind, item.text));
  // A later result of the same fetch (same tool, same target) prints the identifier again because the call ran
  // again, not because a later turn asked for it: that is the re-fetch tax (src/refetch), not a reference.
  const resultKeys = fetchKeys(items);
  // Each evicted item's lines, made once: many lost identifiers come from the same long tool output.
  const lineSets = new Map<number, Set<string>>();
  const linesOf = (i: number): Set<string> => {
    let set = lineSets.get(i);
    if (!set) lineSets.set(i, (set = lineSet([texts[i]!])));
    return set;
  };

  // Kept and lost first: the key index needs the keys of every lost identifier and every summary identifier.
  const keys = (id: Identifier) => shared.keys(id);
  const split = placed.map((p) => {
    const kinds: Record<string, IdentifierKind> = {};
    const sourceIds = distinctOf(p.sources.map((i) => shared.hay(i).ids)).filter((id) => !isNoise(id, noise));
    return { kinds, ...keptAndLost(p.summary, sourceIds, kinds, keys), own: ownIdentifiers(p.summary) };
  });
  function* summaryKeys(): Generator<string> {
    for (const { own } of split) for (const id of own) for (const group of supportKeys(id, keys(id))) yield* group;
  }
  shared.prepare(
    split.flatMap((s) => s.lost),
    summaryKeys(),
  );

  return placed.map((p, k) => {
    const { kinds, kept, lost } = split[k]!;
    const lostReferencedLater: LaterReference[] = [];
    const evicted = new Set(p.sources);
    // Fetches whose results this compaction evicted: a later result of another fetch is never a repeat of one.
    const evictedFetches = new Set(p.sources.map((s) => resultKeys[s]).filter((key) => key !== null));
    for (const id of lost) {
      let holders: number[] | null = null;
      const holding = () => (holders ??= shared.indicesHolding(id, (i) => evicted.has(i)));
      let refetched: Set<string> | null = null;
      const fetchedBy = () => (refetched ??= new Set(holding().flatMap((s) => (resultKeys[s] ? [resultKeys[s]!] : []))));
      const echoes = (i: number) => items[i]!.kind === 'tool_result' && onlyEchoes(texts[i]!, needleOf(id.value), holding().map(linesOf));
      const refetch = (i: number) => resultKeys[i] !== null && evictedFetches.has(resultKeys[i]!) && fetchedBy().has(resultKeys[i]!);
      const skip = (i: number) => p.skip(i) || notReference[i]! || refetch(i) || echoes(i);
      const mention = shared.firstMention(id, p.at + 1, skip);
      const at = mention >= 0 ? mention : shared.firstQuestion(id, p.at + 1, skip);
      if (at >= 0) lostReferencedLater.push({ value: id.value, itemId: items[at]!.id, via: mention >= 0 ? 'mention' : 'question' });
    }
    // What the summarizer read: the evicted items, then the content items up to the compaction.
    const read = (i: number) => evicted.has(i) || (i <= p.at && !p.skip(i));
    let supportTexts: string[] | undefined;
    const support = () => {
      if (supportTexts) return supportTexts;
      supportTexts = p.sources.map((i) => texts[i]!);
      for (let i = 0; i <= p.at && i < items.length; i++) if (!p.skip(i)) supportTexts.push(texts[i]!);
      return supportTexts;
    };
    const check = new SupportCheck({ items: shared, has: read, texts: support });
    const { invented, instructionLike } = unbacked(p.summary, support, kinds, (id) => check.backs(id), noise);
    const audit: SummaryAudit = { kept, lost: lost.map((i) => i.value), lostReferencedLater, invented, instructionLike, kinds };
    return { compaction: p.event.index, compactionId: p.event.id, ...withoutToolNames(audit, tools) };
  });
}
