// The exact count's progress, kept apart from the view it will replace, so a tick re-renders only what shows it.
// Carried in the view's state, each of ~16 ticks on a typical 3 MB session re-rendered the whole inspector while
// the pool counted: ~55 ms of main-thread CPU and ~50 ms of compiling on 2 cores, taken from the count itself.
import { useSyncExternalStore } from 'react';
import type { CountProgress } from '../workers/analysis.worker';

export interface ProgressSource {
  /** The last tick shown; null before the first. Read only while the counts are estimates. */
  get(): CountProgress | null;
  subscribe(listener: () => void): () => void;
}

/** Ticks closer than this to the last one shown are dropped (a percentage needs no more), except the final one. */
export const PROGRESS_EVERY_MS = 100;

export function progressSource(now: () => number = () => performance.now()): ProgressSource & { set(next: CountProgress): void } {
  let current: CountProgress | null = null;
  let shownAt = -Infinity;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      const t = now();
      const final = next.total > 0 && next.done >= next.total;
      if (current !== null && !final && t - shownAt < PROGRESS_EVERY_MS) return;
      shownAt = t;
      current = next;
      for (const l of listeners) l();
    },
  };
}

/** The count's progress of a ready analysis. */
export function useCountProgress(source: ProgressSource): CountProgress | null {
  return useSyncExternalStore(source.subscribe, source.get);
}
