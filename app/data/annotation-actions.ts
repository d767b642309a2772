// Adding, editing, merging and reading back notes: each changes the store, then saves the session's notes to
// IndexedDB once its stored notes were read and merged, so a save never overwrites notes not read yet. A storage
// failure becomes a notice and the notes stay in memory.
import { addAnnotation, deleteAnnotation, editAnnotation, isSha256Hex, type Annotation, type AnnotationDraft, type AnnotationPatch } from '../../src/share';
import { useApp } from '../store';
import { EMPTY_NOTES } from '../store/annotations-slice';
import { loadNotes, saveNotes } from './annotation-store';
import { storageProblem } from './library-policy';
import { mergeAnnotations } from './share-build';

function persist(key: string): void {
  const s = useApp.getState();
  if (!isSha256Hex(key) || !s.notesReady[key]) return;
  saveNotes(key, s.annotations[key] ?? []).catch((e: unknown) => {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}. Your notes stay in this tab until you close it; export a bundle to keep them.` });
  });
}

function update(key: string, f: (list: readonly Annotation[]) => Annotation[]): void {
  useApp.getState().updateNotes(key, f);
  persist(key);
}

export function addNote(key: string, draft: AnnotationDraft): Annotation {
  let made: Annotation | undefined;
  update(key, (list) => {
    const next = addAnnotation(list, draft, { now: new Date().toISOString() });
    made = next[next.length - 1];
    return next;
  });
  return made!;
}

export function editNote(key: string, id: string, patch: AnnotationPatch): void {
  update(key, (list) => editAnnotation(list, id, patch, new Date().toISOString()));
}

export function deleteNote(key: string, id: string): void {
  update(key, (list) => deleteAnnotation(list, id));
}

/** Merges notes from a link or bundle; returns how many were new. */
export function mergeNotes(key: string, incoming: readonly Annotation[]): number {
  let added = 0;
  update(key, (list) => {
    const r = mergeAnnotations(list, incoming);
    added = r.added;
    return r.list;
  });
  return added;
}

/** Reads the stored notes of `key` once and merges them with what is in memory. */
export async function hydrateNotes(key: string): Promise<void> {
  if (!isSha256Hex(key) || useApp.getState().notesReady[key]) return;
  try {
    const stored = await loadNotes(key);
    const s = useApp.getState();
    if (s.notesReady[key]) return;
    const mine = s.annotations[key] ?? EMPTY_NOTES;
    // Stored first, so their ids stay; anything added in this tab before the read comes after.
    s.setNotesReady(key, mergeAnnotations(stored.list, mine).list);
    if (stored.dropped) s.pushNotice({ id: `dropped-${key}`, tone: 'warn', text: `${stored.dropped} stored note${stored.dropped === 1 ? ' was' : 's were'} damaged and left out.` });
    if (mine.length) persist(key);
  } catch (e) {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}. Notes you add stay in this tab until you close it; export a bundle to keep them.` });
  }
}
