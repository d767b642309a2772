// Notes and tags of the open sessions, by annotation key (the session hash, or `tab:<key>` when the
// hash is unknown). Kept in memory first; saved per hash to IndexedDB once the stored notes were read
// and merged in, so a save never overwrites notes not read yet. A storage failure becomes a notice and
// the notes stay here.
import type { StateCreator } from 'zustand';
import { addAnnotation, deleteAnnotation, editAnnotation, isSha256Hex, type Annotation, type AnnotationDraft, type AnnotationPatch } from '../../src/share';
import { loadNotes, saveNotes } from '../data/annotation-store';
import { storageProblem } from '../data/library-policy';
import { mergeAnnotations } from '../data/share-build';
import type { AppState } from './index';
import type { LoadedSession } from './session-slice';

export interface AnnotationsSlice {
  annotations: Record<string, Annotation[]>;
  /** Keys whose stored notes were read and merged (saving is safe). */
  notesReady: Record<string, boolean>;
  addNote(key: string, draft: AnnotationDraft): Annotation;
  editNote(key: string, id: string, patch: AnnotationPatch): void;
  deleteNote(key: string, id: string): void;
  /** Merges notes from a link or bundle; returns how many were new. */
  mergeNotes(key: string, incoming: readonly Annotation[]): number;
  /** Reads the stored notes of `key` once and merges them with what is in memory. */
  hydrateNotes(key: string): Promise<void>;
}

export const EMPTY_NOTES: readonly Annotation[] = Object.freeze([]) as readonly Annotation[];

/** The key notes of a loaded session live under. */
export function notesKey(s: Pick<LoadedSession, 'key' | 'hash'>): string {
  return s.hash ?? `tab:${s.key}`;
}

export const createAnnotationsSlice: StateCreator<AppState, [], [], AnnotationsSlice> = (set, get) => {
  const persist = (key: string) => {
    if (!isSha256Hex(key) || !get().notesReady[key]) return;
    saveNotes(key, get().annotations[key] ?? []).catch((e: unknown) => {
      get().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}. Your notes stay in this tab until you close it; export a bundle to keep them.` });
    });
  };
  const update = (key: string, f: (list: readonly Annotation[]) => Annotation[]) => {
    set((s) => ({ annotations: { ...s.annotations, [key]: f(s.annotations[key] ?? EMPTY_NOTES) } }));
    persist(key);
  };
  return {
    annotations: {},
    notesReady: {},
    addNote: (key, draft) => {
      let made: Annotation | undefined;
      update(key, (list) => {
        const next = addAnnotation(list, draft, { now: new Date().toISOString() });
        made = next[next.length - 1];
        return next;
      });
      return made!;
    },
    editNote: (key, id, patch) => update(key, (list) => editAnnotation(list, id, patch, new Date().toISOString())),
    deleteNote: (key, id) => update(key, (list) => deleteAnnotation(list, id)),
    mergeNotes: (key, incoming) => {
      let added = 0;
      update(key, (list) => {
        const r = mergeAnnotations(list, incoming);
        added = r.added;
        return r.list;
      });
      return added;
    },
    hydrateNotes: async (key) => {
      if (!isSha256Hex(key) || get().notesReady[key]) return;
      try {
        const stored = await loadNotes(key);
        if (get().notesReady[key]) return;
        const mine = get().annotations[key] ?? EMPTY_NOTES;
        // Stored first, so their ids stay; anything added in this tab before the read comes after.
        const merged = mergeAnnotations(stored.list, mine).list;
        set((s) => ({ annotations: { ...s.annotations, [key]: merged }, notesReady: { ...s.notesReady, [key]: true } }));
        if (stored.dropped) get().pushNotice({ id: `dropped-${key}`, tone: 'warn', text: `${stored.dropped} stored note${stored.dropped === 1 ? ' was' : 's were'} damaged and left out.` });
        if (mine.length) persist(key);
      } catch (e) {
        get().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}. Notes you add stay in this tab until you close it; export a bundle to keep them.` });
      }
    },
  };
};
