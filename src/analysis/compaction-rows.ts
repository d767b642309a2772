// Rows of the compaction log table: one per compaction, with the call it led to and what it saved.
import type { CompactionAudit } from '../audit/audit-session';
import type { CompactionEvent, CompactionKind, Item } from '../model/types';
import type { CompactionRefetch, Refetch } from '../refetch';
import { SCHEMA_HEADER } from '../model/markers';
import type { CallView } from './analysis-view';
import { firstCallByCompaction } from './call-lookup';
import { auditCount } from '../audit/trim-audit';

export interface CompactionRow {
  id: string;
  /** 1-based number shown as `#`. */
  number: number;
  kind: CompactionKind;
  /** Recorded trigger, else the log's strategy. */
  trigger: string | null;
  /** First call sent after the compaction (0-based), or null when no call shows it. */
  callIndex: number | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  saved: number | null;
  /** Items taken out: the recorded ids, else the log's `evicted` count. */
  replaced: number | null;
  fallback: boolean | null;
  keptIds: number | null;
  lostIds: number | null;
  /** Where the kept/lost counts come from: the log records them, or the summary audit measured them. */
  idsFrom: 'log' | 'audit' | null;
  summaryPreview: string;
  /** Tool calls after it that fetch again what it removed, and their tokens; null when it records no removed items. */
  refetches: number | null;
  refetchTokens: number | null;
  /** The costliest re-fetch, for the row's links to both calls. */
  topRefetch: Refetch | null;
}

export const PREVIEW_CHARS = 140;

/** The first characters of a summary on one line, without the schema header every summary repeats. */
export function previewText(text: string, max = PREVIEW_CHARS): string {
  const body = text.trimStart().startsWith(SCHEMA_HEADER) ? text.trimStart().slice(SCHEMA_HEADER.length) : text;
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

export function compactionRows(
  compactions: readonly CompactionEvent[],
  calls: readonly Pick<CallView, 'entries' | 'outputIds' | 'compactionId'>[],
  audits: readonly CompactionAudit[],
  itemById: ReadonlyMap<string, Item>,
  refetch: readonly CompactionRefetch[] = [],
): CompactionRow[] {
  const auditOf = new Map(audits.map((a) => [a.compactionId, a]));
  const refetchOf = new Map(refetch.map((r) => [r.compactionId, r]));
  const firstCall = firstCallByCompaction(calls);
  return compactions.map((c) => {
    const audit = auditOf.get(c.id);
    const log = c.log;
    const logged = log !== undefined && (log.keptIdentifiers.length > 0 || log.lostIdentifiers.length > 0);
    const summaryText = log?.summary ?? (c.summaryId ? itemById.get(c.summaryId)?.text : undefined) ?? '';
    return {
      id: c.id,
      number: c.index + 1,
      kind: c.kind,
      trigger: c.trigger ?? log?.strategy ?? null,
      callIndex: firstCall.get(c.id) ?? null,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
      saved: c.tokensBefore !== null && c.tokensAfter !== null ? c.tokensBefore - c.tokensAfter : null,
      replaced: c.replacedIds.length > 0 ? c.replacedIds.length : (log?.evicted ?? null),
      fallback: log?.fallback ?? null,
      keptIds: logged ? log.keptIdentifiers.length : audit ? auditCount(audit, 'kept') : null,
      lostIds: logged ? log.lostIdentifiers.length : audit ? auditCount(audit, 'lost') : null,
      idsFrom: logged ? 'log' : audit ? 'audit' : null,
      summaryPreview: previewText(summaryText),
      refetches: refetchOf.get(c.id)?.refetches.length ?? null,
      refetchTokens: refetchOf.get(c.id)?.refetchTokens ?? null,
      topRefetch: refetchOf.get(c.id)?.refetches.reduce<Refetch | null>((top, r) => (top === null || r.tokens > top.tokens ? r : top), null) ?? null,
    };
  });
}

/** Text a filter query is matched against: every value the row shows, call numbers 1-based as shown. */
export function rowSearchText(row: CompactionRow): string {
  return [
    `#${row.number}`,
    row.id,
    row.kind,
    row.trigger ?? '',
    row.callIndex !== null ? `call ${row.callIndex + 1}` : '',
    row.fallback ? 'fallback' : '',
    row.summaryPreview,
  ]
    .join(' ')
    .toLowerCase();
}

/** Whether a row matches a filter query: every whitespace-separated word occurs in its text. */
export function rowMatches(row: CompactionRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = rowSearchText(row);
  return words.every((w) => text.includes(w));
}
