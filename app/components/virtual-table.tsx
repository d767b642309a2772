// What the app's virtualized tables share: the rows in view with the space above and below them, spacer rows
// that keep the scroll height, and rows that open with Enter or Space as with a click.
import { useVirtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent, RefObject } from 'react';

export function useVirtualRows(count: number, scrollRef: RefObject<HTMLElement | null>, rowHeight: number, overscan: number) {
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan });
  const virtual = virtualizer.getVirtualItems();
  const padTop = virtual.length ? virtual[0]!.start : 0;
  const padBottom = virtual.length ? virtualizer.getTotalSize() - virtual[virtual.length - 1]!.end : 0;
  return { virtualizer, virtual, padTop, padBottom };
}

/** An empty row of `height` pixels across `cols` columns (nothing when the height is 0). */
export function SpacerRow({ height, cols }: { height: number; cols: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true">
      <td colSpan={cols} style={{ height, padding: 0, border: 'none' }} />
    </tr>
  );
}

/** Enter and Space do what a click on the row does. */
export function activateOnKey(e: KeyboardEvent, activate: () => void): void {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    activate();
  }
}
