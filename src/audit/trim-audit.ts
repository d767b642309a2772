// An audit cut to what a view can show: a long session's audit can list tens of thousands of identifiers per
// compaction (29 MB for a 100 MB session), which take a quarter of a second to copy to the page. The first
// `limit` of each list stay, with every list's full count.
import type { CompactionAudit } from './audit-session';
import type { IdentifierKind } from './identifiers';
import { setOwn } from '../model/dictionary';

export type AuditList = 'kept' | 'lost' | 'lostReferencedLater' | 'lostRefetchedLater' | 'invented' | 'instructionLike' | 'inventedInstructions';
const LISTS: readonly AuditList[] = ['kept', 'lost', 'lostReferencedLater', 'lostRefetchedLater', 'invented', 'instructionLike', 'inventedInstructions'];

export interface ShownAudit extends CompactionAudit {
  /** Full length of every list, when one was cut. */
  totals?: Record<AuditList, number>;
}

export function trimAudit(audit: CompactionAudit, limit: number): ShownAudit {
  if (LISTS.every((k) => audit[k].length <= limit)) return audit;
  const totals = Object.fromEntries(LISTS.map((k) => [k, audit[k].length])) as Record<AuditList, number>;
  const kept = audit.kept.slice(0, limit);
  const lost = audit.lost.slice(0, limit);
  const lostReferencedLater = audit.lostReferencedLater.slice(0, limit);
  const lostRefetchedLater = audit.lostRefetchedLater.slice(0, limit);
  const invented = audit.invented.slice(0, limit);
  const kinds: Record<string, IdentifierKind> = {};
  for (const v of [...kept, ...lost, ...invented, ...lostReferencedLater.map((r) => r.value), ...lostRefetchedLater.map((r) => r.value)])
    if (Object.hasOwn(audit.kinds, v)) setOwn(kinds, v, audit.kinds[v]!);
  return {
    ...audit,
    kept,
    lost,
    lostReferencedLater,
    lostRefetchedLater,
    invented,
    instructionLike: audit.instructionLike.slice(0, limit),
    inventedInstructions: audit.inventedInstructions.slice(0, limit),
    kinds,
    totals,
  };
}

/** How many values a list holds in the full audit (the list itself may be cut). */
export function auditCount(audit: ShownAudit, list: AuditList): number {
  return audit.totals?.[list] ?? audit[list].length;
}
