// A name that came from a file (title, file name, model, tool name, id): bidi-isolated, so a right-to-left
// override in it cannot reorder the text around it, and its control characters shown as marks.
import { showControls } from '../../src/model/visible-text';

export function Untrusted({ text, className }: { text: string; className?: string }) {
  return <bdi className={className}>{showControls(text)}</bdi>;
}

/** For attributes (aria-label, title), where no element can isolate: the marks alone. */
export const plain = showControls;
