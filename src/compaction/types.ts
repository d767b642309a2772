// What every compaction strategy takes and returns: plain data, so the UI can show it and workers can clone it.
import type { Item } from '../model/types';
import type { SummarizeFailure, Summarizer } from './summarizer';

export interface CompactionDeps {
  /** Writes summaries: the offline extractor or an endpoint. */
  summarizer: Summarizer;
  /** Token counter for a text (a memoized tokenizer in the app, a word counter in tests). */
  count: (text: string) => number;
  /** Passed through to the summarizer; an aborted run returns `cancelled: true` and the context unchanged. */
  signal?: AbortSignal;
  /** Streaming: the summary text so far. */
  onText?: (textSoFar: string) => void;
  /** Prefix for the ids of items a strategy creates, so ids stay unique over a rerun (default `compact`). */
  idPrefix?: string;
}

/** Why the summarizer's text was not used and the static marker stands in its place. */
export interface CompactionFallback {
  failure: SummarizeFailure;
  reason: string;
}

/** How the replaced items left the context. */
export type ReplacementLabel = 'summarized' | 'dropped' | 'masked' | 'omitted';

/** One call of the summarizer, for cost estimates. */
export interface SummarizerCall {
  promptTokens: number;
  outputTokens: number;
  ok: boolean;
}

export interface CompactionOutcome {
  /** The context after compaction, in order. Untouched items are the same objects as in the input. */
  context: Item[];
  /** False when there was nothing to compact (see `note`) or the run was cancelled. */
  changed: boolean;
  /** Ids taken out of the context, or (masking, omission) whose content was replaced in place. */
  replacedIds: string[];
  label: ReplacementLabel | null;
  /** The evicted items as they were (prior recaps left out): what a summary must account for. */
  slice: Item[];
  /** The summary or marker this compaction inserted; null for in-place strategies. */
  recap: Item | null;
  /** Ids of earlier recaps (summaries, markers) folded into `recap`. */
  foldedIds: string[];
  /** Text of the prior summary handed to the summarizer for folding; null when there was none. */
  priorSummary: string | null;
  /** Set when the summarizer failed and the static marker took the summary's place. */
  fallback: CompactionFallback | null;
  summarizerCalls: SummarizerCall[];
  /** Why nothing changed, or how the split was made. */
  note: string | null;
  /** The signal was aborted: nothing was compacted. */
  cancelled: boolean;
}

export type StrategyFn<P> = (context: readonly Item[], params: P, deps: CompactionDeps) => Promise<CompactionOutcome>;

/** An outcome that leaves the context as it was. */
export function unchanged(context: readonly Item[], note: string, cancelled = false): CompactionOutcome {
  return {
    context: [...context],
    changed: false,
    replacedIds: [],
    label: null,
    slice: [],
    recap: null,
    foldedIds: [],
    priorSummary: null,
    fallback: null,
    summarizerCalls: [],
    note,
    cancelled,
  };
}
