// The address bar names what the user looks at, so a link reopens it and Back/Forward walk it: the session's
// sources (`demo` and `file`, or `src`; `served` for a session listed by `serve`; `lib` for dropped files, kept in
// this browser's library), the call (`turn`, 1-based), the `item`, the `panel` and the left `view`. A reload reopens
// all of them where the user was.
// Opening or choosing a session pushes a history entry; stepping and switching panels replace it.
import { useEffect } from 'react';
import { DEMOS, demoUrls, type Demo } from '../demos';
import { useApp } from '../store';
import type { LoadedSession } from '../store/session-slice';

export interface UrlSpot {
  turn: number | null;
  item: string | null;
  panel: string | null;
  view: 'context' | 'transcript' | null;
}

/** What a history entry of this app holds: the tab it showed (null: the start page). */
export interface HistoryEntry {
  inspectorKey: string | null;
}

/** Query parameters that say which session a page shows; a session's address replaces them all. */
const SOURCE_PARAMS = ['demo', 'file', 'src', 'served', 'lib'] as const;
const SPOT_PARAMS = ['turn', 'item', 'panel', 'view'] as const;

export function readUrlSpot(search = location.search): UrlSpot {
  const p = new URLSearchParams(search);
  const turn = Number(p.get('turn'));
  const view = p.get('view');
  return {
    turn: Number.isInteger(turn) && turn > 0 ? turn : null,
    item: p.get('item'),
    panel: p.get('panel'),
    view: view === 'transcript' || view === 'context' ? view : null,
  };
}

export function spotSearch(search: string, spot: Partial<UrlSpot>): string {
  const p = new URLSearchParams(search);
  const put = (k: string, v: string | null | undefined) => {
    if (v === undefined) return;
    if (v === null) p.delete(k);
    else p.set(k, v);
  };
  put('turn', spot.turn === undefined ? undefined : spot.turn === null ? null : String(spot.turn));
  put('item', spot.item);
  put('panel', spot.panel);
  // The context is the default left view: only the transcript is named.
  put('view', spot.view === undefined ? undefined : spot.view === 'transcript' ? 'transcript' : null);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The demo a page address names (`?demo=<id>`), if any. */
export function demoInUrl(search = location.search): Demo | null {
  const id = new URLSearchParams(search).get('demo');
  return DEMOS.find((d) => d.id === id) ?? null;
}

/** The file of a multi-session demo the address names (`&file=`), so the link reopens that session's tab. */
export function fileInUrl(search = location.search): string | null {
  return new URLSearchParams(search).get('file');
}

/** The demo a session was opened from: every URL it came from is one of that demo's files. */
export function demoOf(loaded: Pick<LoadedSession, 'sourceUrls'>): Demo | null {
  const urls = loaded.sourceUrls ?? [];
  if (urls.length === 0) return null;
  const abs = (u: string) => new URL(u, location.href).href;
  return DEMOS.find((d) => {
    const own = new Set(demoUrls(d).map(abs));
    return urls.every((u) => own.has(abs(u)));
  }) ?? null;
}

/** The library entry an address names (`?lib=<sha256>`): files dropped earlier and kept in this browser. */
export function libraryHashInUrl(search = location.search): string | null {
  const h = new URLSearchParams(search).get('lib');
  return h && /^[0-9a-f]{64}$/.test(h) ? h : null;
}

/** The served session an address names (`?served=<root>/<path>`), under `compaction-inspector serve`. */
export function servedInUrl(search = location.search): string | null {
  return new URLSearchParams(search).get('served') || null;
}

/**
 * The address that reopens a session: the listed session under `serve`, its demo (and file, when the demo opens
 * several sessions), its source URLs, or, for dropped files, their library entry (the files are kept there).
 */
export function sessionSearch(search: string, loaded: LoadedSession | null): string {
  const p = new URLSearchParams(search);
  for (const k of [...SOURCE_PARAMS, ...SPOT_PARAMS]) p.delete(k);
  const demo = loaded && !loaded.served ? demoOf(loaded) : null;
  if (loaded?.served) p.set('served', loaded.served);
  else if (demo) {
    p.set('demo', demo.id);
    const urls = loaded!.sourceUrls ?? [];
    if (demo.files.length > 1 && urls.length < demo.files.length && urls[0]) p.set('file', decodeURIComponent(urls[0].split('/').pop() ?? ''));
  } else if (loaded?.sourceUrls?.length) {
    for (const u of loaded.sourceUrls) p.append('src', u);
  } else if (loaded?.hash && loaded.files?.length && !loaded.preview) {
    p.set('lib', loaded.hash);
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The place of the corpus view in history (a corpus has no address: its files were dropped). */
export const CORPUS_PLACE = 'corpus';

function entryState(place: string | null): HistoryEntry {
  return { ...(history.state ?? {}), inspectorKey: place };
}

type Places = { sessions: readonly LoadedSession[]; activeKey: string | null; corpus: unknown; corpusVisible: boolean };

/** What is in front: the corpus view, a session's tab, or (null) the start page. */
export function placeOf(s: Places): string | null {
  return s.corpus !== null && s.corpusVisible ? CORPUS_PLACE : s.activeKey;
}

let lastPlace: string | null | undefined;
/** The next change of place comes from history (Back/Forward) and adds no entry. */
let fromHistory = false;
/** The next change of place keeps the entry and the address it was opened from (a page's own address, a reopened entry). */
let keepAddress = false;

/** The first session a page's own address (?demo, ?src) opens keeps that address's entry; false once that open is over. */
export function keepAddressForNextPlace(keep = true): void {
  keepAddress = keep;
}

/**
 * Keeps history in step with what is in front: a session opened or chosen, or the corpus, gets an entry of its
 * own, pushed; a tab that takes another's place (a preview replaced by its full session, a closed tab) replaces it.
 */
export function followPlace(state: Places): void {
  const place = placeOf(state);
  if (place === lastPlace) return;
  const previous = lastPlace;
  lastPlace = place;
  if (fromHistory) {
    fromHistory = false;
    return;
  }
  const here = `${location.pathname}${location.search}${location.hash}`;
  if (previous === undefined) {
    history.replaceState(entryState(place), '', here);
    return;
  }
  if (keepAddress && place !== null && place !== CORPUS_PLACE) {
    keepAddress = false;
    history.replaceState(entryState(place), '', here);
    return;
  }
  const loaded = state.sessions.find((s) => s.key === place) ?? null;
  const url = `${location.pathname}${sessionSearch(location.search, loaded)}${location.hash}`;
  const previousGone = previous !== null && previous !== CORPUS_PLACE && !state.sessions.some((s) => s.key === previous);
  if (previousGone) history.replaceState(entryState(place), '', url);
  else history.pushState(entryState(place), '', url);
}

/**
 * Back/Forward: shows what the entry names (a tab at the spot its address names, the corpus, or the start
 * page); a demo or URL session whose tab was closed is opened again from the address.
 */
export function restoreFromHistory(entry: Partial<HistoryEntry> | null, reopen: (search: string) => void): void {
  // An entry this app did not write (a share link pasted as #fragment, which the page handles itself) moves nothing.
  if (!entry || !('inspectorKey' in entry)) return;
  const s = useApp.getState();
  const place = entry.inspectorKey ?? null;
  const search = location.search;
  const names = new URLSearchParams(search);
  offerUrlSpot();
  const now = placeOf(s);
  if (place === CORPUS_PLACE && s.corpus !== null) {
    fromHistory = now !== CORPUS_PLACE;
    s.showCorpus(true);
    return;
  }
  if (place !== null && s.sessions.some((x) => x.key === place)) {
    fromHistory = now !== place;
    if (now === place) applySpot(readUrlSpot(search));
    else {
      s.showCorpus(false);
      s.setActive(place);
    }
    return;
  }
  if (place !== null && (names.has('demo') || names.has('src') || names.has('lib') || names.has('served'))) {
    // Its tab was closed: the address still reopens it, in this entry.
    keepAddress = true;
    reopen(search);
    return;
  }
  fromHistory = now !== null;
  s.showCorpus(false);
  s.setActive(null);
}

/** Applies an address's spot to the session already in front. */
function applySpot(spot: UrlSpot): void {
  const s = useApp.getState();
  if (spot.turn !== null) s.setCall(spot.turn - 1);
  if (spot.item !== null) s.selectItem(spot.item);
  if (spot.panel) s.setPanel(spot.panel as never);
  if (spot.view) s.setLeftView(spot.view);
}

/** undefined: the page's own address has not been taken yet. */
let offered: UrlSpot | null | undefined;

/** The next inspector that opens takes this spot (the address's after Back/Forward). */
export function offerUrlSpot(spot: UrlSpot = readUrlSpot()): void {
  offered = spot;
}

/**
 * The spot the address names, for the first session shown after the page opened or history moved; none for the
 * others. Taken in an effect, not during render: a render React discards must not use it up.
 */
export function takeUrlSpot(): UrlSpot {
  const spot = offered === undefined ? readUrlSpot() : offered;
  offered = null;
  return spot ?? { turn: null, item: null, panel: null, view: null };
}

/** Mirrors the current call, item, panel and left view into the address bar without adding history entries. */
export function useUrlSync(active: boolean): void {
  const callIndex = useApp((s) => s.callIndex);
  const item = useApp((s) => s.selectedItemId);
  const panel = useApp((s) => s.panel);
  const view = useApp((s) => s.leftView);
  useEffect(() => {
    if (!active) return;
    // Written once stepping pauses: replaceState costs a few milliseconds, held `j` steps every frame.
    const t = setTimeout(() => {
      const next = spotSearch(location.search, { turn: callIndex + 1, item, panel, view });
      if (next !== location.search) history.replaceState(history.state, '', `${location.pathname}${next}${location.hash}`);
    }, 120);
    return () => clearTimeout(t);
  }, [active, callIndex, item, panel, view]);
}
