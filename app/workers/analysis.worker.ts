// Runs the whole analysis of a session off the main thread: contexts, token counts, cache, audits, lints.
import * as Comlink from 'comlink';
import { buildAnalysisView, type AnalysisView } from '../../src/analysis/analysis-view';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import { createTokenCounter, pickEncoding, TokenMemo, type EncodingName } from '../../src/tokens';

// Counts are memoized by content for the worker's lifetime: re-running with another provider rule is cheap.
const counters = new Map<EncodingName, Promise<(text: string) => number>>();

function counterFor(encoding: EncodingName): Promise<(text: string) => number> {
  let c = counters.get(encoding);
  if (!c) {
    c = createTokenCounter(encoding).then((counter) => {
      const memo = new TokenMemo();
      return (text: string) => memo.count(text, (t) => counter.count(t)).tokens;
    });
    counters.set(encoding, c);
  }
  return c;
}

const sessions = new Map<string, Session>();

const api = {
  /** Keeps the session in the worker so later runs (another rule) need not clone it again. */
  setSession(key: string, session: Session): void {
    sessions.set(key, session);
  },
  dropSession(key: string): void {
    sessions.delete(key);
  },
  async analyze(key: string, rule: ProviderRule | 'auto'): Promise<AnalysisView> {
    const session = sessions.get(key);
    if (!session) throw new Error(`session ${key} is not loaded in the analysis worker`);
    const count = await counterFor(pickEncoding(session.model).encoding);
    return buildAnalysisView(session, { count, rule });
  },
};

export type AnalysisWorkerApi = typeof api;
Comlink.expose(api);
