// Every item of the session in order, virtualized so 100k-item sessions scroll smoothly.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Session } from '../../src/model/types';
import { ItemRow } from '../components/ItemRow';
import { useApp } from '../store';

export function TranscriptView({ session }: { session: Session }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const expanded = useApp((s) => s.expanded);
  const toggle = useApp((s) => s.toggleExpanded);
  const selectItem = useApp((s) => s.selectItem);
  const selected = useApp((s) => s.selectedItemId);
  const indexById = useMemo(() => new Map(session.items.map((it, i) => [it.id, i])), [session]);
  const virtualizer = useVirtualizer({
    count: session.items.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 96,
    overscan: 8,
    getItemKey: (i) => session.items[i]!.id,
  });
  const jump = useCallback(
    (id: string) => {
      const i = indexById.get(id);
      if (i === undefined) return;
      selectItem(id);
      virtualizer.scrollToIndex(i, { align: 'center' });
    },
    [indexById, selectItem, virtualizer],
  );
  const clicked = useRef<string | null>(null);
  // An item selected elsewhere (a panel, search, a link) is scrolled into view here too; one clicked here is in view.
  useEffect(() => {
    if (selected !== null && selected === clicked.current) return;
    clicked.current = null;
    const i = selected ? indexById.get(selected) : undefined;
    if (i !== undefined) virtualizer.scrollToIndex(i, { align: 'center' });
  }, [selected, indexById, virtualizer]);

  if (session.items.length === 0) {
    return <p className="empty">This session has no conversation items{session.compactions.length ? `, only ${session.compactions.length} compaction records` : ''}.</p>;
  }
  return (
    <div ref={parentRef} className="transcript" role="list" aria-label="Transcript">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = session.items[v.index]!;
          return (
            <div
              key={v.key}
              ref={virtualizer.measureElement}
              data-index={v.index}
              data-item-id={item.id}
              role="listitem"
              className={selected === item.id ? 'row selected' : 'row'}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${v.start}px)` }}
            >
              <ItemRow item={item} index={v.index} expanded={expanded.has(item.id)} onToggle={() => toggle(item.id)}
                onJump={jump}
                selected={selected === item.id}
                onSelect={(id) => {
                  clicked.current = id;
                  selectItem(id);
                }}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
