// What happens around a load besides parsing: each session gets its hash, files and source URLs, a link's or
// bundle's view waits for its session, and after the load the session goes to the library and its notes are read,
// merged and applied.
import type { Session } from '../../src/model/types';
import type { Annotation, ViewState } from '../../src/share';
import { useApp } from '../store';
import { notesKey } from '../store/annotations-slice';
import type { SessionExtra } from '../store/session-slice';
import { hydrateNotes, mergeNotes } from './annotation-actions';
import type { InstructionSource } from './instruction-files';
import { rememberSession } from './library';
import { storageProblem } from './library-policy';
import type { LoadSource, WorkerLoadResult } from './load-client';
import { setPendingView } from './pending-view';
import { refreshLibrary } from './library-actions';
import { absoluteUrls, nameFromUrl, pickByName, viewFromStore } from './share-build';

/** A bundle's contents, to apply to the session its files make. */
export interface BundleIntent {
  name: string;
  hash: string;
  view: ViewState;
  annotations: Annotation[];
}

export interface OpenOptions {
  /** URLs the sources were fetched from (?src, a demo, a link's sourceUrls). */
  sourceUrls?: string[];
  /** Fetched from another origin: the library gets the session only when the user keeps it. */
  askToKeep?: boolean;
  bundle?: BundleIntent;
  /** Open only the session with this id (a corpus row's sample of a log that holds many); never as a corpus. */
  only?: string;
  /** Under `serve`: the listed session the files are (its id), kept in the address so a reload reopens it. */
  served?: string;
  /** Instruction files a dropped folder's plan set apart, with their paths: they go with the sessions that open. */
  instructions?: InstructionSource[];
}

/** Sources as File objects (pasted text becomes a file), in the same order. */
export function asFiles(sources: readonly LoadSource[]): File[] {
  return sources.map((s) => (s instanceof File ? s : s instanceof Blob ? new File([s], 'file') : new File([s.text], s.name)));
}

/** Hash, files and source URLs of each loaded session, in the loader's order. */
export function extrasFor(result: WorkerLoadResult, files: readonly File[], opts: OpenOptions): SessionExtra[] {
  const base = location.href;
  const urls = (opts.sourceUrls ?? []).map((u, i) => ({ name: nameFromUrl(u, base, i), url: u }));
  return result.sessions.map((session, i) => {
    const own = pickByName(session.files, files) ?? undefined;
    const fromUrls = pickByName(session.files, urls);
    return {
      hash: result.hashes[i] ?? null,
      files: own,
      // Only when every file of the session came from a URL can a teammate's app rebuild it from them.
      sourceUrls: fromUrls ? absoluteUrls(fromUrls.map((u) => u.url), base) : [],
      reported: result.reported?.[i] ?? null,
      ...(opts.served !== undefined && i === 0 ? { served: opts.served } : {}),
    };
  });
}

/**
 * Before the sessions appear: a bundle's or a waiting link's view is set for the session it belongs
 * to, so the inspector opens there. Returns which session (by index) each applies to.
 */
export function planViews(sessions: readonly Session[], extras: readonly SessionExtra[], opts: OpenOptions): { bundleAt: number; linkAt: number; linkMatch: boolean } {
  let bundleAt = -1;
  if (opts.bundle && sessions.length) {
    const i = extras.findIndex((e) => e.hash === opts.bundle!.hash);
    bundleAt = i >= 0 ? i : 0;
    setPendingView(sessions[bundleAt]!, opts.bundle.view);
  }
  const link = useApp.getState().sharedLink;
  let linkAt = -1;
  let linkMatch = false;
  if (link?.share && link.phase !== 'error' && sessions.length && !opts.bundle) {
    const i = extras.findIndex((e) => e.hash === link.share!.sessionHash);
    linkMatch = i >= 0;
    linkAt = linkMatch ? i : 0;
    // On a different file the view is still applied where it fits (fitViewState), so the user lands near the spot.
    setPendingView(sessions[linkAt]!, link.share.view);
  }
  return { bundleAt, linkAt, linkMatch };
}

/**
 * Before a full session takes its preview's place: the user stays where they were in the preview (call,
 * item, panel), unless a link's or bundle's view already waits for that session. A call the address bar
 * named beyond the preview's last (`urlTurn`, when the preview took the page's spot) is kept for the full one.
 */
export function keepPreviewPlace(previewKey: string, sessions: readonly Session[], plan: ReturnType<typeof planViews>, urlTurn: number | null = null): void {
  const state = useApp.getState();
  const full = sessions[0];
  if (!full || state.activeKey !== previewKey || plan.linkAt === 0 || plan.bundleAt === 0) return;
  const view = viewFromStore(state);
  setPendingView(full, urlTurn !== null && view.turn < urlTurn ? { ...view, turn: urlTurn } : view);
}

/** Notes taken on a preview go to its full session (they wait in memory until its stored notes are read). */
export function carryPreviewNotes(previewKey: string, full: Session | undefined): void {
  const state = useApp.getState();
  const notes = state.annotations[notesKey({ key: previewKey, hash: null })];
  const target = full && state.sessions.find((x) => x.session === full);
  if (!notes?.length || !target) return;
  mergeNotes(notesKey(target), notes);
}

/** Removes a handled share link from the address bar, so a reload does not open it again. */
export function clearShareFragment(): void {
  if (location.hash) history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

/** After the sessions appear: library, stored notes, and the notes a bundle or link brings. */
export async function afterLoad(sessions: readonly Session[], plan: ReturnType<typeof planViews>, opts: OpenOptions): Promise<void> {
  const state = useApp.getState();
  const loaded = sessions.map((s) => state.sessions.find((x) => x.session === s)).filter((x) => x !== undefined);
  if (loaded.length !== sessions.length) return; // closed already
  const link = state.sharedLink;
  if (plan.linkAt >= 0 && link?.share) {
    clearShareFragment();
    const target = loaded[plan.linkAt]!;
    if (plan.linkMatch) {
      await hydrateNotes(notesKey(target));
      const added = mergeNotes(notesKey(target), link.share.annotations);
      useApp.getState().setSharedLink({ ...link, phase: 'applied', targetKey: target.key, added });
    } else {
      useApp.getState().setSharedLink({ ...link, phase: 'mismatch', targetKey: target.key, fileHash: target.hash ?? undefined });
    }
  }
  for (const [i, s] of loaded.entries()) {
    await hydrateNotes(notesKey(s));
    if (i === plan.bundleAt && opts.bundle) {
      const added = mergeNotes(notesKey(s), opts.bundle.annotations);
      useApp.getState().pushNotice({
        id: `bundle-${opts.bundle.name}`,
        tone: 'info',
        text: `Opened the bundle ${opts.bundle.name}: ${added ? `${added} note${added === 1 ? '' : 's'} added` : 'no new notes'}, at call ${opts.bundle.view.turn}.`,
      });
    }
    if (!s.hash || !s.files?.length) continue;
    const entry = { hash: s.hash, title: s.session.title, format: s.session.format, files: s.files, sourceUrls: s.sourceUrls ?? [] };
    if (opts.askToKeep) {
      useApp.getState().pushNotice({
        id: `keep-${s.hash}`,
        tone: 'info',
        text: `"${s.session.title}" came from a link and is open in this tab only; nothing of it is stored unless you keep it.`,
        action: { label: 'Keep in library', run: () => keepInLibrary(entry) },
      });
      continue;
    }
    await keepInLibrary(entry, false);
  }
  await refreshLibrary();
}

/** Stores a session in the library; a storage failure becomes a notice (the session stays open). */
export async function keepInLibrary(entry: Parameters<typeof rememberSession>[0], refresh = true): Promise<void> {
  try {
    const notice = await rememberSession(entry);
    if (notice) useApp.getState().pushNotice({ id: `library-${entry.hash}`, tone: 'info', text: notice });
  } catch (e) {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}. "${entry.title}" was not added to the library; it stays open in this tab.` });
  }
  if (refresh) await refreshLibrary();
}
