// Accepts files dropped anywhere on the page, including several at once.
import { useLayoutEffect, useState } from 'react';
import { openUserSources } from '../data/open-files';
import { warmLoadWorker } from '../data/load-client';
import { readyToOpen } from '../views/open-intent';
import { droppedFolders, openDroppedFolders } from '../data/dropped-folders';

/**
 * A drag that stays this long over the page loads the ranks the exact count needs (fetched, parsed and built in the
 * token worker, as pointing at "Open files…" does) and the panels' code, so a hand's drag of 300 ms has them ready at
 * the drop: the count then starts with the first view (typical 3 MB session, alternated drops on 2 cores: exact
 * counts ~170–190 ms sooner). A drop sooner than this (a script's, or a very quick hand) cancels it: loaded beside
 * the parse and the first view, the table slowed the first view, and the count loads it anyway.
 */
const WARM_AFTER_MS = 120;

export function DropZone() {
  const [over, setOver] = useState(false);
  // Listening from the commit that first shows the page, not after its paint: a file dropped the moment the page
  // appears would otherwise be opened by the browser itself, or lost.
  useLayoutEffect(() => {
    let depth = 0;
    let warm: ReturnType<typeof setTimeout> | undefined;
    const stopWarm = () => {
      clearTimeout(warm);
      warm = undefined;
    };
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      // A worker to parse the file (none is kept after a load: see load-client.ts).
      warmLoadWorker();
      // The rest of what an intent to open starts (open-intent.ts), once the drag has lasted.
      warm ??= setTimeout(readyToOpen, WARM_AFTER_MS);
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth > 0) return;
      stopWarm();
      setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      stopWarm();
      setOver(false);
      // A dropped folder opens corpus mode; its entries must be taken before this handler returns.
      const folders = droppedFolders(e.dataTransfer);
      if (folders) void openDroppedFolders(folders);
      else openUserSources(Array.from(e.dataTransfer?.files ?? []));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      stopWarm();
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return over ? (
    <div className="drop-overlay" aria-hidden="true">
      <p>Drop transcripts, logs or sidechain files to open them together</p>
    </div>
  ) : null;
}
