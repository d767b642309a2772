// An element's width that follows its resizes: charts and grids size themselves to their panel.
import { useLayoutEffect, useState, type RefObject } from 'react';

/** `initial` is used until the element is measured (the first layout effect). */
export function useWidth(ref: RefObject<HTMLElement | null>, initial = 600): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
