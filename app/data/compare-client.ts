// The Compare policies view's runs in the rerun worker: which policies, the run in flight (progress, cancel) and
// the last comparison, per session.
import { COMPARE_POLICIES, type PolicyComparison } from '../../src/compaction';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import type { CompareProgress } from '../workers/rerun.worker';
import { sessionRuns } from '../store/session-runs';
import { cancelWorkerRun, compareInWorker, newRunId } from './rerun-client';

export interface SessionCompare {
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'error';
  runId: number;
  policies: string[];
  progress: CompareProgress | null;
  result: PolicyComparison | null;
  error: string | null;
}

const IDLE: SessionCompare = { status: 'idle', runId: 0, policies: [...COMPARE_POLICIES], progress: null, result: null, error: null };

const runs = sessionRuns(IDLE);

export const useSessionCompare = runs.use;

export function setComparePolicies(key: string, policies: string[]): void {
  runs.patch(key, null, { policies });
}

export async function startCompare(key: string, session: Session, rule: ProviderRule | 'auto'): Promise<void> {
  const { patch } = runs;
  const cur = runs.get(key);
  const runId = newRunId();
  patch(key, null, { status: 'running', runId, progress: null, error: null });
  try {
    const result = await compareInWorker(runId, key, session, { policies: cur.policies, rule }, (p) => patch(key, runId, { progress: p }));
    patch(key, runId, { status: result.status === 'done' ? 'done' : 'cancelled', result, progress: null });
  } catch (e) {
    patch(key, runId, { status: 'error', error: e instanceof Error ? e.message : String(e), progress: null });
  }
}

export function cancelCompare(key: string): void {
  const cur = runs.get(key);
  if (cur.status === 'running') cancelWorkerRun(cur.runId);
}
