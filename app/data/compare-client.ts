// The Compare policies view's state and its runs in the rerun worker: which policies, the run in flight (progress,
// cancel) and the last comparison, per session. Kept outside the panel so switching tabs loses nothing.
import { create } from 'zustand';
import { COMPARE_POLICIES, type PolicyComparison } from '../../src/compaction';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import type { CompareProgress } from '../workers/rerun.worker';
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

interface CompareStore {
  bySession: Record<string, SessionCompare>;
  patch(key: string, runId: number | null, patch: Partial<SessionCompare>): void;
}

export const useCompareStore = create<CompareStore>()((set) => ({
  bySession: {},
  // A patch for a run that is no longer current (a stale progress callback) is dropped.
  patch: (key, runId, patch) =>
    set((s) => {
      const cur = s.bySession[key] ?? IDLE;
      if (runId !== null && cur.runId !== runId) return {};
      return { bySession: { ...s.bySession, [key]: { ...cur, ...patch } } };
    }),
}));

export function useSessionCompare(key: string): SessionCompare {
  return useCompareStore((s) => s.bySession[key] ?? IDLE);
}

export function setComparePolicies(key: string, policies: string[]): void {
  useCompareStore.getState().patch(key, null, { policies });
}

export async function startCompare(key: string, session: Session, rule: ProviderRule | 'auto'): Promise<void> {
  const { patch } = useCompareStore.getState();
  const cur = useCompareStore.getState().bySession[key] ?? IDLE;
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
  const cur = useCompareStore.getState().bySession[key];
  if (cur?.status === 'running') cancelWorkerRun(cur.runId);
}
