// A strip of tabs that scrolls sideways: marked with the edges it continues past (scroll-more-left / -right), so
// the styles can fade them, and kept scrolled so its chosen tab is in sight.
import { useEffect, useLayoutEffect, type RefObject } from 'react';

/** Scrolls the strip just enough for `tab` to be wholly in sight. */
function bringIntoSight(strip: HTMLElement, tab: HTMLElement): void {
  if (tab.offsetLeft < strip.scrollLeft) strip.scrollLeft = tab.offsetLeft;
  else if (tab.offsetLeft + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = tab.offsetLeft + tab.offsetWidth - strip.clientWidth;
}

const scrolls = (el: HTMLElement) => el.classList.contains('scroll-more-left') || el.classList.contains('scroll-more-right');

/** The strip's chosen tab: a selector for it, and a key that changes when another tab is chosen. */
export interface ChosenTab {
  selector: string;
  key: unknown;
}

/**
 * `chosen` is brought into sight when it changes and when the strip is resized. Nothing here reads a width inside
 * React's commit: that forced a layout of the whole page (~40 ms on the first view of a 3 MB session, ~20 ms on each
 * panel click). The widths are read when the ResizeObserver reports, after the frame's layout; a change of tab reads
 * them only when the cue says the strip scrolls.
 */
export function useScrollCue(ref: RefObject<HTMLElement | null>, deps: readonly unknown[] = [], chosen?: ChosenTab): void {
  const selector = chosen?.selector;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      el.classList.toggle('scroll-more-left', el.scrollLeft > 1);
      el.classList.toggle('scroll-more-right', el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    };
    const resized = () => {
      update();
      const tab = selector && scrolls(el) ? el.querySelector<HTMLElement>(selector) : null;
      if (tab) bringIntoSight(el, tab);
    };
    el.addEventListener('scroll', update, { passive: true });
    const ro = new ResizeObserver(resized);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      ro.disconnect();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, selector, ...deps]);
  useEffect(() => {
    const el = ref.current;
    const tab = el && selector && scrolls(el) ? el.querySelector<HTMLElement>(selector) : null;
    if (el && tab) bringIntoSight(el, tab);
  }, [ref, selector, chosen?.key]);
}
