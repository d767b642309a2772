// Runs the summary audit over every compaction of a loaded session: the evicted items are the sources,
// the summary (or marker) stands in for them, the items after it are "later".
import type { CompactionEvent, Item, Session } from '../model/types';
import { distinctOf, keptAndLost, unbacked, type AuditInput, type LaterReference, type SummaryAudit } from './audit-summary';
import { extractIdentifiers, type Identifier, type IdentifierKind } from './identifiers';
import { LaterItems } from './later-items';

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
 * without ids carries its own kept/lost lists instead).
 */
export function auditInputFor(session: Session, event: CompactionEvent): AuditInput | null {
  if (event.replacedIds.length === 0) return null;
  const replaced = new Set(event.replacedIds);
  const position = new Map(session.items.map((item, i) => [item.id, i]));
  const summaryItem = event.summaryId ? session.items.find((i) => i.id === event.summaryId) : undefined;
  const summary = summaryItem?.text ?? event.log?.summary ?? '';
  // The compaction takes effect at its summary or boundary record, else right after the last evicted item.
  const anchors = [event.summaryId, event.atItemId].map((id) => (id ? position.get(id) : undefined)).filter((i) => i !== undefined);
  const at = anchors.length > 0 ? Math.max(...anchors) : Math.max(...event.replacedIds.map((id) => position.get(id) ?? -1));
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
    if (event.replacedIds.length === 0) continue;
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
  const later = new LaterItems(texts, items.map((i) => i.role));
  const placed = placements(session);

  // Kept and lost first: the index over the later items needs the keys of every lost identifier.
  const sourceIds = new Map<number, Identifier[]>();
  const idsOf = (i: number) => {
    let ids = sourceIds.get(i);
    if (!ids) sourceIds.set(i, (ids = extractIdentifiers(texts[i]!)));
    return ids;
  };
  const split = placed.map((p) => {
    const kinds: Record<string, IdentifierKind> = {};
    return { kinds, ...keptAndLost(p.summary, distinctOf(p.sources.map(idsOf)), kinds) };
  });
  later.prepare(
    split.flatMap((s) => s.lost),
    placed.reduce((from, p) => Math.min(from, p.at + 1), Infinity),
  );

  return placed.map((p, k) => {
    const { kinds, kept, lost } = split[k]!;
    const lostReferencedLater: LaterReference[] = [];
    for (const id of lost) {
      const mention = later.firstMention(id, p.at + 1, p.skip);
      const at = mention >= 0 ? mention : later.firstQuestion(id, p.at + 1, p.skip);
      if (at >= 0) lostReferencedLater.push({ value: id.value, itemId: items[at]!.id, via: mention >= 0 ? 'mention' : 'question' });
    }
    const support = () => {
      const context: string[] = [];
      for (let i = 0; i <= p.at && i < items.length; i++) if (!p.skip(i)) context.push(texts[i]!);
      return [...p.sources.map((i) => texts[i]!), ...context];
    };
    const { invented, instructionLike } = unbacked(p.summary, support, kinds);
    const audit: SummaryAudit = { kept, lost: lost.map((i) => i.value), lostReferencedLater, invented, instructionLike, kinds };
    return { compaction: p.event.index, compactionId: p.event.id, ...withoutToolNames(audit, tools) };
  });
}
