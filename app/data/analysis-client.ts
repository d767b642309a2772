// One analysis worker for the tab; results cached per session and provider rule.
import * as Comlink from 'comlink';
import { useEffect, useState } from 'react';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import type { AnalysisResult, AnalysisWorkerApi, CountProgress } from '../workers/analysis.worker';
import { unpackResult } from './analysis-wire';

export type { AnalysisResult, CountProgress };

let worker: Comlink.Remote<AnalysisWorkerApi> | null = null;
const sent = new Map<string, Promise<void>>();
const exactResults = new Map<string, Promise<AnalysisResult>>();

function api(): Comlink.Remote<AnalysisWorkerApi> {
  if (!worker) worker = Comlink.wrap<AnalysisWorkerApi>(new Worker(new URL('../workers/analysis.worker.ts', import.meta.url), { type: 'module', name: 'analysis' }));
  return worker;
}

function ensureSent(key: string, session: Session): Promise<void> {
  let p = sent.get(key);
  if (!p) {
    p = api().setSession(key, session);
    sent.set(key, p);
  }
  return p;
}

export function forgetSession(key: string): void {
  sent.delete(key);
  for (const k of [...exactResults.keys()]) if (k.startsWith(`${key}|`)) exactResults.delete(k);
  void worker?.dropSession(key);
}

export type AnalysisState =
  | { status: 'loading' }
  | { status: 'ready'; result: AnalysisResult; progress: CountProgress | null }
  | { status: 'error'; message: string };

/** Estimates first (at once), then exact counts with progress; an exact result is reused when cached. */
export function useAnalysis(key: string, session: Session, rule: ProviderRule | 'auto'): AnalysisState {
  const [state, setState] = useState<AnalysisState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const fail = (e: unknown) => live && setState({ status: 'error', message: e instanceof Error ? e.message : String(e) });
    const cacheKey = `${key}|${rule}`;
    const cached = exactResults.get(cacheKey);
    void (async () => {
      try {
        await ensureSent(key, session);
        if (!cached) {
          const estimate = unpackResult(await api().analyze(key, rule, 'estimate'), session);
          if (live) setState({ status: 'ready', result: estimate, progress: { done: 0, total: 1 } });
        }
        let exact = cached;
        if (!exact) {
          exact = api()
            .analyze(key, rule, 'exact', Comlink.proxy((p: CountProgress) => live && setState((s) => (s.status === 'ready' && !s.result.exact ? { ...s, progress: p } : s))))
            .then((packed) => unpackResult(packed, session));
          exactResults.set(cacheKey, exact);
          exact.catch(() => exactResults.delete(cacheKey));
        }
        const result = await exact;
        if (live) setState({ status: 'ready', result, progress: null });
      } catch (e) {
        fail(e);
      }
    })();
    return () => {
      live = false;
    };
  }, [key, session, rule]);
  return state;
}
