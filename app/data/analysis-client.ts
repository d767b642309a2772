// One analysis worker for the tab; results cached per session and provider rule.
import * as Comlink from 'comlink';
import { useEffect, useState } from 'react';
import type { ProviderRule } from '../../src/cache';
import type { CompactionAudit } from '../../src/audit';
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

/** Sessions the load worker sent straight to the analysis worker, by the id it sent them under. */
const handOffs = new WeakMap<Session, string>();

/** One end of a channel to the analysis worker, for the load worker to send it the sessions it parses. */
export function sessionPort(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  void api().acceptSessions(Comlink.transfer(port2, [port2]));
  return port1;
}

export function handedOff(session: Session, id: string): void {
  handOffs.set(session, id);
}

function ensureSent(key: string, session: Session): Promise<void> {
  let p = sent.get(key);
  if (!p) {
    const id = handOffs.get(session);
    p = id ? api().adopt(key, id) : api().setSession(key, session);
    sent.set(key, p);
  }
  return p;
}

export function forgetSession(key: string): void {
  sent.delete(key);
  for (const k of [...exactResults.keys()]) if (k.startsWith(`${key}|`)) exactResults.delete(k);
  auditResults.delete(key);
  void worker?.dropSession(key);
}

export type AnalysisState =
  | { status: 'loading' }
  | { status: 'ready'; result: AnalysisResult; progress: CountProgress | null }
  | { status: 'error'; message: string };

/** The summary audits of a session, asked for once: they do not depend on the rule or the counts. */
const auditResults = new Map<string, Promise<CompactionAudit[]>>();
function auditsOf(key: string): Promise<CompactionAudit[]> {
  let p = auditResults.get(key);
  if (!p) {
    p = api().audits(key);
    auditResults.set(key, p);
    p.catch(() => auditResults.delete(key));
  }
  return p;
}

function withAudits(result: AnalysisResult, audits: CompactionAudit[] | null): AnalysisResult {
  if (!audits || !result.view.pending.includes('audits')) return result;
  return { ...result, view: { ...result.view, audits, pending: result.view.pending.filter((p) => p !== 'audits') } };
}

/**
 * Estimates first (at once), then exact counts with progress, then the cache prefix and lints; the summary
 * audits arrive on their own, whichever view is shown by then. A finished result is reused when cached.
 */
export function useAnalysis(key: string, session: Session, rule: ProviderRule | 'auto'): AnalysisState {
  const [state, setState] = useState<AnalysisState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    let audits: CompactionAudit[] | null = null;
    const fail = (e: unknown) => live && setState({ status: 'error', message: e instanceof Error ? e.message : String(e) });
    const show = (result: AnalysisResult, progress: CountProgress | null) => live && setState({ status: 'ready', result: withAudits(result, audits), progress });
    const cacheKey = `${key}|${rule}`;
    const cached = exactResults.get(cacheKey);
    void (async () => {
      try {
        await ensureSent(key, session);
        if (!cached) show(unpackResult(await api().analyze(key, rule, 'estimate'), session), { done: 0, total: 1 });
        auditsOf(key)
          .then((rows) => {
            audits = rows;
            if (live) setState((s) => (s.status === 'ready' ? { ...s, result: withAudits(s.result, rows) } : s));
          })
          .catch(fail);
        let done = cached;
        if (!done) {
          const exact = api()
            .analyze(key, rule, 'exact', Comlink.proxy((p: CountProgress) => live && setState((s) => (s.status === 'ready' && !s.result.exact ? { ...s, progress: p } : s))))
            .then((packed) => unpackResult(packed, session));
          done = exact.then(async (result) => {
            show(result, null);
            return unpackResult(await api().analyze(key, rule, 'complete'), session);
          });
          exactResults.set(cacheKey, done);
          done.catch(() => exactResults.delete(cacheKey));
        }
        show(await done, null);
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
