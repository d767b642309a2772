// Audits a session's summaries beside the analysis worker (see app/data/audit-offload.ts). It keeps nothing.
import * as Comlink from 'comlink';
import { auditContexts } from '../../src/analysis/audit-contexts';
import type { CompactionAudit } from '../../src/audit';
import type { Session } from '../../src/model/types';

const api = {
  audit(session: Session): CompactionAudit[] {
    return auditContexts(session);
  },
};

export type AuditWorkerApi = typeof api;
Comlink.expose(api);
