// The shapes of the analysis view's calls: what analysis-view.ts builds, view-timeline.ts rebuilds from spans and
// span-bands.ts totals. Their own file, so those three read the shapes without reading each other.
import type { Usage } from '../model/types';
import type { RegionName } from './context-types';

/**
 * Token bands of one call, stacked in the budget chart, in the provider's tokens: counted bands times the call's
 * calibration, plus the unrecorded prefix. They add up to the call's calibrated context (plus output).
 */
export interface CallBands {
  system: number;
  /** Tool schemas, plus the estimated unrecorded prefix (system prompt + tools) when the format omits it. */
  tools: number;
  head: number;
  summary: number;
  middle: number;
  /** Tail items the previous call already had. */
  tail: number;
  /** Items this call sends for the first time. */
  newInput: number;
  output: number;
}

export interface CallEntryView {
  id: string;
  region: RegionName;
  tokens: number;
  /** The model saw a masked or cleared version of this item; its text is in `variants`. */
  variant: boolean;
  /** First sent in this call. */
  isNew: boolean;
}

export interface CallView {
  index: number;
  id: string;
  entries: CallEntryView[];
  outputIds: string[];
  usage: Usage | null;
  timestamp: string | null;
  model: string | null;
  prefixUnrecorded: boolean;
  compactionId: string | null;
  recorded: boolean;
  /** The calibrated whole prompt (calibration.ts). */
  contextTokens: number;
  /** The part of it the format never recorded (system prompt, tools), fitted from usage; 0 when recorded. */
  unrecordedPrefixTokens: number;
  /** The whole prompt as the provider reported it (cache/reported.ts), null without usage. */
  reportedPrompt: number | null;
  bands: CallBands;
}

export interface ViewSpan {
  id: string;
  /** The model saw the masked or cleared version in `variants`, not the item's own text. */
  variant: boolean;
  from: number;
  to: number;
  order: number;
  tokens: number;
}
