// Sharing and the library as the UI sees them: the shared link being opened, the library list, the
// share/export dialogs and plain notices (storage problems, bundle warnings) that never block work.
import type { StateCreator } from 'zustand';
import type { ShareState } from '../../src/share';
import { nextBannerSeq } from './banner-order';

/** A session in the local library (data/library.ts keeps them in IndexedDB), as the list shows it. */
export interface LibraryMeta {
  hash: string;
  title: string;
  format: string;
  fileNames: string[];
  totalBytes: number;
  /** ISO 8601, updated each time the session is opened. */
  openedAt: string;
  /** http(s) URLs the files came from (?src or a demo), else []. */
  sourceUrls: string[];
  /** Whether the files are kept (false: too large, or dropped to make room). */
  stored: boolean;
}

/** A library entry with the number of its saved notes. */
export interface LibraryEntry extends LibraryMeta {
  notes: number;
}

export interface Notice {
  /** Same id replaces the notice instead of stacking another. */
  id: string;
  tone: 'info' | 'warn' | 'error';
  text: string;
  /** One thing the user can do about it (the notice goes once it ran). */
  action?: { label: string; run(): void | Promise<void> };
  /** Its place among the banners (banner-order.ts); set when pushed. */
  seq?: number;
}

/**
 * A link's sources on another origin, waiting for the user's yes before anything is fetched (see
 * data/fetch-consent.ts). `via` says whether they came from `?src=` or a share link.
 */
export interface FetchConsent {
  urls: string[];
  origins: string[];
  via: 'src' | 'share';
  /** Why the answer could not be acted on (e.g. this tab cannot store it). */
  problem?: string;
}

/**
 * A share link the page was opened with (or pasted into the address bar):
 * - consent: its sources are on another origin and wait for the user's yes (fetchConsent);
 * - opening: loading from its source URLs or the library;
 * - need-file: asking for the file; any file opened now is checked against the link's hash;
 * - applied: a file with the link's hash opened at the link's view, with its notes;
 * - mismatch: the file opened differs from the link's;
 * - error: the link could not be read (nothing open was touched).
 * Files opened while the notice is up are checked against the link, until it is dismissed.
 */
export interface SharedLink {
  phase: 'consent' | 'opening' | 'need-file' | 'applied' | 'mismatch' | 'error';
  share: ShareState | null;
  /** Error text (phase error), or why the source could not be loaded (need-file). */
  message?: string;
  /** Hash of the file that was opened (mismatch). */
  fileHash?: string;
  /** Session the link was applied to, or opened on despite a mismatch. */
  targetKey?: string;
  /** Notes the link added. */
  added?: number;
}

export type ShareDialog = 'share' | 'bundle' | null;

export interface ShareSlice {
  notices: Notice[];
  pushNotice(n: Notice): void;
  dismissNotice(id: string): void;
  dismissAllNotices(): void;
  /** null until first read. */
  library: LibraryEntry[] | null;
  libraryProblem: string | null;
  setLibrary(list: LibraryEntry[] | null, problem?: string | null): void;
  libraryOpen: boolean;
  setLibraryOpen(open: boolean): void;
  sharedLink: SharedLink | null;
  setSharedLink(s: SharedLink | null): void;
  fetchConsent: FetchConsent | null;
  setFetchConsent(c: FetchConsent | null): void;
  shareDialog: ShareDialog;
  setShareDialog(d: ShareDialog): void;
}

export const createShareSlice: StateCreator<ShareSlice, [], [], ShareSlice> = (set) => ({
  notices: [],
  pushNotice: (n) => set((s) => ({ notices: [...s.notices.filter((x) => x.id !== n.id), { ...n, seq: nextBannerSeq() }] })),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((x) => x.id !== id) })),
  dismissAllNotices: () => set({ notices: [] }),
  library: null,
  libraryProblem: null,
  setLibrary: (library, problem = null) => set({ library, libraryProblem: problem }),
  libraryOpen: false,
  setLibraryOpen: (libraryOpen) => set({ libraryOpen }),
  sharedLink: null,
  setSharedLink: (sharedLink) => set({ sharedLink }),
  fetchConsent: null,
  setFetchConsent: (fetchConsent) => set({ fetchConsent }),
  shareDialog: null,
  setShareDialog: (shareDialog) => set({ shareDialog }),
});
