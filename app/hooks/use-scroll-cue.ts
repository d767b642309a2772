// A strip of tabs that scrolls sideways: marked with the edges it continues past (scroll-more-left / -right), so
// the styles can fade them, kept scrolled so its chosen tab is in sight, and scrolled by a mouse's up-and-down wheel.
import { useEffect, useLayoutEffect, type RefObject } from 'react';

/**
 * Scrolls the strip just enough for `tab` to be wholly in sight, clear of the strip's scroll-padding: the room its
 * styles keep at the ends for their fade and buttons. Whole pixels past the fractional edges, so no sliver is cut.
 */
function bringIntoSight(strip: HTMLElement, tab: HTMLElement): void {
  const style = getComputedStyle(strip);
  const box = strip.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  const left = box.left + strip.clientLeft + (parseFloat(style.scrollPaddingLeft) || 0);
  const right = box.left + strip.clientLeft + strip.clientWidth - (parseFloat(style.scrollPaddingRight) || 0);
  if (t.left < left) strip.scrollLeft += Math.floor(t.left - left);
  else if (t.right > right) strip.scrollLeft += Math.ceil(t.right - right);
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
    // Most mice turn only up and down, and a strip that scrolls sideways does nothing with that: over the strip the
    // wheel moves it sideways instead (as a trackpad's sideways swipe does). Not passive, so the page does not also
    // get the turn; a strip with nothing past its edges lets the wheel through.
    const wheel = (e: WheelEvent) => {
      if (e.ctrlKey || Math.abs(e.deltaY) <= Math.abs(e.deltaX) || !scrolls(el)) return;
      e.preventDefault();
      el.scrollLeft += e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * 16 : e.deltaY;
    };
    el.addEventListener('scroll', update, { passive: true });
    el.addEventListener('wheel', wheel, { passive: false });
    const ro = new ResizeObserver(resized);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      el.removeEventListener('wheel', wheel);
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
