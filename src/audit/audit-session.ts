// Runs the summary audit over every compaction of a loaded session: the evicted items are the sources,
// the summary (or marker) stands in for them, the items after it are "later".
import type { CompactionEvent, Item, Session } from '../model/types';
import { distinctOf, keptAndLost, ownIdentifiers, unbacked, type AuditInput, type LaterReference, type SummaryAudit } from './audit-summary';
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
  return {
    summary,
    sources: session.items.filter((i) => replaced.has(i.id)).map(renderForAudit),
    later: session.items
      .slice(at + 1)
      .filter(isContent)
      .map((i) => ({ id: i.id, text: renderForAudit(i), role: i.role })),
    // Head, system prompt and the verbatim-kept items: the summarizer saw them too.
    context: session.items.slice(0, at + 1).filter(isContent).map(renderForAudit),
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
  const items = session.items;
  const tools = new Set(items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));
  const texts = items.map(renderForAudit);
  const shared = new SessionItems(texts, items.map((i) => i.role));
  const placed = placements(session);

  // Kept and lost first: the key index needs the keys of every lost identifier and every summary identifier.
  const keys = (id: Identifier) => shared.keys(id);
  const split = placed.map((p) => {
    const kinds: Record<string, IdentifierKind> = {};
    const sourceIds = distinctOf(p.sources.map((i) => shared.hay(i).ids));
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
    for (const id of lost) {
      const mention = shared.firstMention(id, p.at + 1, p.skip);
      const at = mention >= 0 ? mention : shared.firstQuestion(id, p.at + 1, p.skip);
      if (at >= 0) lostReferencedLater.push({ value: id.value, itemId: items[at]!.id, via: mention >= 0 ? 'mention' : 'question' });
    }
    // What the summarizer read: the evicted items, then the content items up to the compaction.
    const evicted = new Set(p.sources);
    const read = (i: number) => evicted.has(i) || (i <= p.at && !p.skip(i));
    let supportTexts: string[] | undefined;
    const support = () => {
      if (supportTexts) return supportTexts;
      supportTexts = p.sources.map((i) => texts[i]!);
      for (let i = 0; i <= p.at && i < items.length; i++) if (!p.skip(i)) supportTexts.push(texts[i]!);
      return supportTexts;
    };
    const check = new SupportCheck({ items: shared, has: read, texts: support });
    const { invented, instructionLike } = unbacked(p.summary, support, kinds, (id) => check.backs(id));
    const audit: SummaryAudit = { kept, lost: lost.map((i) => i.value), lostReferencedLater, invented, instructionLike, kinds };
    return { compaction: p.event.index, compactionId: p.event.id, ...withoutToolNames(audit, tools) };
  });
}
