// The measured columns of the sessions `serve` lists: those the listing brought (the server's per-file index beside
// its result cache), then the rest asked of the server one after another (it measures them in a worker thread and
// keeps them in the index). Glances already taken in this tab are kept by row and file state.
import type { SessionGlance } from '../../src/analysis/session-glance';
import { fetchGlance, type GlanceOutcome, type ServedSession } from './serve-api';

export type Glance = { state: 'pending' } | { state: 'done'; glance: SessionGlance } | { state: 'failed'; message: string } | { state: 'skipped' };

const taken = new Map<string, Glance>();
const takenKey = (s: ServedSession) => `${s.id}|${s.size}|${s.modified}`;

const asGlance = (o: GlanceOutcome): Glance => (o.ok ? { state: 'done', glance: o.glance } : 'skipped' in o ? { state: 'skipped' } : { state: 'failed', message: o.message });

/** Reports a glance for every session (at once for those known); returns a function that stops the rest. */
export function glanceSessions(sessions: readonly ServedSession[], report: (s: ServedSession, g: Glance) => void): () => void {
  let stopped = false;
  const set = (s: ServedSession, g: Glance) => {
    if (g.state === 'done') taken.set(takenKey(s), g);
    report(s, g);
  };
  const todo = sessions.filter((s) => {
    const known = s.glance ? asGlance(s.glance) : taken.get(takenKey(s));
    if (known) set(s, known);
    return !known;
  });
  void (async () => {
    for (const s of todo) {
      if (stopped) return;
      let g: Glance;
      try {
        g = asGlance(await fetchGlance(s));
      } catch (e) {
        g = { state: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      if (!stopped) set(s, g);
    }
  })();
  return () => {
    stopped = true;
  };
}
