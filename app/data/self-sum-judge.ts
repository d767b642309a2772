// The Self-Sum judge (Table 10 rubric) from the inspector: scores the open trajectory's recorded summaries, and a
// re-run's beside them, at the configured endpoint. The request goes from a corpus worker under the page's
// connect-src, like corpus mode's "Score summaries"; scores share corpus mode's page cache, so asking again
// sends nothing. Each run gets its own worker and proxy, released once, and never touched after.
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { JudgeOutcome } from '../../src/corpus/judge';
import type { Session } from '../../src/model/types';
import type { EndpointSettings } from '../store/settings-slice';
import { policedWorker } from '../security/policed-worker';
import type { CorpusWorkerApi } from '../workers/corpus.worker';
import corpusWorkerUrl from '../workers/corpus.worker.ts?worker&url';
import { JUDGE_MAX_TOKENS, pageJudgeStore } from './judge-runner';

export type JudgeSide = 'recorded' | 'rerun';

export type SideCell = { status: 'pending' } | { status: 'done'; outcome: JudgeOutcome };

export interface InspectorJudge {
  /** What was judged, per side; the re-run side names its run. */
  cells: Partial<Record<JudgeSide, SideCell>>;
  rerunLabel: string | null;
  running: boolean;
}

interface JudgeStoreState {
  bySession: Record<string, InspectorJudge>;
  patch(key: string, patch: Partial<InspectorJudge>): void;
}

/** Kept outside the panel, so switching tabs keeps the scores. */
export const useInspectorJudge = create<JudgeStoreState>()((set) => ({
  bySession: {},
  patch: (key, patch) => set((s) => ({ bySession: { ...s.bySession, [key]: { ...(s.bySession[key] ?? { cells: {}, rerunLabel: null, running: false }), ...patch } } })),
}));

export interface JudgeJob {
  side: JudgeSide;
  session: Session;
}

export async function judgeInInspector(key: string, jobs: JudgeJob[], endpoint: EndpointSettings, rerunLabel: string | null): Promise<void> {
  const { patch } = useInspectorJudge.getState();
  const cells: InspectorJudge['cells'] = Object.fromEntries(jobs.map((j) => [j.side, { status: 'pending' }]));
  patch(key, { cells, rerunLabel, running: true });
  const worker = policedWorker(corpusWorkerUrl, { type: 'module', name: 'inspector-judge' });
  const api = Comlink.wrap<CorpusWorkerApi>(worker);
  const store = Comlink.proxy(pageJudgeStore);
  const target = { baseUrl: endpoint.baseUrl.trim(), apiKey: endpoint.apiKey, model: endpoint.model.trim(), maxTokens: Math.max(JUDGE_MAX_TOKENS, endpoint.maxTokens), timeoutMs: Math.round(endpoint.timeoutS * 1000) };
  try {
    for (const job of jobs) {
      let outcome: JudgeOutcome;
      try {
        outcome = await api.judgeSession(job.session, target, store);
      } catch (e) {
        outcome = { ok: false, key: null, reason: e instanceof Error ? e.message : String(e) };
      }
      const now = useInspectorJudge.getState().bySession[key]?.cells ?? {};
      patch(key, { cells: { ...now, [job.side]: { status: 'done', outcome } } });
    }
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
    patch(key, { running: false });
  }
}
