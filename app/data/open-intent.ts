// What starts when the user goes to open a session (points at or focuses a control that opens one, or drags a file
// over the page): the tokenizer ranks' fetch and a spare load worker, each once and only if not there already.
import { warmCounting } from './analysis-client';
import { warmLoadWorker } from './load-client';

export function readyToOpen(): void {
  warmCounting();
  warmLoadWorker();
}

/** Props for a control that opens sessions. */
export const opensSessions = { onPointerEnter: readyToOpen, onFocus: readyToOpen } as const;
