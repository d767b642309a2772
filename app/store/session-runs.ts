// Per-session state of a run in a worker (Compare policies, probes): the current run's id guards every patch, so a
// progress callback from a run the user replaced or cancelled changes nothing. Kept outside the panels so switching
// tabs loses nothing.
import { create } from 'zustand';

export interface RunState {
  runId: number;
}

export interface SessionRuns<T extends RunState> {
  /** A React hook: the session's state, or the idle one. */
  use(key: string): T;
  get(key: string): T;
  /** Merges `patch` into the session's state; with a `runId`, only while that run is the current one. */
  patch(key: string, runId: number | null, patch: Partial<T>): void;
}

export function sessionRuns<T extends RunState>(idle: T): SessionRuns<T> {
  const store = create<{ bySession: Record<string, T> }>()(() => ({ bySession: {} }));
  const get = (key: string) => store.getState().bySession[key] ?? idle;
  return {
    use: (key) => store((s) => s.bySession[key] ?? idle),
    get,
    patch: (key, runId, patch) =>
      store.setState((s) => {
        const cur = s.bySession[key] ?? idle;
        if (runId !== null && cur.runId !== runId) return {};
        return { bySession: { ...s.bySession, [key]: { ...cur, ...patch } } };
      }),
  };
}
