// Opening a session and following it: each time its file changes on disk the session is re-read and takes its
// tab's place. The file comes from `compaction-inspector serve` (server-sent events say when it changed) or, with
// no server, from a file handle the browser's File System Access API gave (re-read when its size or date moves). The call shown stays where it was (the store's call index is kept) unless
// the user rides the tail; a compaction appended shows like any other, since the whole file is loaded again.
import { useApp } from '../store';
import { forgetSession } from './analysis-client';
import { loadInWorker } from './load-client';
import { openSources } from './open-files';
import { setPendingView } from './pending-view';
import { addFoundWhereItRan } from './instruction-files';
import { fetchServedFiles, fetchServedInstructions, listServedSessions, watchServed, type ListedSession } from './serve-api';

/** Where a followed session's file comes from, and how its changes are noticed. */
export interface FollowSource {
  /** Shown in the status line. */
  path: string;
  /** Under `serve`: the listed session's id, which its address carries (url-state.ts). */
  served?: string;
  read(): Promise<File[]>;
  /** Calls `onChange` whenever the file may have changed; returns the stop. */
  watch(onChange: () => void): () => void;
}

/** Opens a listed session and follows it while its tab is open. */
export async function openServed(listed: ListedSession): Promise<void> {
  // What each file held when last read, so a change between that read and the watch starting is not missed.
  const sizes = new Map<string, number>();
  const read = async () => {
    const files = await fetchServedFiles(listed);
    files.forEach((f, i) => sizes.set(listed.files[i]!, f.size));
    return files;
  };
  // Asked for while the session loads: the files its harness loaded where it ran, for the summary audit.
  const instructions = fetchServedInstructions(listed).then(
    (found) => ({ found }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
  // Added before the follow starts, while the session keeps the key it opened with (a re-read gives it another).
  const addInstructions = async (key: string) => {
    const got = await instructions;
    if ('found' in got) return addFoundWhereItRan(key, got.found);
    useApp.getState().pushNotice({ id: `serve-instructions-${listed.id}`, tone: 'warn', text: `The instruction files where ${listed.path} ran could not be read, so its Summary audit reads none: ${got.error}` });
  };
  await openAndFollow({ path: listed.path, served: listed.id, read, watch: (onChange) => watchServed(listed, onChange, (f) => sizes.get(f)) }, addInstructions);
}

/** Opens the listed session an address names (a reload of a served session); a notice when it is listed no more. */
export async function openServedById(id: string): Promise<void> {
  let listed: ListedSession | undefined;
  try {
    listed = (await listServedSessions()).sessions.find((s) => s.id === id);
  } catch (e) {
    useApp.getState().pushNotice({ id: `serve-open-${id}`, tone: 'warn', text: `The session list could not be read from the server, so ${id} was not reopened: ${e instanceof Error ? e.message : String(e)}` });
    return;
  }
  if (!listed) {
    useApp.getState().pushNotice({ id: `serve-open-${id}`, tone: 'warn', text: `This address names ${id}, which the server no longer lists (moved or deleted?).` });
    return;
  }
  try {
    await openServed(listed);
  } catch (e) {
    useApp.getState().pushNotice({ id: `serve-open-${id}`, tone: 'warn', text: `Could not open ${listed.path}: ${e instanceof Error ? e.message : String(e)}` });
  }
}

/** A file the browser handed over as a handle can be read again: the File System Access API (Chromium). */
export function canFollowLocalFiles(): boolean {
  return typeof window !== 'undefined' && 'showOpenFilePicker' in window;
}

interface LocalFileHandle {
  getFile(): Promise<File>;
}

/** How often a local file's size and date are looked at: appended lines show within about two seconds. */
export const LOCAL_POLL_MS = 1000;

/** Asks for one local file and follows it, without a server. */
export async function pickAndFollowLocalFile(): Promise<void> {
  const picker = (window as unknown as { showOpenFilePicker(o?: object): Promise<LocalFileHandle[]> }).showOpenFilePicker;
  let handle: LocalFileHandle | undefined;
  try {
    [handle] = await picker.call(window, { multiple: false });
  } catch {
    return; // the user closed the picker
  }
  if (handle) await openAndFollow(localSource(handle));
}

export function localSource(handle: LocalFileHandle): FollowSource {
  let name = 'file';
  return {
    get path() {
      return name;
    },
    async read() {
      const file = await handle.getFile();
      name = file.name;
      return [file];
    },
    watch(onChange) {
      let seen: string | null = null;
      const look = async () => {
        try {
          const f = await handle.getFile();
          const stamp = `${f.size}:${f.lastModified}`;
          if (seen !== null && stamp !== seen) onChange();
          seen = stamp;
        } catch {
          onChange(); // the re-read reports why the file cannot be read now
        }
      };
      void look();
      const timer = setInterval(() => void look(), LOCAL_POLL_MS);
      return () => clearInterval(timer);
    },
  };
}

/** Opens the source, gives the opened session to `opened` (awaited: nothing re-reads it meanwhile), and follows it. */
async function openAndFollow(source: FollowSource, onOpened?: (key: string) => Promise<void>): Promise<void> {
  const files = await source.read();
  const before = new Set(useApp.getState().sessions.map((s) => s.key));
  await openSources(files, source.served !== undefined ? { served: source.served } : {});
  const opened = useApp.getState().sessions.find((s) => !before.has(s.key));
  if (!opened) return;
  await onOpened?.(opened.key);
  follow(opened.key, source);
}

function follow(firstKey: string, source: FollowSource): void {
  let key = firstKey;
  let running = false;
  let again = false;
  useApp.getState().startFollow(key, source.path);
  const reread = async () => {
    if (running) {
      again = true; // one more read once this one is done: changes never pile up
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const files = await source.read();
        const result = await loadInWorker(files, () => {});
        const session = result.sessions[0];
        const state = useApp.getState();
        if (!state.sessions.some((s) => s.key === key)) return stop();
        if (!session) {
          state.setFollowError(key, result.issues.find((i) => i.severity === 'error')?.message ?? 'no session in the file now');
          continue;
        }
        const next = `${session.id}#live-${Date.now()}`;
        // The re-read session mounts afresh: it opens where the user was (or at its newest call on the tail).
        if (state.activeKey === key) {
          const tail = state.follows[key]?.tail === true;
          setPendingView(session, { turn: tail ? Number.MAX_SAFE_INTEGER : state.callIndex + 1, item: state.selectedItemId, panel: state.panel, rule: state.rule, leftView: state.leftView });
        }
        // The instruction files the user added stay with the session as it grows.
        const carried = state.sessions.find((s) => s.key === key)?.instructionFiles;
        state.beginLoad();
        state.finishLoad(
          files.map((f) => f.name),
          [session],
          result.issues.filter((i) => i.severity === 'error'),
          [{ key: next, hash: result.hashes[0] ?? null, files, sourceUrls: [], ...(source.served !== undefined ? { served: source.served } : {}), ...(carried ? { instructionFiles: carried } : {}) }],
          key,
        );
        state.moveFollow(key, next, Date.now());
        forgetSession(key);
        key = next;
      } while (again);
    } catch (e) {
      useApp.getState().setFollowError(key, e instanceof Error ? e.message : String(e));
    } finally {
      running = false;
    }
  };
  const unwatch = source.watch(() => void reread());
  // The tab closed: stop following.
  const unsubscribe = useApp.subscribe((s) => {
    if (!s.sessions.some((x) => x.key === key) && !running) stop();
  });
  function stop() {
    unwatch();
    unsubscribe();
    useApp.getState().stopFollow(key);
  }
}
