// What starts when the user goes to open a session (points at or focuses a control that opens one, or drags a file
// over the page): the tokenizer ranks' fetch, a spare load worker, the open plan's code and the panels' code, each
// once and only if not there already.
import { warmCounting } from '../data/analysis-client';
import { warmLoadWorker } from '../data/load-client';
import { warmOpenPath } from '../data/open-files';
import { preloadCommonPanels } from './panels';

export function readyToOpen(): void {
  warmCounting();
  warmLoadWorker();
  warmOpenPath();
  preloadCommonPanels();
}

/** Props for a control that opens sessions. */
export const opensSessions = { onPointerEnter: readyToOpen, onFocus: readyToOpen } as const;
