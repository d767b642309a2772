// Reads the app's IndexedDB library from the page, to wait until a dropped session's files are kept.
import type { Page } from '@playwright/test';

/** Whether the library keeps the files of the session with this hash. */
export function libraryKeepsFiles(page: Page, hash: string): Promise<boolean> {
  return page.evaluate(
    (h) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('compaction-inspector');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('files')) return resolve(false);
          const req = db.transaction('files', 'readonly').objectStore('files').getKey(h);
          req.onsuccess = () => {
            resolve(req.result !== undefined);
            db.close();
          };
          req.onerror = () => resolve(false);
        };
      }),
    hash,
  );
}
