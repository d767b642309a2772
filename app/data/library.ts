// The local library: sessions opened before, keyed by their content hash (sessionHash), kept in
// IndexedDB with their files so they reopen without dropping the file again, and their annotations.
// Three stores, so the list never has to read file bytes:
//   sessions    hash → LibraryMeta   (title, format, file names and sizes, openedAt, sourceUrls)
//   files       hash → {files: [{name, blob}]}   (absent when too large to keep)
//   annotations hash → {annotations: Annotation[], updatedAt}
// Everything written is picked field by field; nothing else the app holds (an API key) is stored.
// Every function may reject; callers show the problem (library-policy.ts) and keep working in memory.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Annotation } from '../../src/share';
import type { LibraryEntry, LibraryMeta } from '../store/share-slice';
import { evictionPlan, formatBytes, MAX_LIBRARY_BYTES, MAX_SESSION_BYTES } from './library-policy';

export type { LibraryEntry, LibraryMeta };

interface StoredFile {
  name: string;
  blob: Blob;
}

interface StoredAnnotations {
  hash: string;
  annotations: Annotation[];
  updatedAt: string;
}

interface LibrarySchema extends DBSchema {
  sessions: { key: string; value: LibraryMeta };
  files: { key: string; value: { hash: string; files: StoredFile[] } };
  annotations: { key: string; value: StoredAnnotations };
}

const DB_NAME = 'compaction-inspector';
const DB_VERSION = 1;

let dbPromise: Promise<IDBPDatabase<LibrarySchema>> | null = null;

function db(): Promise<IDBPDatabase<LibrarySchema>> {
  if (!dbPromise) {
    if (typeof indexedDB === 'undefined') {
      const e = new Error('IndexedDB is not available');
      e.name = 'Unavailable';
      dbPromise = Promise.reject(e);
    } else {
      dbPromise = openDB<LibrarySchema>(DB_NAME, DB_VERSION, {
        upgrade(d) {
          if (!d.objectStoreNames.contains('sessions')) d.createObjectStore('sessions', { keyPath: 'hash' });
          if (!d.objectStoreNames.contains('files')) d.createObjectStore('files', { keyPath: 'hash' });
          if (!d.objectStoreNames.contains('annotations')) d.createObjectStore('annotations', { keyPath: 'hash' });
        },
        // Another tab upgrading the schema: let it, and reopen next time.
        blocking() {
          void dbPromise?.then((d) => d.close());
          dbPromise = null;
        },
      });
    }
    // A failure is kept (so every save does not retry a broken database), but not forever: a later open retries.
    dbPromise.catch(() => setTimeout(() => (dbPromise = null), 30_000));
  }
  return dbPromise;
}

/** Sessions in the library, the most recently opened first, with their note counts. */
export async function listLibrary(): Promise<LibraryEntry[]> {
  const d = await db();
  const tx = d.transaction(['sessions', 'annotations'], 'readonly');
  const [metas, notes] = await Promise.all([tx.objectStore('sessions').getAll(), tx.objectStore('annotations').getAll()]);
  const counts = new Map(notes.map((n) => [n.hash, Array.isArray(n.annotations) ? n.annotations.length : 0]));
  return metas.map((m) => ({ ...m, notes: counts.get(m.hash) ?? 0 })).sort((a, b) => (a.openedAt < b.openedAt ? 1 : a.openedAt > b.openedAt ? -1 : 0));
}

export async function getLibraryMeta(hash: string): Promise<LibraryMeta | undefined> {
  return (await db()).get('sessions', hash);
}

/** The stored files of a session as File objects, or null when they are not kept. */
export async function loadLibraryFiles(hash: string): Promise<File[] | null> {
  const rec = await (await db()).get('files', hash);
  if (!rec) return null;
  return rec.files.map((f) => new File([f.blob], f.name));
}

export interface RememberInput {
  hash: string;
  title: string;
  format: string;
  files: readonly File[];
  sourceUrls: readonly string[];
}

/**
 * Records a session that was just opened. Files are stored once per hash (same hash, same bytes);
 * a reopen only updates the date and title. Returns a sentence for the user when the files could
 * not be kept (too large) or older sessions gave up their files to make room.
 */
export async function rememberSession(input: RememberInput, now = new Date().toISOString()): Promise<string | null> {
  const d = await db();
  const before = await d.get('sessions', input.hash);
  const alreadyStored = !!before?.stored && !!(await d.getKey('files', input.hash));
  const meta = libraryMetaFor(input, now, alreadyStored);
  const totalBytes = meta.totalBytes;
  if (alreadyStored) {
    await d.put('sessions', meta);
    return null;
  }
  if (totalBytes > MAX_SESSION_BYTES) {
    await d.put('sessions', meta);
    return `"${meta.title}" is ${formatBytes(totalBytes)}, over the ${formatBytes(MAX_SESSION_BYTES)} the library keeps per session: it is listed and its notes are kept, but to reopen it you drop the file again.`;
  }
  const all = await d.getAll('sessions');
  const evict = evictionPlan(all.map((m) => ({ hash: m.hash, bytes: m.totalBytes, openedAt: m.openedAt, stored: m.stored })), totalBytes, input.hash, MAX_LIBRARY_BYTES) ?? [];
  const tx = d.transaction(['sessions', 'files'], 'readwrite');
  for (const h of evict) {
    const m = all.find((x) => x.hash === h);
    if (m) void tx.objectStore('sessions').put({ ...m, stored: false });
    void tx.objectStore('files').delete(h);
  }
  void tx.objectStore('files').put({ hash: input.hash, files: input.files.map((f) => ({ name: String(f.name), blob: f })) });
  void tx.objectStore('sessions').put({ ...meta, stored: true });
  await tx.done;
  return evict.length
    ? `The library keeps up to ${formatBytes(MAX_LIBRARY_BYTES)} of files: the files of ${evict.length} older session${evict.length === 1 ? '' : 's'} were let go to make room (their notes are kept).`
    : null;
}

/** The library entry for a session, its fields picked one by one (nothing else the input holds is stored). */
export function libraryMetaFor(input: RememberInput, now: string, stored: boolean): LibraryMeta {
  return {
    hash: String(input.hash),
    title: String(input.title),
    format: String(input.format),
    fileNames: input.files.map((f) => String(f.name)),
    totalBytes: input.files.reduce((n, f) => n + f.size, 0),
    openedAt: now,
    sourceUrls: [...input.sourceUrls].map(String),
    stored,
  };
}

/** Removes a session, its files and its notes from the library. */
export async function removeFromLibrary(hash: string): Promise<void> {
  const d = await db();
  const tx = d.transaction(['sessions', 'files', 'annotations'], 'readwrite');
  void tx.objectStore('sessions').delete(hash);
  void tx.objectStore('files').delete(hash);
  void tx.objectStore('annotations').delete(hash);
  await tx.done;
}

/** Empties the library: every session, its files and its notes. */
export async function clearLibrary(): Promise<void> {
  const d = await db();
  const tx = d.transaction(['sessions', 'files', 'annotations'], 'readwrite');
  void tx.objectStore('sessions').clear();
  void tx.objectStore('files').clear();
  void tx.objectStore('annotations').clear();
  await tx.done;
}

/** Annotations stored for a session (unvalidated: the caller checks them). */
export async function readStoredAnnotations(hash: string): Promise<unknown> {
  const rec = await (await db()).get('annotations', hash);
  return rec?.annotations;
}

export async function writeStoredAnnotations(hash: string, annotations: readonly Annotation[], now = new Date().toISOString()): Promise<void> {
  const d = await db();
  if (annotations.length === 0) await d.delete('annotations', hash);
  else await d.put('annotations', { hash, annotations: [...annotations], updatedAt: now });
}
