// One analysis worker for the tab; results cached per session and provider rule.
import * as Comlink from 'comlink';
import { useEffect, useState } from 'react';
import type { AnalysisView } from '../../src/analysis/analysis-view';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import type { AnalysisWorkerApi } from '../workers/analysis.worker';

let worker: Comlink.Remote<AnalysisWorkerApi> | null = null;
const sent = new Set<string>();
const results = new Map<string, Promise<AnalysisView>>();

function api(): Comlink.Remote<AnalysisWorkerApi> {
  if (!worker) worker = Comlink.wrap<AnalysisWorkerApi>(new Worker(new URL('../workers/analysis.worker.ts', import.meta.url), { type: 'module', name: 'analysis' }));
  return worker;
}

export function analyze(key: string, session: Session, rule: ProviderRule | 'auto'): Promise<AnalysisView> {
  const cacheKey = `${key}|${rule}`;
  let p = results.get(cacheKey);
  if (!p) {
    const remote = api();
    p = (async () => {
      if (!sent.has(key)) {
        sent.add(key);
        await remote.setSession(key, session);
      }
      return remote.analyze(key, rule);
    })();
    p.catch(() => results.delete(cacheKey));
    results.set(cacheKey, p);
  }
  return p;
}

export function forgetSession(key: string): void {
  sent.delete(key);
  for (const k of [...results.keys()]) if (k.startsWith(`${key}|`)) results.delete(k);
  void worker?.dropSession(key);
}

export type AnalysisState = { status: 'loading' } | { status: 'ready'; view: AnalysisView } | { status: 'error'; message: string };

export function useAnalysis(key: string, session: Session, rule: ProviderRule | 'auto'): AnalysisState {
  const [state, setState] = useState<AnalysisState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    analyze(key, session, rule).then(
      (view) => live && setState({ status: 'ready', view }),
      (e: unknown) => live && setState({ status: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [key, session, rule]);
  return state;
}
