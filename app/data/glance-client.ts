// The measured columns of the sessions `serve` lists: those the listing brought (the server's per-file index beside
// its result cache), then the rest asked of the server one after another (it measures them in a worker thread and
// keeps them in the index). Glances already taken in this tab are kept by row and file state.
//
// They reach the table in batches, never one at a time: every report re-renders (and re-sorts) the whole table, so a
// report per session made a first visit of 1,000 sessions quadratic (736 rows measured in 10 minutes on a loaded
// 2-core machine while the server answered the other 264 in 0.8 s).
import type { SessionGlance } from '../../src/analysis/session-glance';
import { fetchGlance, type GlanceOutcome, type ServedSession } from './serve-api';

export type Glance = { state: 'pending' } | { state: 'done'; glance: SessionGlance } | { state: 'failed'; message: string } | { state: 'skipped' };

const taken = new Map<string, Glance>();
const takenKey = (s: ServedSession) => `${s.id}|${s.size}|${s.modified}`;

const asGlance = (o: GlanceOutcome): Glance => (o.ok ? { state: 'done', glance: o.glance } : 'skipped' in o ? { state: 'skipped' } : { state: 'failed', message: o.message });

/** The glance known without asking the server: the one the listing brought, or one this tab took before. */
export function knownGlance(s: ServedSession): Glance | undefined {
  return s.glance ? asGlance(s.glance) : taken.get(takenKey(s));
}

export interface GlanceOptions {
  /** Measured glances are held at most this long before they are reported together. */
  batchMs?: number;
  now?: () => number;
  fetch?: (s: ServedSession) => Promise<GlanceOutcome>;
}

/**
 * Reports a glance for every session, by session id, in batches: those known at once (one batch), then the rest as
 * the server measures them, a batch each `batchMs` and one at the end. Returns a function that stops the rest.
 */
export function glanceSessions(sessions: readonly ServedSession[], report: (batch: ReadonlyMap<string, Glance>) => void, opts: GlanceOptions = {}): () => void {
  const { batchMs = 250, now = () => performance.now(), fetch = fetchGlance } = opts;
  let stopped = false;
  const known = new Map<string, Glance>();
  const todo: ServedSession[] = [];
  for (const s of sessions) {
    const g = knownGlance(s);
    if (g) known.set(s.id, g);
    else todo.push(s);
  }
  if (known.size) report(known);
  void (async () => {
    let batch = new Map<string, Glance>();
    let since = now();
    for (const s of todo) {
      if (stopped) return;
      let g: Glance;
      try {
        g = asGlance(await fetch(s));
      } catch (e) {
        g = { state: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      if (stopped) return;
      if (g.state === 'done') taken.set(takenKey(s), g);
      batch.set(s.id, g);
      if (now() - since >= batchMs) {
        report(batch);
        batch = new Map();
        since = now();
      }
    }
    if (batch.size && !stopped) report(batch);
  })();
  return () => {
    stopped = true;
  };
}
