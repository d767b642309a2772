// Notes per session hash in the library's IndexedDB. Reads are validated like a link (what is in the
// database may be from an older build, or edited by hand); writes per hash are queued so they land in
// order and never overwrite notes that were not read yet.
import { annotationToJson, parseAnnotations, type Annotation } from '../../src/share';
import { readStoredAnnotations, writeStoredAnnotations } from './library';
import { mergeAnnotations } from './share-build';

export interface StoredNotes {
  list: Annotation[];
  /** Stored entries that failed validation and were left out. */
  dropped: number;
}

const reads = new Map<string, Promise<StoredNotes>>();
const queues = new Map<string, Promise<void>>();
const latest = new Map<string, Annotation[]>();

/** The notes stored for `hash` (read once per page; later calls share the first read). */
export function loadNotes(hash: string): Promise<StoredNotes> {
  let p = reads.get(hash);
  if (!p) {
    p = readStoredAnnotations(hash).then(checkStored);
    reads.set(hash, p);
    // A failed read is retried next time (e.g. after the user frees space or leaves private mode).
    p.catch(() => reads.delete(hash));
  }
  return p;
}

/** Stores `list` as the notes of `hash` once the stored ones were read, after any earlier write. */
export function saveNotes(hash: string, list: readonly Annotation[]): Promise<void> {
  latest.set(hash, list.map(annotationToJson));
  const prev = queues.get(hash) ?? Promise.resolve();
  const next = prev
    .catch(() => undefined)
    .then(() => loadNotes(hash).catch(() => undefined))
    .then(async () => {
      const value = latest.get(hash);
      if (!value) return; // a later write in the queue already stored the newest list
      latest.delete(hash);
      await writeStoredAnnotations(hash, value);
    });
  queues.set(hash, next);
  return next;
}

/** Keeps the valid annotations of whatever was stored, each checked on its own. */
export function checkStored(raw: unknown): StoredNotes {
  if (raw === undefined || raw === null) return { list: [], dropped: 0 };
  const all = parseAnnotations(raw);
  if (all.ok) return { list: all.value, dropped: 0 };
  if (!Array.isArray(raw)) return { list: [], dropped: 1 };
  const kept: Annotation[] = [];
  for (const a of raw) {
    const one = parseAnnotations([a]);
    if (one.ok) kept.push(one.value[0]!);
  }
  // Ids may repeat among the survivors; merging gives each a unique id.
  return { list: mergeAnnotations([], kept).list, dropped: raw.length - kept.length };
}

/** Forgets the cached read of `hash` (after the library entry is removed). */
export function forgetNotes(hash: string): void {
  reads.delete(hash);
}
