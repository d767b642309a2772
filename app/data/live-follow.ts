// Opening a session the server listed, and following it: each time its file changes on disk the session is
// re-read and takes its tab's place. The call shown stays where it was (the store's call index is kept) unless
// the user rides the tail; a compaction appended shows like any other, since the whole file is loaded again.
import { useApp } from '../store';
import { forgetSession } from './analysis-client';
import { loadInWorker } from './load-client';
import { openSources } from './open-files';
import { setPendingView } from './pending-view';
import { fetchServedFiles, watchServed, type ListedSession } from './serve-api';

/** Opens a listed session and follows it while its tab is open. */
export async function openServed(listed: ListedSession): Promise<void> {
  const files = await fetchServedFiles(listed);
  const before = new Set(useApp.getState().sessions.map((s) => s.key));
  await openSources(files);
  const opened = useApp.getState().sessions.find((s) => !before.has(s.key));
  if (opened) follow(opened.key, listed);
}

function follow(firstKey: string, listed: ListedSession): void {
  let key = firstKey;
  let running = false;
  let again = false;
  useApp.getState().startFollow(key, listed.path);
  const reread = async () => {
    if (running) {
      again = true; // one more read once this one is done: changes never pile up
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const files = await fetchServedFiles(listed);
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
        state.beginLoad();
        state.finishLoad(
          files.map((f) => f.name),
          [session],
          result.issues.filter((i) => i.severity === 'error'),
          [{ key: next, hash: result.hashes[0] ?? null, files, sourceUrls: [] }],
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
  const unwatch = watchServed(listed, () => void reread());
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
