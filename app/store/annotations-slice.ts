// Notes and tags of the open sessions, by annotation key (the session hash, or `tab:<key>` when the hash is unknown),
// and which keys' stored notes were read and merged. State and plain setters only: adding, merging and saving to
// IndexedDB are actions in data/annotation-actions.ts.
import type { StateCreator } from 'zustand';
import type { Annotation } from '../../src/share';
import type { LoadedSession } from './session-slice';

export interface AnnotationsSlice {
  annotations: Record<string, Annotation[]>;
  /** Keys whose stored notes were read and merged (saving is safe). */
  notesReady: Record<string, boolean>;
  /** Replaces the notes of `key` by `f` of the current ones. */
  updateNotes(key: string, f: (list: readonly Annotation[]) => Annotation[]): void;
  /** Sets the notes of `key` and marks its stored notes read. */
  setNotesReady(key: string, list: Annotation[]): void;
}

export const EMPTY_NOTES: readonly Annotation[] = Object.freeze([]) as readonly Annotation[];

/** The key notes of a loaded session live under. */
export function notesKey(s: Pick<LoadedSession, 'key' | 'hash'>): string {
  return s.hash ?? `tab:${s.key}`;
}

export const createAnnotationsSlice: StateCreator<AnnotationsSlice, [], [], AnnotationsSlice> = (set) => ({
  annotations: {},
  notesReady: {},
  updateNotes: (key, f) => set((s) => ({ annotations: { ...s.annotations, [key]: f(s.annotations[key] ?? EMPTY_NOTES) } })),
  setNotesReady: (key, list) => set((s) => ({ annotations: { ...s.annotations, [key]: list }, notesReady: { ...s.notesReady, [key]: true } })),
});
