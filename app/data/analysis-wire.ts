// What crosses from the analysis worker to the page: the view with each of the session's own items replaced
// by its index in `session.items`. The page holds those items already; cloning their texts back (twice:
// estimate, then exact) doubled the page's heap and made each result's arrival a long main-thread task.
// Ghost rows are not sent at all (the worker builds the view with `ghosts: false`): the page builds each
// call's rows when it is shown, from the eviction map that crosses anyway.
import type { AnalysisView } from '../../src/analysis/analysis-view';
import { lazyGhosts } from '../../src/analysis/ghosts';
import type { EncodingChoice } from '../../src/tokens';
import type { Item, Session } from '../../src/model/types';

interface Result {
  view: AnalysisView;
  encoding: EncodingChoice;
  exact: boolean;
}

export interface PackedResult extends Omit<Result, 'view'> {
  view: Omit<AnalysisView, 'items'> & { items: (Item | number)[] };
}

/** Worker side: `session` is the worker's copy of the session the page sent (same items, same order). */
export function pack<R extends Result>(result: R, session: Session): PackedResult {
  const index = new Map<Item, number>(session.items.map((it, i) => [it, i]));
  return { ...result, view: { ...result.view, items: result.view.items.map((it) => index.get(it) ?? it) } };
}

/** Page side: `session` is the session the page sent with setSession. */
export function unpackResult(packed: PackedResult, session: Session): Result {
  const items = packed.view.items.map((it) => (typeof it === 'number' ? session.items[it]! : it));
  const view = { ...packed.view, items };
  if (view.ghosts.length === 0 && view.calls.length > 0) view.ghosts = lazyGhosts(view);
  return { ...packed, view };
}
