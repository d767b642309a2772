// Pieces the three research panels share: number formats, item → call lookup, a list virtualized inside the
// panel's own scroll, and a text with one highlighted span.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { AnalysisView } from '../../../src/analysis/analysis-view';
import { firstCallByItem } from '../../../src/analysis/call-lookup';
import './research.css';
import { count as formatCount } from '../../format/count';

export const fmt = (n: number) => formatCount(n);

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUB = '₀₁₂₃₄₅₆₇₈₉';
const digits = (n: number, set: string) => String(n).replace(/\d/g, (d) => set[Number(d)]!);
/** H¹, H², …: the Self-Sum paper's segment names. */
export const segName = (k: number) => `H${digits(k, SUP)}`;
/** s₁, s₂, …: its summary names. */
export const sumName = (k: number) => `s${digits(k, SUB)}`;
export const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** The first call that shows each item (its context, or its output for what the model wrote). */
export function useCallOf(view: AnalysisView): (itemId: string | null | undefined) => number | undefined {
  const first = useMemo(() => firstCallByItem(view.calls, view.spans), [view.calls, view.spans]);
  return (id) => (id ? first.get(id) : undefined);
}

/** Item ids the current call wrote. */
export function useOutputIds(view: AnalysisView, callIndex: number): ReadonlySet<string> {
  return useMemo(() => new Set(view.calls[callIndex]?.outputIds ?? []), [view.calls, callIndex]);
}

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return null;
}

/**
 * A list whose rows are rendered only near the viewport, scrolling with the panel (not in a box of its
 * own), so the charts above it and the list read as one page.
 */
export function VirtualStack<T>({ items, label, estimate, itemKey, className, render }: { items: readonly T[]; label: string; estimate: number; itemKey(item: T): string; className?: string; render(item: T, index: number): ReactNode }) {
  const listRef = useRef<HTMLOListElement>(null);
  const [scrollEl, setScrollEl] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = list ? scrollParent(list) : null;
    if (!list || !parent) return;
    setScrollEl(parent);
    const measure = () => setMargin(Math.round(list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop));
    measure();
    // What sits above the list changes height (a toggle, a resize): its offset follows.
    const ro = new ResizeObserver(measure);
    ro.observe(parent);
    if (list.parentElement) ro.observe(list.parentElement);
    return () => ro.disconnect();
  }, []);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollEl,
    estimateSize: () => estimate,
    overscan: 4,
    scrollMargin: margin,
    getItemKey: (i) => itemKey(items[i]!),
    // Before the scroll parent is known (first render, or no DOM layout), render the first rows.
    initialRect: { width: 600, height: 900 },
  });
  return (
    <ol ref={listRef} className={`virtual-stack ${className ?? ''}`} aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((vi) => (
        <li key={vi.key} data-index={vi.index} ref={virtualizer.measureElement} className="virtual-slot" style={{ transform: `translateY(${vi.start - margin}px)` }}>
          {render(items[vi.index]!, vi.index)}
        </li>
      ))}
    </ol>
  );
}

/** Text with one span marked (the summary inside the turn that carries it); rendered as text, never HTML. */
export function MarkedText({ text, span }: { text: string; span: [number, number] | null }) {
  if (!span) return <>{text}</>;
  return (
    <>
      {text.slice(0, span[0])}
      <mark>{text.slice(span[0], span[1])}</mark>
      {text.slice(span[1])}
    </>
  );
}
