// A call's ghost rows rebuilt from the view's eviction map, token counts and removals: the same rows
// buildAnalysisView makes up front, for views built without them (`ghosts: false`), one call at a time.
import type { AnalysisView, GhostView } from './analysis-view';
import { labelAt } from './eviction-runs';

type GhostSource = Pick<AnalysisView, 'calls' | 'eviction' | 'tokens' | 'removedBy'>;

export function ghostsAt(view: GhostSource, ci: number): GhostView[] {
  const call = view.calls[ci];
  if (!call) return [];
  const present = new Set(call.entries.map((e) => e.id));
  const out: GhostView[] = [];
  for (const row of view.eviction) {
    const l = labelAt(row.runs, ci);
    if (l === null || l === 'verbatim' || l === 'masked' || present.has(row.itemId)) continue;
    out.push({ id: row.itemId, label: l, tokens: view.tokens.get(row.itemId) ?? 0, compactionId: view.removedBy?.get(row.itemId) ?? null });
  }
  return out;
}

/** `ghosts` for every call, each built on first read and kept, so a step reads the same array again. */
export function lazyGhosts(view: GhostSource): GhostView[][] {
  const ghosts: GhostView[][] = new Array<GhostView[]>(view.calls.length);
  for (let i = 0; i < view.calls.length; i++) {
    Object.defineProperty(ghosts, i, {
      configurable: true,
      enumerable: true,
      get() {
        const rows = ghostsAt(view, i);
        Object.defineProperty(ghosts, i, { value: rows, configurable: true, enumerable: true, writable: true });
        return rows;
      },
    });
  }
  return ghosts;
}
