// A small mark on an item that has notes in the active session.
import { annotationsOnItem } from '../../src/share';
import { useApp } from '../store';
import './share.css';
import { notesKey } from '../store/annotations-slice';

export function NoteBadge({ itemId }: { itemId: string }) {
  const n = useApp((s) => {
    const active = s.sessions.find((x) => x.key === s.activeKey);
    const list = active ? s.annotations[notesKey(active)] : undefined;
    return list?.length ? annotationsOnItem(list, itemId).length : 0;
  });
  if (!n) return null;
  return (
    <span className="badge note-badge" title="Open the Annotations panel to read them">
      ✎ {n} note{n === 1 ? '' : 's'}
    </span>
  );
}
