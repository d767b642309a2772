// Work the user has not asked for yet, run when the page's main thread has nothing else to do.

/** Runs `work` in the main thread's next idle period (a timer where there is none); returns a cancel. */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work);
    return () => cancelIdleCallback(id);
  }
  const t = setTimeout(work, 200);
  return () => clearTimeout(t);
}
