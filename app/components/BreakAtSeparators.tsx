import { Fragment } from 'react';
import { showControls } from '../../src/model/visible-text';

/**
 * A name from a file (path, identifier) that wraps after its separators (`/`, `\`, `.`, `:`) before it wraps
 * inside a word, so `…/ash_computer/live_view.ex` breaks between folders rather than at `ash_compute|r`. Its
 * control characters show as marks; the element holding it isolates it (`unicode-bidi: isolate`, as `.chip` does).
 */
export function BreakAtSeparators({ text }: { text: string }) {
  const parts = showControls(text).split(/(?<=[/\\.:])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
