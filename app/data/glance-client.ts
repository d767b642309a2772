// Measures the sessions `serve` lists, one after another in one worker, reporting each row as it is done. Glances
// already taken in this tab are kept by row and file state: coming back to the list measures only what changed.
import * as Comlink from 'comlink';
import type { SessionGlance } from '../../src/analysis/session-glance';
import type { GlanceWorkerApi } from '../workers/glance.worker';
import { fetchServedFiles, type ListedSession } from './serve-api';

/** Files bigger than this are measured only when opened: a glance must stay cheap. */
const GLANCE_MAX_BYTES = 64 << 20;

export type Glance = { state: 'pending' } | { state: 'done'; glance: SessionGlance } | { state: 'failed'; message: string } | { state: 'skipped' };

const taken = new Map<string, Glance>();
const takenKey = (s: ListedSession) => `${s.id}|${s.size}|${s.modified}`;

/** Reports a glance for every session (at once for those taken before); returns a function that stops the rest. */
export function glanceSessions(sessions: readonly ListedSession[], report: (s: ListedSession, g: Glance) => void): () => void {
  let stopped = false;
  const set = (s: ListedSession, g: Glance) => {
    if (g.state === 'done') taken.set(takenKey(s), g);
    report(s, g);
  };
  const todo = sessions.filter((s) => {
    const known = taken.get(takenKey(s));
    if (known) set(s, known);
    return !known;
  });
  if (todo.length === 0) return () => {};
  const worker = new Worker(new URL('../workers/glance.worker.ts', import.meta.url), { type: 'module', name: 'glance' });
  const api = Comlink.wrap<GlanceWorkerApi>(worker);
  void (async () => {
    for (const s of todo) {
      if (stopped) return;
      if (s.size > GLANCE_MAX_BYTES) {
        set(s, { state: 'skipped' });
        continue;
      }
      try {
        const outcome = await api.glance(await fetchServedFiles(s));
        if (!stopped) set(s, outcome.ok ? { state: 'done', glance: outcome.glance } : { state: 'failed', message: outcome.message });
      } catch (e) {
        if (!stopped) set(s, { state: 'failed', message: e instanceof Error ? e.message : String(e) });
      }
    }
  })();
  return () => {
    stopped = true;
    worker.terminate();
  };
}
