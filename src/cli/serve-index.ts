// What `serve`'s session table shows of each session (calls, compactions, the reported hit rate), kept on disk
// beside the result cache so a second visit lists every row at once instead of loading every file again. An entry
// is keyed by the session's real path and holds the size and modification time it was measured at: a file that
// grew or was touched is measured again; an engine that changed (other code, other tokenizers) starts afresh.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { GlanceOutcome } from '../analysis/session-glance';
import { isObject } from '../model/narrow';

export type { GlanceOutcome };

interface Entry {
  size: number;
  modified: number;
  outcome: GlanceOutcome;
  /** When it was last used or written (ms): the least recently used go first past MAX_ENTRIES. */
  at: number;
}

interface IndexFile {
  version: 1;
  engine: string;
  entries: Record<string, Entry>;
}

export const MAX_INDEX_ENTRIES = 20_000;

export interface GlanceIndex {
  /** The outcome measured for this path at exactly this size and time; null when unknown or stale. */
  get(path: string, size: number, modified: number): GlanceOutcome | null;
  put(path: string, size: number, modified: number, outcome: GlanceOutcome): void;
  /** Writes what changed (also done on its own shortly after a put). */
  flush(): void;
  /** Reads answered from the index, and asked for in vain (absent or stale), since it was opened. */
  readonly stats: { hits: number; misses: number };
}

function readIndex(file: string, engine: string): Map<string, Entry> {
  try {
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isObject(doc) || doc['version'] !== 1 || doc['engine'] !== engine || !isObject(doc['entries'])) return new Map();
    const out = new Map<string, Entry>();
    for (const [k, v] of Object.entries(doc['entries'])) {
      if (isObject(v) && typeof v['size'] === 'number' && typeof v['modified'] === 'number' && isObject(v['outcome'])) out.set(k, v as unknown as Entry);
    }
    return out;
  } catch {
    // No index yet, or one that cannot be read: everything is measured again.
    return new Map();
  }
}

/**
 * The index kept in `file` (null: in memory only). `engine` names the code that measures (result-cache.ts's
 * engineId): an index written by another engine is not read. It never fails the server: a write that fails is
 * skipped, and the next visit measures again.
 */
export function openGlanceIndex(file: string | null, engine: string, opts: { saveDelayMs?: number; now?: () => number } = {}): GlanceIndex {
  const entries = file ? readIndex(file, engine) : new Map<string, Entry>();
  const now = opts.now ?? Date.now;
  const stats = { hits: 0, misses: 0 };
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!dirty || !file) return;
    dirty = false;
    let kept = [...entries];
    if (kept.length > MAX_INDEX_ENTRIES) {
      kept = kept.sort((a, b) => b[1].at - a[1].at).slice(0, MAX_INDEX_ENTRIES);
      entries.clear();
      for (const [k, v] of kept) entries.set(k, v);
    }
    const doc: IndexFile = { version: 1, engine, entries: Object.fromEntries(kept) };
    try {
      mkdirSync(dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half an index.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(doc));
      renameSync(tmp, file);
    } catch {
      // A read-only or full disk: the rows are measured again next time.
    }
  };
  return {
    stats,
    get(path, size, modified) {
      const e = entries.get(path);
      if (!e || e.size !== size || e.modified !== modified) {
        stats.misses++;
        return null;
      }
      stats.hits++;
      e.at = now();
      return e.outcome;
    },
    put(path, size, modified, outcome) {
      entries.set(path, { size, modified, outcome, at: now() });
      dirty = true;
      if (!timer && file) {
        timer = setTimeout(flush, opts.saveDelayMs ?? 500);
        timer.unref?.();
      }
    },
    flush,
  };
}
