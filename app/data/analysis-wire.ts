// What crosses from the analysis worker to the page: the view with each of the session's own items replaced
// by its index in `session.items`. The page holds those items already; cloning their texts back (twice:
// estimate, then exact) doubled the page's heap and made each result's arrival a long main-thread task.
// A replayed transcript's calls cross without their entry lists (calls × items): the page reads each call's
// entries from the view's spans when it is shown. Ghost rows are not sent at all (the worker builds the view
// with `ghosts: false`): the page builds each call's rows when it is shown, from the eviction map.
import type { AnalysisView, CallView } from '../../src/analysis/analysis-view';
import { ViewTimeline } from '../../src/analysis/view-timeline';
import { lazyGhosts } from '../../src/analysis/ghosts';
import type { EncodingChoice } from '../../src/tokens';
import type { Item, Session } from '../../src/model/types';
import { applyLintRules } from '../../src/lints';

interface Result {
  view: AnalysisView;
  encoding: EncodingChoice;
  exact: boolean;
}

/** Parts of a big view sent in a message of their own, so no one message takes long to read on the page. */
export type ParkedPart = 'cache' | 'lintCandidates';
export const PARKED: readonly ParkedPart[] = ['cache', 'lintCandidates'];
/** Views with more calls than this send their parked parts apart. */
export const PARK_ABOVE_CALLS = 1000;

export interface PackedResult extends Omit<Result, 'view'> {
  view: Omit<AnalysisView, 'items' | 'calls' | 'lints' | StaticPart> & { items: (Item | number)[]; calls: PackedCall[] } & Partial<Pick<AnalysisView, StaticPart>>;
  /** The session's key: its static parts are left out after the first view of it that carried them. */
  key: string;
  /** The parked parts wait in the worker, to be fetched with `takeParked(key)`. */
  parked?: boolean;
}

/** Parts of a view that depend only on the session's contexts, not on counts or rule: sent once per session. */
// Compactions are not static: their sizes come from the calibration, which exact counts refine.
type StaticPart = 'eviction' | 'removedBy' | 'variants';
const STATIC: readonly StaticPart[] = ['eviction', 'removedBy', 'variants'];
/** Page side: the static parts of each session's views, by key. */
const staticParts = new Map<string, Pick<AnalysisView, StaticPart>>();
/** Worker side: keys whose static parts the page has. */
const sentStatic = new Set<string>();

/** Both sides forget a session's static parts when it closes. */
export function forgetStatic(key: string): void {
  staticParts.delete(key);
  sentStatic.delete(key);
}

/** A replayed transcript's call crosses without its entries: the page reads them from the view's spans. */
type PackedCall = Omit<CallView, 'entries'> & { entries?: CallView['entries'] };

/** Worker side: `session` is the worker's copy of the session the page sent (same items, same order). */
export function pack<R extends Result>(result: R, session: Session, key: string): PackedResult {
  const index = new Map<Item, number>(session.items.map((it, i) => [it, i]));
  const calls: PackedCall[] = result.view.spans ? result.view.calls.map(withoutEntries) : result.view.calls;
  // The lints are the candidates under the default rules (the worker applies none): the page works them out
  // again rather than receive every lint twice.
  const { lints: _lints, ...rest } = result.view;
  const view: PackedResult['view'] = { ...rest, calls, items: result.view.items.map((it) => index.get(it) ?? it) };
  if (sentStatic.has(key)) for (const k of STATIC) delete view[k];
  sentStatic.add(key);
  return { ...result, view, key };
}

/** Worker side: moves a big view's parked parts out of the result, to go in a second message. */
export function park(packed: PackedResult): Pick<AnalysisView, ParkedPart> | null {
  if (packed.view.calls.length <= PARK_ABOVE_CALLS) return null;
  const parts = { cache: packed.view.cache, lintCandidates: packed.view.lintCandidates };
  packed.view = { ...packed.view, cache: [], lintCandidates: [] };
  packed.parked = true;
  return parts;
}

/** Page side: puts the parked parts back. */
export function unpark(packed: PackedResult, parts: Pick<AnalysisView, ParkedPart>): PackedResult {
  return { ...packed, parked: false, view: { ...packed.view, ...parts } };
}

/** A copy of the call without reading its `entries` (a getter that would build the list just to drop it). */
function withoutEntries(call: CallView): PackedCall {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(call)) if (k !== 'entries') out[k] = call[k as keyof CallView];
  return out as PackedCall;
}

/** Page side: `session` is the session the page sent with setSession. */
export function unpackResult(packed: PackedResult, session: Session): Result {
  const items = packed.view.items.map((it) => (typeof it === 'number' ? session.items[it]! : it));
  const kept = staticParts.get(packed.key);
  const parts = STATIC.every((k) => packed.view[k] !== undefined) ? (Object.fromEntries(STATIC.map((k) => [k, packed.view[k]])) as Pick<AnalysisView, StaticPart>) : kept;
  if (!parts) throw new Error(`the analysis of ${packed.key} arrived without the parts sent before it`);
  staticParts.set(packed.key, parts);
  const view: AnalysisView = { ...packed.view, ...parts, items, calls: packed.view.calls as CallView[], lints: applyLintRules(packed.view.lintCandidates, packed.view.format) };
  if (view.spans) {
    const byId = new Map(items.map((it) => [it.id, it]));
    const timeline = new ViewTimeline({ calls: view.calls, spans: view.spans, itemById: (id) => byId.get(id), variants: view.variants });
    view.calls.forEach((call, ci) => Object.defineProperty(call, 'entries', { get: () => timeline.entriesAt(ci), enumerable: true, configurable: true }));
  }
  if (view.ghosts.length === 0 && view.calls.length > 0) view.ghosts = lazyGhosts(view);
  return { ...packed, view };
}
