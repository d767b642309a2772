// Accepts files dropped anywhere on the page, including several at once.
import { useLayoutEffect, useState } from 'react';
import { openUserSources } from '../data/open-files';
import { prefetchRankTable } from '../data/rank-prefetch';
import { droppedFolders, openDroppedFolders } from '../views/corpus/dropped-folders';

export function DropZone() {
  const [over, setOver] = useState(false);
  // Listening from the commit that first shows the page, not after its paint: a file dropped the moment the page
  // appears would otherwise be opened by the browser itself, or lost.
  useLayoutEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      prefetchRankTable();
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
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
