// Marks a strip that scrolls sideways with the edges it continues past (scroll-more-left / -right), so the
// styles can fade them: the user sees there is more, and on which side.
import { useLayoutEffect, type RefObject } from 'react';

export function useScrollCue(ref: RefObject<HTMLElement | null>, deps: readonly unknown[] = []): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      el.classList.toggle('scroll-more-left', el.scrollLeft > 1);
      el.classList.toggle('scroll-more-right', el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    };
    el.addEventListener('scroll', update, { passive: true });
    // Its first call comes after the frame's layout: reading the widths here, in a layout effect, forced one
    // (~40 ms on the first view of a 3 MB session).
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      ro.disconnect();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, ...deps]);
}
