// Keeps the store's copy of the library list fresh; storage problems become a line in the Library.
import { useApp } from '../store';
import { forgetNotes } from './annotation-store';
import { listLibrary, removeFromLibrary } from './library';
import { storageProblem } from './library-policy';

export async function refreshLibrary(): Promise<void> {
  try {
    useApp.getState().setLibrary(await listLibrary());
  } catch (e) {
    useApp.getState().setLibrary([], `${storageProblem(e)}, so sessions are not remembered between visits.`);
  }
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
