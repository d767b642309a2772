// The summary-audit panel's model: one card per compaction, the one in effect at the current call first,
// each lost-and-needed identifier resolved to the call that first shows the item that needed it.
import { compactionInEffect, firstCallByCompaction, firstCallByItem } from '../analysis/call-lookup';
import type { AnalysisView } from '../analysis/analysis-view';
import type { CompactionEvent } from '../model/types';
import type { CompactionRefetch } from '../refetch';
import type { CompactionAudit } from './audit-session';
import type { LaterReference, RefetchedReference } from './audit-summary';
import type { IdentifierKind } from './identifiers';
import { bySpecificity } from './noise';

export interface NeededLater extends LaterReference {
  kind: IdentifierKind | null;
  /** First call that shows the item that needed the value, or null when no call does. */
  callIndex: number | null;
}

/** A lost identifier the agent had to fetch again before using it, with the calls of the re-fetch and the use. */
export interface RefetchedLater extends RefetchedReference {
  kind: IdentifierKind | null;
  callIndex: number | null;
  usedCallIndex: number | null;
}

export interface AuditCard {
  compaction: CompactionEvent;
  audit: CompactionAudit | null;
  /** One line on why there is no audit; null when there is one. */
  unaudited: string | null;
  /** First call sent after the compaction, or null. */
  callIndex: number | null;
  /** The compaction whose result the current call was sent. */
  current: boolean;
  /** Something stands in for the evicted items (a summary or marker); cleared tool results leave nothing. */
  hasSummary: boolean;
  neededLater: NeededLater[];
  /** Lost identifiers that came back only through a re-fetch or fresh output, most specific first. */
  refetchedLater: RefetchedLater[];
  /** Tool calls after the compaction that fetch again what it removed; null when it records no removed items. */
  refetch: CompactionRefetch | null;
}

type ViewPart = Pick<AnalysisView, 'calls' | 'compactions' | 'audits'> & { spans?: AnalysisView['spans']; refetch?: AnalysisView['refetch'] };

/** Why a compaction has no audit: the engine audits only compactions that record their evicted items. */
export function unauditedReason(event: CompactionEvent): string {
  const log = event.log;
  if (event.opaque) return 'Opaque: the provider encrypted this summary, so what it kept cannot be read. Nothing is known lost, and nothing is known kept.';
  if (event.replacedIds.length > 0) return 'Not audited: its evicted items are not in the loaded transcript.';
  if (log && (log.keptIdentifiers.length > 0 || log.lostIdentifiers.length > 0)) {
    return `Not audited: the log records no evicted items, only its own lists (${log.keptIdentifiers.length} kept, ${log.lostIdentifiers.length} lost).`;
  }
  return 'Not audited: this compaction records no evicted items, so there is nothing to check its summary against.';
}

export function auditCards(view: ViewPart, callIndex: number): AuditCard[] {
  const byId = new Map(view.audits.map((a) => [a.compactionId, a]));
  const refetchOf = new Map((view.refetch ?? []).map((r) => [r.compactionId, r]));
  const itemCall = firstCallByItem(view.calls, view.spans);
  const current = compactionInEffect(view.calls, callIndex);
  const firstCall = firstCallByCompaction(view.calls);
  const cards = view.compactions.map((compaction): AuditCard => {
    const audit = byId.get(compaction.id) ?? null;
    return {
      compaction,
      audit,
      unaudited: audit ? null : unauditedReason(compaction),
      callIndex: firstCall.get(compaction.id) ?? null,
      current: compaction.id === current,
      hasSummary: compaction.summaryId !== null || Boolean(compaction.log?.summary),
      // Most specific first: a path or a ticket the user can act on before a bare name or a number.
      neededLater: bySpecificity(
        (audit?.lostReferencedLater ?? []).map((r) => ({
          ...r,
          kind: audit && Object.hasOwn(audit.kinds, r.value) ? audit.kinds[r.value]! : null,
          callIndex: itemCall.get(r.itemId) ?? null,
        })),
        (r) => ({ value: r.value, kind: r.kind ?? 'number' }),
      ),
      refetchedLater: bySpecificity(
        (audit?.lostRefetchedLater ?? []).map((r) => ({
          ...r,
          kind: audit && Object.hasOwn(audit.kinds, r.value) ? audit.kinds[r.value]! : null,
          callIndex: itemCall.get(r.itemId) ?? null,
          usedCallIndex: r.usedIn !== null ? (itemCall.get(r.usedIn) ?? null) : null,
        })),
        (r) => ({ value: r.value, kind: r.kind ?? 'number' }),
      ),
      refetch: refetchOf.get(compaction.id) ?? null,
    };
  });
  return [...cards.filter((c) => c.current), ...cards.filter((c) => !c.current)];
}
