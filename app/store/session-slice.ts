// Loaded sessions, the active one, load progress and the problems found while loading.
import type { StateCreator } from 'zustand';
import type { ParseIssue, Session } from '../../src/model/types';
import type { LoadProgress } from '../data/load-client';

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
}

/** What the loader knows about each loaded session besides the session itself (same order). */
export type SessionExtra = Pick<LoadedSession, 'hash' | 'sourceUrls' | 'files'>;

export interface LoadReport {
  id: number;
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
  beginLoad(): void;
  setProgress(p: LoadProgress | null): void;
  /** Adds what loaded; never removes what was already open. */
  finishLoad(files: string[], sessions: Session[], issues: ParseIssue[], extras?: SessionExtra[]): void;
  setActive(key: string): void;
  closeSession(key: string): void;
  dismissReport(id: number): void;
}

let nextKey = 1;
let nextReport = 1;

export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set) => ({
  sessions: [],
  activeKey: null,
  progress: null,
  loads: 0,
  reports: [],
  beginLoad: () => set((s) => ({ loads: s.loads + 1, progress: s.progress ?? { file: '', loaded: 0, total: 0, phase: 'reading' } })),
  setProgress: (progress) => set((s) => (s.loads > 0 ? { progress } : {})),
  finishLoad: (files, sessions, issues, extras) =>
    set((state) => {
      const added = sessions.map((session, i) => ({ key: `${session.id}#${nextKey++}`, session, ...extras?.[i] }));
      const ordered = [...issues].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
      const report: LoadReport = { id: nextReport++, files, issues: ordered, loadedSessions: sessions.length };
      const loads = Math.max(0, state.loads - 1);
      return {
        sessions: [...state.sessions, ...added],
        activeKey: added[0]?.key ?? state.activeKey,
        loads,
        progress: loads > 0 ? state.progress : null,
        reports: issues.length ? [report, ...state.reports] : state.reports,
      };
    }),
  setActive: (activeKey) => set({ activeKey }),
  closeSession: (key) =>
    set((state) => {
      const sessions = state.sessions.filter((s) => s.key !== key);
      return { sessions, activeKey: state.activeKey === key ? (sessions[0]?.key ?? null) : state.activeKey };
    }),
  dismissReport: (id) => set((state) => ({ reports: state.reports.filter((r) => r.id !== id) })),
});
