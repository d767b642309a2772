// Compare policies over a corpus: a sample of its trajectories, each re-read from its File and replayed with every
// preset in a corpus worker (offline, nothing leaves the page), summed up as each policy's median and total.
import * as Comlink from 'comlink';
import { COMPARE_POLICIES, corpusComparison, type CorpusPolicyRow, type PolicyComparison } from '../../src/compaction';
import { sampleIndices } from '../../src/corpus/judge';
import { policedWorker } from '../security/policed-worker';
import { useApp } from '../store';
import type { CorpusEntry } from '../store/corpus-slice';
import type { CorpusWorkerApi } from '../workers/corpus.worker';
import corpusWorkerUrl from '../workers/corpus.worker.ts?worker&url';
import { trajectorySource } from './corpus-client';

export interface CorpusCompareState {
  done: number;
  total: number;
  failed: number;
  status: 'running' | 'done' | 'cancelled';
  rows: CorpusPolicyRow[];
}

/** Trajectories worth replaying (more than one model call), in a stable order. */
export function compareCandidates(rows: readonly CorpusEntry[]): CorpusEntry[] {
  return rows.filter((r) => r.turns > 1).sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
}

export function runCorpusCompare(rows: readonly CorpusEntry[], size: number, onUpdate: (s: CorpusCompareState) => void): { cancel(): void } {
  const candidates = compareCandidates(rows);
  const sample = sampleIndices(candidates.length, size).map((i) => candidates[i]!);
  const worker = policedWorker(corpusWorkerUrl, { type: 'module', name: 'corpus-compare' });
  const api = Comlink.wrap<CorpusWorkerApi>(worker);
  let cancelled = false;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    api[Comlink.releaseProxy]();
    worker.terminate();
  };
  const comparisons: PolicyComparison[] = [];
  let failed = 0;
  const state = (status: CorpusCompareState['status']): CorpusCompareState => ({ done: comparisons.length + failed, total: sample.length, failed, status, rows: corpusComparison(comparisons) });
  onUpdate(state('running'));
  void (async () => {
    for (const entry of sample) {
      if (cancelled) break;
      try {
        const ref = useApp.getState().corpus?.files[entry.source];
        if (!ref) throw new Error('the corpus was closed');
        const out = await api.comparePolicies(await trajectorySource(entry, ref), entry.id, [...COMPARE_POLICIES]);
        if (out.ok) comparisons.push(out.comparison);
        else failed++;
      } catch {
        if (cancelled) break;
        failed++;
      }
      onUpdate(state('running'));
    }
    release();
    onUpdate(state(cancelled ? 'cancelled' : 'done'));
  })();
  return {
    cancel: () => {
      cancelled = true;
      release();
    },
  };
}
