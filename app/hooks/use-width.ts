// An element's width that follows its resizes: charts and grids size themselves to their panel.
import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/**
 * `initial` is used until the element is measured; pass null to draw nothing that depends on the width until then
 * (a chart drawn at a guess is drawn twice: ~80 ms of a 3 MB session's main thread). The width comes from a
 * ResizeObserver, which reports once the browser has laid the element out, before it paints: reading `clientWidth`
 * in the effect instead forced a layout of the whole page inside React's commit, one long task with a big
 * session's first view. The new width is rendered inside the observer's report (flushSync), so the frame paints
 * once, at the right width, instead of once at the guess and again.
 */
export function useWidth(ref: RefObject<HTMLElement | null>, initial?: number): number;
export function useWidth(ref: RefObject<HTMLElement | null>, initial: null): number | null;
export function useWidth(ref: RefObject<HTMLElement | null>, initial: number | null = 600): number | null {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let last: number | null = null;
    const ro = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1];
      // clientWidth: the content box plus padding, as the charts lay themselves out.
      if (!box || el.clientWidth === last) return;
      last = el.clientWidth;
      flushSync(() => setWidth(last));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
