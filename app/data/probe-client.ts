// Probes asked at the user's endpoint, per session: the run in flight (progress, cancel) and each probe's answers
// and 0–5 score by key. The worker caches completions by request hash, so asking again sends nothing.
import { create } from 'zustand';
import type { ProbeJudgement } from '../../src/probes';
import type { EndpointSettings } from '../store/settings-slice';
import type { ProbeJob, ProbeProgress } from '../workers/rerun.worker';
import { cancelWorkerRun, newRunId, probesInWorker } from './rerun-client';

export interface ProbeAsk {
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'error';
  runId: number;
  progress: ProbeProgress | null;
  /** By job key (`rerun:rerun-0:recall-1`). */
  results: Record<string, ProbeJudgement>;
  error: string | null;
  /** The model that answered and judged, at its origin. */
  answeredBy: string | null;
}

const IDLE: ProbeAsk = { status: 'idle', runId: 0, progress: null, results: {}, error: null, answeredBy: null };

interface ProbeStoreState {
  bySession: Record<string, ProbeAsk>;
  patch(key: string, runId: number | null, patch: Partial<ProbeAsk>): void;
}

export const useProbeStore = create<ProbeStoreState>()((set) => ({
  bySession: {},
  patch: (key, runId, patch) =>
    set((s) => {
      const cur = s.bySession[key] ?? IDLE;
      if (runId !== null && cur.runId !== runId) return {};
      return { bySession: { ...s.bySession, [key]: { ...cur, ...patch } } };
    }),
}));

export function useProbeAsk(key: string): ProbeAsk {
  return useProbeStore((s) => s.bySession[key] ?? IDLE);
}

export async function askProbes(key: string, jobs: ProbeJob[], endpoint: EndpointSettings, answeredBy: string): Promise<void> {
  const { patch } = useProbeStore.getState();
  const runId = newRunId();
  const prev = useProbeStore.getState().bySession[key] ?? IDLE;
  patch(key, null, { status: 'running', runId, progress: { done: 0, total: jobs.length, sent: 0, cached: 0 }, error: null, answeredBy, results: prev.results });
  try {
    const out = await probesInWorker(runId, jobs, endpoint, (p) => patch(key, runId, { progress: p }));
    const results = { ...(useProbeStore.getState().bySession[key]?.results ?? {}) };
    for (const r of out.results) results[r.key] = r;
    patch(key, runId, { status: out.status, results });
  } catch (e) {
    patch(key, runId, { status: 'error', error: e instanceof Error ? e.message : String(e) });
  }
}

export function cancelProbes(key: string): void {
  const cur = useProbeStore.getState().bySession[key];
  if (cur?.status === 'running') cancelWorkerRun(cur.runId);
}
