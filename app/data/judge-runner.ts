// Scores a sample of the corpus's summarizing trajectories with the Self-Sum judge (Table 10) at the configured
// endpoint. Each trajectory is re-read from its File and judged in a corpus worker, which sends the request (as
// the Re-run summarizer does from its worker). Scores are cached here by the hash of the rendered trajectory for
// the life of the tab, so asking again sends nothing.
import * as Comlink from 'comlink';
import { sampleIndices, type JudgeScores, type JudgeStore } from '../../src/corpus/judge';
import { useApp } from '../store';
import type { CorpusEntry, JudgeCell } from '../store/corpus-slice';
import type { EndpointSettings } from '../store/settings-slice';
import type { CorpusWorkerApi } from '../workers/corpus.worker';
import { trajectorySource } from './corpus-client';
import { policedWorker } from '../security/policed-worker';
import corpusWorkerUrl from '../workers/corpus.worker.ts?worker&url';

/** The page's judge cache, shared by every corpus opened in this tab and the inspector's Self-Sum panel. */
const scores = new Map<string, JudgeScores>();
export const pageJudgeStore: JudgeStore = {
  get: async (key) => scores.get(key),
  set: async (key, value) => void scores.set(key, value),
};

/** The judge replies with eight scores and a sentence: room for that, whatever the summarizer limit is. */
export const JUDGE_MAX_TOKENS = 600;

export function judgeCandidates(rows: readonly CorpusEntry[]): CorpusEntry[] {
  return rows.filter((r) => r.summaries > 0);
}

export function pickSample(rows: readonly CorpusEntry[], n: number): CorpusEntry[] {
  const candidates = [...judgeCandidates(rows)].sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
  return sampleIndices(candidates.length, n).map((i) => candidates[i]!);
}

export interface JudgeRun {
  cancel(): void;
  done: Promise<void>;
}

export function runJudge(sample: CorpusEntry[], endpoint: EndpointSettings, onProgress: (done: number) => void): JudgeRun {
  // The judge calls the endpoint from this worker, so it must obey the page's connect-src.
  const worker = policedWorker(corpusWorkerUrl, { type: 'module', name: 'corpus-judge' });
  const api = Comlink.wrap<CorpusWorkerApi>(worker);
  const proxyStore = Comlink.proxy(pageJudgeStore);
  let cancelled = false;
  // Set once the worker is gone: a proxy released is never called again (it throws, even from a cancel that
  // comes later, e.g. when the panel unmounts after the run finished).
  let released = false;
  const target = { baseUrl: endpoint.baseUrl.trim(), apiKey: endpoint.apiKey, model: endpoint.model.trim(), maxTokens: Math.max(JUDGE_MAX_TOKENS, endpoint.maxTokens), timeoutMs: Math.round(endpoint.timeoutS * 1000) };
  const set = (key: string, cell: JudgeCell) => useApp.getState().setJudge({ [key]: cell });
  useApp.getState().setJudge(Object.fromEntries(sample.map((r) => [r.key, { status: 'pending' } as JudgeCell])));
  const done = (async () => {
    let n = 0;
    try {
      for (const entry of sample) {
        if (cancelled) {
          set(entry.key, { status: 'failed', reason: 'cancelled' });
          continue;
        }
        try {
          const ref = useApp.getState().corpus?.files[entry.source];
          if (!ref) throw new Error('the corpus was closed');
          const out = await api.judge(await trajectorySource(entry, ref), entry.id, target, proxyStore);
          set(entry.key, out.ok ? { status: 'done', scores: out.scores, cached: out.cached } : { status: 'failed', reason: out.reason });
        } catch (e) {
          set(entry.key, { status: 'failed', reason: e instanceof Error ? e.message : String(e) });
        }
        onProgress(++n);
      }
    } finally {
      released = true;
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  })();
  return {
    cancel: () => {
      cancelled = true;
      if (released) return;
      void api.cancelJudging().catch(() => {});
    },
    done,
  };
}
