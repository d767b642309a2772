// The seam between compaction strategies and whatever writes the summary (offline extractor or an endpoint).
import type { Item } from '../model/types';

export interface SummarizeRequest {
  /** Rendered messages to send (system prompt + user prompt with the slice), after placeholders are filled. */
  messages: { role: 'system' | 'user'; content: string }[];
  /** The evicted slice itself, for summarizers that work on items rather than text (the offline extractor). */
  slice: readonly Item[];
  /** A summary already in the context that must be folded into the new one, not stacked. */
  priorSummary: string | null;
  /**
   * What kind of summary the prompt asks for: `course` (the default) the conversation schema; `reasoning` and
   * `backtracking` an iterated-summarization attempt (the paper's base and backtracking prompts). An endpoint
   * reads the prompt; the offline summarizer writes the matching style from the slice.
   */
  style?: SummaryStyle;
  /** Streaming: called with the text so far as it arrives. */
  onText?(textSoFar: string): void;
  signal?: AbortSignal;
}

export type SummaryStyle = 'course' | 'reasoning' | 'backtracking';

export type SummarizeFailure = 'timeout' | 'network' | 'cors' | 'http' | 'garbage' | 'not-schema' | 'cancelled';

export type SummarizeResult =
  | { ok: true; text: string; model: string | null }
  | { ok: false; failure: SummarizeFailure; reason: string };

export interface Summarizer {
  /** `offline` or the endpoint's model name; shown beside results. */
  readonly name: string;
  summarize(req: SummarizeRequest): Promise<SummarizeResult>;
}
