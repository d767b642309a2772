// Runs the summary audit over every compaction of a loaded session: the evicted items are the sources,
// the summary (or marker) stands in for them, the items after it are "later".
import type { CompactionEvent, Item, Session } from '../model/types';
import { auditSummary, type AuditInput, type SummaryAudit } from './audit-summary';

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

/** The audit of every compaction in the session that records its evicted items, in order. */
export function auditSession(session: Session): CompactionAudit[] {
  const tools = new Set(session.items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));
  const rows: CompactionAudit[] = [];
  for (const event of session.compactions) {
    const input = auditInputFor(session, event);
    if (input) rows.push({ compaction: event.index, compactionId: event.id, ...withoutToolNames(auditSummary(input), tools) });
  }
  return rows;
}
