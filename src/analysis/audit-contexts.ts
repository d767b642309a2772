// The summary audit of a session's compactions as its contexts place them. It needs no token counts, so it can be
// worked out in a worker of its own, beside the analysis worker (app/data/audit-offload.ts).
import { auditSession, type CompactionAudit } from '../audit';
import type { Session } from '../model/types';
import { sessionContexts, type SessionContexts } from './session-analysis';

/** Request logs hold their items per request; the audit, lints and facts read them from one flat list. */
export function contextItems(session: Session, contexts: SessionContexts) {
  return session.requests.length > 0 ? contexts.eviction.map((row) => row.item) : session.items;
}

/** The summary audit of every compaction, on its own. */
export function auditContexts(session: Session, contexts?: SessionContexts): CompactionAudit[] {
  // A transcript's contexts hold its own items and compactions: replaying it only to read them back took the audit
  // worker ~20 ms on a typical 3 MB session. A request log's come from its contexts.
  if (!contexts && session.requests.length === 0) return auditSession(session);
  const c = contexts ?? sessionContexts(session);
  return auditSession({ ...session, items: contextItems(session, c), compactions: c.compactions });
}
