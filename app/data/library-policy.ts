// How much of the local library keeps its files, and how storage failures read to a user. Pure, so
// the rules are testable without IndexedDB.

/** A session bigger than this keeps its notes and its entry, not its files. */
export const MAX_SESSION_BYTES = 200 * 1024 * 1024;
/** All stored session files together; the oldest sessions give up their files first. */
export const MAX_LIBRARY_BYTES = 1024 * 1024 * 1024;

export interface StoredSize {
  hash: string;
  bytes: number;
  /** ISO 8601. */
  openedAt: string;
  /** Whether the files are kept. */
  stored: boolean;
}

/**
 * Hashes whose files to drop so that `incoming` more bytes fit under `cap`, oldest first. `keep` (the
 * session being stored) is never chosen. Returns null when the incoming session alone is over the cap.
 */
export function evictionPlan(entries: readonly StoredSize[], incoming: number, keep: string, cap = MAX_LIBRARY_BYTES): string[] | null {
  if (incoming > cap) return null;
  const stored = entries.filter((e) => e.stored && e.hash !== keep);
  let total = stored.reduce((n, e) => n + e.bytes, 0) + incoming;
  const out: string[] = [];
  for (const e of [...stored].sort((a, b) => (a.openedAt < b.openedAt ? -1 : a.openedAt > b.openedAt ? 1 : 0))) {
    if (total <= cap) break;
    out.push(e.hash);
    total -= e.bytes;
  }
  return out;
}

/** "1.2 MB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

/**
 * One plain sentence for a storage failure. The caller adds what happens next ("notes stay in this
 * tab"), since that depends on what was being stored.
 */
export function storageProblem(e: unknown): string {
  const name = e && typeof e === 'object' && 'name' in e ? String((e as { name: unknown }).name) : '';
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  if (name === 'QuotaExceededError' || /quota/i.test(message)) return 'The browser refused to store more: its storage for this site is full';
  if (name === 'SecurityError' || name === 'InvalidStateError' || /private|security|denied|not allowed/i.test(message)) {
    return 'The browser does not allow storage here (a private window, or site data is blocked)';
  }
  if (name === 'Unavailable' || /indexeddb/i.test(message)) return 'This browser has no local database (IndexedDB) available';
  if (name === 'VersionError') return 'A newer version of this app is open in another tab and owns the local library';
  return `Local storage failed${message ? ` (${message})` : ''}`;
}
