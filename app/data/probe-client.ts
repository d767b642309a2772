// Probes asked at the user's endpoint, per session: the run in flight (progress, cancel) and each probe's answers
// and 0–5 score by key. The worker caches completions by request hash, so asking again sends nothing.
import type { ProbeJudgement } from '../../src/probes';
import type { EndpointSettings } from '../store/settings-slice';
import type { ProbeJob, ProbeProgress } from '../workers/rerun.worker';
import { sessionRuns } from '../store/session-runs';
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

const runs = sessionRuns(IDLE);

export const useProbeAsk = runs.use;

export async function askProbes(key: string, jobs: ProbeJob[], endpoint: EndpointSettings, answeredBy: string): Promise<void> {
  const { patch } = runs;
  const runId = newRunId();
  const prev = runs.get(key);
  patch(key, null, { status: 'running', runId, progress: { done: 0, total: jobs.length, sent: 0, cached: 0 }, error: null, answeredBy, results: prev.results });
  try {
    const out = await probesInWorker(runId, jobs, endpoint, (p) => patch(key, runId, { progress: p }));
    const results = { ...runs.get(key).results };
    for (const r of out.results) results[r.key] = r;
    patch(key, runId, { status: out.status, results });
  } catch (e) {
    patch(key, runId, { status: 'error', error: e instanceof Error ? e.message : String(e) });
  }
}

export function cancelProbes(key: string): void {
  const cur = runs.get(key);
  if (cur.status === 'running') cancelWorkerRun(cur.runId);
}
