// A strip of tabs that shows the tabs that fit and puts the rest in a "More" menu (issue 33: at 1000×700 the panel
// tabs were cut at "Fl…" and four of them needed a sideways scroll). The chosen tab always stays in the strip.
//
// Widths are read where the browser has laid the strip out already (a ResizeObserver's report), never inside
// React's commit, so measuring never forces a layout of the page; each tab's width is kept once measured, so tabs
// taken out of the strip are still known when the window grows again.
import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** Gap between tabs (the strip's CSS `gap`), and room kept spare so a tab that turns bold still fits. */
const GAP = 2;
const SLACK = 6;
/** The menu's width until it was measured. */
const MORE_GUESS = 96;

/**
 * Which of `ids` go into the menu for a bar `bar` wide: in order, as many as fit with the menu beside them, then
 * the chosen one in place of the last that fit if it is not among them. Empty when every tab fits or when a width
 * is not known yet (all tabs are then drawn, so they can be measured).
 */
export function overflowOf(ids: readonly string[], widths: ReadonlyMap<string, number>, barWidth: number | null, active: string, moreWidth: number): string[] {
  if (barWidth === null || ids.some((id) => !widths.has(id))) return [];
  const w = (id: string) => widths.get(id)!;
  const total = ids.reduce((s, id) => s + w(id), 0) + GAP * Math.max(0, ids.length - 1);
  if (total <= barWidth) return [];
  const room = barWidth - moreWidth - GAP - SLACK;
  const shown: string[] = [];
  let used = 0;
  for (const id of ids) {
    const add = w(id) + (shown.length ? GAP : 0);
    if (used + add > room) break;
    shown.push(id);
    used += add;
  }
  if (ids.includes(active) && !shown.includes(active)) {
    while (shown.length && used + GAP + w(active) > room) used -= w(shown.pop()!) + (shown.length ? GAP : 0);
    shown.push(active);
  }
  return ids.filter((id) => !shown.includes(id));
}

/**
 * `bar` holds the strip's tabs (each marked `data-tab="<id>"`) and the menu (`data-tab-more`). Returns the ids to
 * leave out of the strip and list in the menu; none while `enabled` is false.
 */
export function useTabOverflow(bar: RefObject<HTMLElement | null>, ids: readonly string[], active: string, enabled: boolean): string[] {
  const widths = useRef(new Map<string, number>());
  const moreWidth = useRef(MORE_GUESS);
  const observer = useRef<ResizeObserver | null>(null);
  const [barWidth, setBarWidth] = useState<number | null>(null);
  const [measured, setMeasured] = useState(0);
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el || !enabled) return;
    const ro = new ResizeObserver(() => {
      let changed = false;
      for (const tab of el.querySelectorAll<HTMLElement>('[data-tab]')) {
        const w = tab.offsetWidth;
        const id = tab.dataset['tab']!;
        if (w > 0 && widths.current.get(id) !== w) {
          widths.current.set(id, w);
          changed = true;
        }
      }
      const more = el.querySelector<HTMLElement>('[data-tab-more]');
      if (more && more.offsetWidth > 0 && more.offsetWidth !== moreWidth.current) {
        moreWidth.current = more.offsetWidth;
        changed = true;
      }
      // Applied before the frame paints (observers run between layout and paint), so the strip is never drawn
      // once with every tab and then again with the menu.
      flushSync(() => {
        setBarWidth(el.clientWidth);
        if (changed) setMeasured((n) => n + 1);
      });
    });
    ro.observe(el);
    observer.current = ro;
    return () => {
      ro.disconnect();
      observer.current = null;
    };
  }, [bar, enabled]);
  // Every tab drawn is observed (observing one twice does nothing): a tab that appears is measured once laid out.
  useLayoutEffect(() => {
    const el = bar.current;
    const ro = observer.current;
    if (!el || !ro) return;
    for (const tab of el.querySelectorAll<HTMLElement>('[data-tab], [data-tab-more]')) ro.observe(tab);
  });
  return useMemo(
    () => (enabled ? overflowOf(ids, widths.current, barWidth, active, moreWidth.current) : []),
    // `measured` stands for the widths kept in the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [enabled, ids, barWidth, active, measured],
  );
}
