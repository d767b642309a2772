// Loaded sessions, the active one, load progress and the problems found while loading. A big JSONL
// file shows a preview (its first lines) in a tab of its own while it loads; the full session then
// takes that tab's place, once its view is ready when the preview is in front.
import type { StateCreator } from 'zustand';
import type { InstructionFile, ParseIssue, Session } from '../../src/model/types';
import type { ReportedView } from '../../src/analysis/reported-view';
import { nextBannerSeq } from './banner-order';

/** How far the load worker has read (then parsed) a file; the progress bar shows it. */
export interface LoadProgress {
  file: string;
  loaded: number;
  total: number;
  phase: 'reading' | 'parsing';
}

export interface LoadedSession {
  /** Unique in this tab, even when the same file is opened twice. */
  key: string;
  session: Session;
  /** sessionHash() of the files it was built from (keys the library, notes and share links); null if unknown. */
  hash?: string | null;
  /** http(s) URLs its files came from (?src or a demo), else []. */
  sourceUrls?: string[];
  /** The files it was built from, for the library and bundles. */
  files?: File[];
  /** Under `serve`: the listed session it is (`<root>/<path>`), so its address reopens it. */
  served?: string;
  /** Set while this is only the start of a file still loading: no hash, files, library entry or share link. */
  preview?: PreviewInfo;
  /** What its reported usage shows before the analysis's first view (src/analysis/reported-view.ts). */
  reported?: ReportedView | null;
  /**
   * Instruction files the user added (CLAUDE.md, AGENTS.md, …): only the summary audit reads them. Kept in memory
   * only: never in the library, a bundle or a link.
   */
  instructionFiles?: readonly AddedInstructionFile[];
}

/** An instruction file as the user added it to a session: its text, its size in bytes, and an id to remove it by. */
export interface AddedInstructionFile extends InstructionFile {
  id: number;
  size: number;
  /** Found by `serve` where the session ran (not picked by the user); the panel says so. */
  foundWhereItRan?: true;
}

/** A load's first session as its reported usage shows it, in front before the session itself reaches the page. */
export type FirstLook = ReportedView & { title: string; format: Session['format'] };

/** What a preview shows of its file. */
export interface PreviewInfo {
  file: string;
  /** Bytes parsed for the preview, and the file's size. */
  bytes: number;
  totalBytes: number;
  /** Records in the preview, and the file's estimated from its size. */
  records: number;
  estimatedRecords: number;
}

/** What the loader knows about each loaded session besides the session itself (same order); `key` when reserved. */
export type SessionExtra = Pick<LoadedSession, 'hash' | 'sourceUrls' | 'files' | 'served' | 'reported' | 'instructionFiles'> & { key?: string };

/** The load behind a preview: its progress, then the full session waiting to take the preview's place. */
export interface PreviewLoad {
  progress: LoadProgress | null;
  /** The full session and the key reserved for it, once the whole file is parsed. */
  full: { key: string; session: Session } | null;
  /** The full session's view is ready (or failed): it may replace the preview now. */
  ready: boolean;
}

export interface LoadReport {
  id: number;
  /** Its place among the banners (banner-order.ts). */
  seq: number;
  files: string[];
  issues: ParseIssue[];
  loadedSessions: number;
}

export interface SessionSlice {
  sessions: LoadedSession[];
  activeKey: string | null;
  progress: LoadProgress | null;
  /** Loads in flight; progress reported after the last one finished is stale and ignored. */
  loads: number;
  reports: LoadReport[];
  /** The load behind each open preview, by the preview's key. */
  previewLoads: Record<string, PreviewLoad>;
  /** Shown in front while a load's session crosses to the page; finishLoad clears it. */
  firstLook: FirstLook | null;
  showFirstLook(look: FirstLook | null): void;
  beginLoad(): void;
  setProgress(p: LoadProgress | null): void;
  /** Opens a preview in a new, active tab and returns its key; its load's progress goes to setPreviewProgress. */
  showPreview(session: Session, info: PreviewInfo): string;
  setPreviewProgress(key: string, p: LoadProgress | null): void;
  /** Parks the full session beside its preview under a key of its own (returned), so its analysis can start. */
  stagePreviewFull(previewKey: string, session: Session): string;
  markPreviewFullReady(previewKey: string): void;
  /**
   * Adds what loaded; never removes what was already open, except the preview named by `replaces`:
   * the sessions take its place in the tabs (and its active state), or it goes away when none loaded.
   */
  finishLoad(files: string[], sessions: Session[], issues: ParseIssue[], extras?: SessionExtra[], replaces?: string): void;
  /** null shows the start page (Back to it); the tabs stay open. */
  setActive(key: string | null): void;
  closeSession(key: string): void;
  /** Sets the instruction files of an open session (an empty list removes them); nothing when it is gone. */
  setInstructionFiles(key: string, files: readonly AddedInstructionFile[]): void;
  dismissReport(id: number): void;
  dismissAllReports(): void;
}

let nextKey = 1;
let nextReport = 1;

/** Updates an open preview's load; nothing when the preview is gone (closed or replaced). */
function withLoad(state: SessionSlice, key: string, patch: Partial<PreviewLoad>): Partial<SessionSlice> {
  const load = state.previewLoads[key];
  return load ? { previewLoads: { ...state.previewLoads, [key]: { ...load, ...patch } } } : {};
}

export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set) => ({
  sessions: [],
  activeKey: null,
  progress: null,
  loads: 0,
  reports: [],
  previewLoads: {},
  firstLook: null,
  showFirstLook: (firstLook) => set({ firstLook }),
  beginLoad: () => set((s) => ({ loads: s.loads + 1, progress: s.progress ?? { file: '', loaded: 0, total: 0, phase: 'reading' } })),
  setProgress: (progress) => set((s) => (s.loads > 0 ? { progress } : {})),
  showPreview: (session, info) => {
    // Its own key space: the analysis cache is keyed by session key, and a preview must never share one with its full session.
    const key = `preview:${session.id}#${nextKey++}`;
    set((state) => ({
      sessions: [...state.sessions, { key, session, hash: null, sourceUrls: [], preview: info }],
      activeKey: key,
      // The preview's status line shows this load's progress from now on.
      progress: null,
      previewLoads: { ...state.previewLoads, [key]: { progress: state.progress, full: null, ready: false } },
    }));
    return key;
  },
  setPreviewProgress: (key, progress) => set((state) => withLoad(state, key, { progress })),
  stagePreviewFull: (previewKey, session) => {
    const key = `${session.id}#${nextKey++}`;
    set((state) => withLoad(state, previewKey, { full: { key, session } }));
    return key;
  },
  markPreviewFullReady: (previewKey) => set((state) => withLoad(state, previewKey, { ready: true })),
  finishLoad: (files, sessions, issues, extras, replaces) =>
    set((state) => {
      const added: LoadedSession[] = sessions.map((session, i) => {
        const { key, ...extra } = extras?.[i] ?? {};
        return { key: key ?? `${session.id}#${nextKey++}`, session, ...extra };
      });
      const ordered = [...issues].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
      const report: LoadReport = { id: nextReport++, seq: nextBannerSeq(), files, issues: ordered, loadedSessions: sessions.length };
      const loads = Math.max(0, state.loads - 1);
      const at = replaces === undefined ? -1 : state.sessions.findIndex((s) => s.key === replaces);
      let next: LoadedSession[];
      let activeKey: string | null;
      if (at < 0) {
        next = [...state.sessions, ...added];
        activeKey = added[0]?.key ?? state.activeKey;
      } else {
        const rest = state.sessions.filter((_, i) => i !== at);
        next = [...rest.slice(0, at), ...added, ...rest.slice(at)];
        // Only a preview in front hands the front to its session; one in the background stays there.
        const wasActive = state.activeKey === replaces;
        activeKey = wasActive ? (added[0]?.key ?? next[Math.min(at, next.length - 1)]?.key ?? null) : state.activeKey;
      }
      const previewLoads = { ...state.previewLoads };
      if (replaces !== undefined) delete previewLoads[replaces];
      return {
        sessions: next,
        activeKey,
        firstLook: null,
        loads,
        progress: loads > 0 ? state.progress : null,
        reports: issues.length ? [report, ...state.reports] : state.reports,
        previewLoads,
      };
    }),
  setActive: (activeKey) => set({ activeKey }),
  closeSession: (key) =>
    set((state) => {
      const sessions = state.sessions.filter((s) => s.key !== key);
      const previewLoads = { ...state.previewLoads };
      delete previewLoads[key];
      return { sessions, activeKey: state.activeKey === key ? (sessions[0]?.key ?? null) : state.activeKey, previewLoads };
    }),
  setInstructionFiles: (key, files) =>
    set((state) => {
      if (!state.sessions.some((s) => s.key === key)) return {};
      const sessions = state.sessions.map((s) => {
        if (s.key !== key) return s;
        const { instructionFiles: _old, ...rest } = s;
        return files.length ? { ...rest, instructionFiles: files } : rest;
      });
      return { sessions };
    }),
  dismissReport: (id) => set((state) => ({ reports: state.reports.filter((r) => r.id !== id) })),
  dismissAllReports: () => set({ reports: [] }),
});
