// The summary audit worked out in a worker of its own, started by the analysis worker once a load's first session has
// its estimate view (for other sessions, when the exact count starts). The audit needs no token counts: it runs while
// the page draws the context view and beside the token pool's count. Run after that view in the analysis worker, it was most of the wait for a
// typical session's panels (`npm run bench`, typical row); started after the count, the real sample's audit panel
// waited for the count and the audit one after the other.
import * as Comlink from 'comlink';
import type { CompactionAudit } from '../../src/audit';
import type { Session } from '../../src/model/types';
import type { AuditWorkerApi } from '../workers/audit.worker';

interface AuditWorker {
  api: Comlink.Remote<AuditWorkerApi>;
  /** Rejects when the worker fails to load or stops: a Comlink call to it would never settle. */
  died: Promise<never>;
}

let current: AuditWorker | null = null;

function auditWorker(): AuditWorker | null {
  if (current) return current;
  if (typeof Worker === 'undefined') return null;
  const worker = new Worker(new URL('../workers/audit.worker.ts', import.meta.url), { type: 'module', name: 'audit' });
  const died = new Promise<never>((_, reject) => {
    const die = (message: string) => {
      if (current?.api === api) current = null;
      worker.terminate();
      reject(new Error(message));
    };
    worker.addEventListener('error', (e) => die(e.message || 'the audit worker failed'));
    worker.addEventListener('messageerror', () => die('a message to the audit worker could not be read'));
  });
  died.catch(() => undefined);
  const api = Comlink.wrap<AuditWorkerApi>(worker);
  current = { api, died };
  return current;
}

/** Starts the worker ahead of its first audit, so its code is loaded by then. */
export function warmAuditWorker(): void {
  try {
    auditWorker();
  } catch {
    // no nested workers: the analysis worker audits on its own
  }
}

/** The session's audit from the audit worker, or null when there is none or it failed: the caller then audits itself. */
export async function auditOffThread(session: Session): Promise<CompactionAudit[] | null> {
  let w: AuditWorker | null;
  try {
    w = auditWorker();
  } catch {
    return null;
  }
  if (!w) return null;
  try {
    return await Promise.race([w.api.audit(session), w.died]);
  } catch {
    return null;
  }
}
