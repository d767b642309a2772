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
  /**
   * Tool schemas, plus, when the format omits the system prompt and tools, the call's `unrecordedPrefixTokens` and its
   * `unaccountedTokens`.
   */
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
  /**
   * The part of it the format never recorded (system prompt, tools): calibration.ts's `unrecordedPrefix`, the figure
   * the cache analysis reads too. 0 when the call records its whole prompt; null when no reported usage allows an
   * estimate.
   */
  unrecordedPrefixTokens: number | null;
  /**
   * What the calibrated prompt holds beyond that prefix and the recorded items at their fitted size (signed: negative
   * when the items at that size and the prefix exceed it). The tools band is the prefix plus this; 0 when the call
   * records its whole prompt or the items share what the prompt holds.
   */
  unaccountedTokens: number;
  /** The whole prompt as the provider reported it (cache/reported.ts), null without usage. */
  reportedPrompt: number | null;
  bands: CallBands;
  /** Provider tokens per counted token of this call's segment (calls sharing a model and tools), and why the segment starts. */
  scale: number;
  /** Framing tokens per item of that segment's fit. */
  perItem: number;
  segment: CallSegment;
}

export interface CallSegment {
  /** 0-based segment of the calibration. */
  index: number;
  /** 1-based first call of this run of the segment. */
  since: number;
  /** Why the fit starts over there: null for the first call; else the model switch or the tool list change. */
  why: string | null;
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
