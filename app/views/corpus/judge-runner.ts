// Scores a sample of the corpus's summarizing trajectories with the Self-Sum judge (Table 10) at the configured
// endpoint. Each trajectory is re-read from its File and parsed in the loader worker; results are cached by the
// hash of the rendered trajectory for the life of the tab, so asking again costs nothing.
import { createJudge, JudgeCache, sampleIndices, type JudgeComplete } from '../../../src/corpus/judge';
import { requestChatCompletion } from '../../../src/client';
import { loadInWorker } from '../../data/load-client';
import { useApp } from '../../store';
import type { CorpusEntry, JudgeCell } from '../../store/corpus-slice';
import type { EndpointSettings } from '../../store/settings-slice';
import { trajectorySource } from './corpus-client';

/** Shared by every corpus opened in this tab. */
const cache = new JudgeCache();

/** The judge replies with ~10 numbers and a sentence; deterministic scoring wants temperature 0. */
const JUDGE_MAX_TOKENS = 600;

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
  const controller = new AbortController();
  const complete: JudgeComplete = async (messages) => {
    const r = await requestChatCompletion({
      baseUrl: endpoint.baseUrl.trim(),
      apiKey: endpoint.apiKey,
      model: endpoint.model.trim(),
      messages,
      temperature: 0,
      maxTokens: Math.max(JUDGE_MAX_TOKENS, endpoint.maxTokens),
      timeoutMs: Math.round(endpoint.timeoutS * 1000),
      stream: false,
      signal: controller.signal,
    });
    return r.ok ? { ok: true, text: r.text } : { ok: false, reason: r.reason };
  };
  const judge = createJudge({ complete, model: endpoint.model.trim(), cache });
  const set = (key: string, cell: JudgeCell) => useApp.getState().setJudge({ [key]: cell });
  useApp.getState().setJudge(Object.fromEntries(sample.map((r) => [r.key, { status: 'pending' } as JudgeCell])));
  const done = (async () => {
    let n = 0;
    for (const entry of sample) {
      if (controller.signal.aborted) {
        set(entry.key, { status: 'failed', reason: 'cancelled' });
        continue;
      }
      try {
        const c = useApp.getState().corpus;
        const ref = c?.files[entry.source];
        if (!ref) throw new Error('the corpus was closed');
        const loaded = await loadInWorker([await trajectorySource(entry, ref)], () => {});
        const session = loaded.sessions.find((s) => s.id === entry.id) ?? loaded.sessions[0];
        if (!session) throw new Error('the trajectory no longer loads');
        const out = await judge.judge(session);
        set(entry.key, out.ok ? { status: 'done', scores: out.scores, cached: out.cached } : { status: 'failed', reason: out.reason });
      } catch (e) {
        set(entry.key, { status: 'failed', reason: e instanceof Error ? e.message : String(e) });
      }
      onProgress(++n);
    }
  })();
  return { cancel: () => controller.abort(), done };
}
