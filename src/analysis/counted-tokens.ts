// The tokens we count in each call's prompt: every item as the model saw it, plus recorded tool schemas.
// One definition for every surface; calibration (calibration.ts) turns it into the whole prompt.
import type { SessionContexts } from './session-analysis';

/**
 * Counted tokens per call. A replayed transcript sums its spans with a difference array (each span adds its
 * tokens over the calls it covers), so the cost grows with spans plus calls, never calls × context.
 */
export function countedPerCall(contexts: { readonly calls: readonly SessionContexts['calls'][number][]; readonly timeline: SessionContexts['timeline'] }, count: (text: string) => number): CountedCalls {
  const calls = contexts.calls;
  const tokens = new Array<number>(calls.length).fill(0);
  const items = new Array<number>(calls.length).fill(0);
  const timeline = contexts.timeline;
  if (timeline) {
    const delta = new Float64Array(calls.length + 1);
    const deltaItems = new Int32Array(calls.length + 1);
    for (const s of timeline.spans) {
      if (s.from >= s.to) continue;
      const t = count(s.item.text);
      const end = Math.min(s.to, calls.length);
      delta[s.from]! += t;
      delta[end]! -= t;
      deltaItems[s.from]!++;
      deltaItems[end]!--;
    }
    let run = 0;
    let runItems = 0;
    for (let ci = 0; ci < calls.length; ci++) {
      tokens[ci] = run += delta[ci]!;
      items[ci] = runItems += deltaItems[ci]!;
    }
  } else {
    calls.forEach((c, ci) => {
      let n = 0;
      for (const e of c.entries) n += count(e.item.text);
      tokens[ci] = n;
      items[ci] = c.entries.length;
    });
  }
  calls.forEach((c, ci) => {
    if (c.tools) tokens[ci]! += count(c.tools);
  });
  return { tokens, items };
}

export interface CountedCalls {
  /** Counted tokens per call. */
  tokens: number[];
  /** Items per call: each costs the provider some framing (role markers, block structure, ids) we do not count. */
  items: number[];
}
