// Buttons at the two ends of a tab strip that scrolls sideways, for a mouse that cannot scroll it: each shows only
// while the strip continues past its end (the strip's scroll-more-left / -right classes, use-scroll-cue.ts, read by
// the styles), and moves the strip by most of its width. Out of the tab order: the strip's own arrow keys reach every tab.
import type { RefObject } from 'react';

export function StripScrollButtons({ strip, name }: { strip: RefObject<HTMLElement | null>; name: string }) {
  const move = (direction: -1 | 1) => {
    const el = strip.current;
    if (el) el.scrollBy({ left: direction * Math.max(80, el.clientWidth * 0.75), behavior: 'smooth' });
  };
  return (
    <>
      <button type="button" className="strip-scroll strip-scroll-left" tabIndex={-1} aria-label={`Scroll ${name} left`} title={`Scroll ${name} left`} onClick={() => move(-1)}>
        ‹
      </button>
      <button type="button" className="strip-scroll strip-scroll-right" tabIndex={-1} aria-label={`Scroll ${name} right`} title={`Scroll ${name} right`} onClick={() => move(1)}>
        ›
      </button>
    </>
  );
}
