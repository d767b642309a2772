// Keeps the store's copy of the library list fresh; storage problems become a line in the Library.
import { useApp } from '../store';
import { forgetNotes } from './annotation-store';
import { clearLibrary, listLibrary, removeFromLibrary } from './library';
import { storageProblem } from './library-policy';

export async function refreshLibrary(): Promise<void> {
  try {
    useApp.getState().setLibrary(await listLibrary());
  } catch (e) {
    useApp.getState().setLibrary([], `${storageProblem(e)}, so sessions are not remembered between visits.`);
  }
}

/** Forgets everything the library keeps (files and notes of every session); open tabs stay open. */
export async function clearLibraryEntries(hashes: readonly string[]): Promise<void> {
  try {
    await clearLibrary();
    for (const h of hashes) forgetNotes(h);
  } catch (e) {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}: the library could not be emptied.` });
  }
  await refreshLibrary();
}

export async function removeLibraryEntry(hash: string): Promise<void> {
  try {
    await removeFromLibrary(hash);
    forgetNotes(hash);
  } catch (e) {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}: the session could not be removed from the library.` });
  }
  await refreshLibrary();
}
