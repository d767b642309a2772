// Inspect AI's compaction strategies, replayed. Source: UKGovernmentBEIS/inspect_ai
// src/inspect_ai/model/_compaction/{summary,edit,trim}.py and inspect.aisi.org.uk/compaction.html
// (inspect_ai 0.3.15x, read 2026-11-25). Every strategy takes `threshold`, a token count or a share of the
// context window, default 0.9:
// - CompactionSummary: system and input messages kept, the rest summarized by a model;
// - CompactionEdit: tool results replaced by "(Tool result removed)", keeping the last keep_tool_uses = 3
//   (the observation-masking strategy with that placeholder);
// - CompactionTrim: system and input messages kept, then the newest `preserve` = 0.8 of the other messages.
import { isUserMessage, preambleEnd } from '../layout';
import { safeCut } from '../tool-pairs';
import { unchanged, type StrategyFn } from '../types';

export const INSPECT_EDIT_PLACEHOLDER = '(Tool result removed)';

export interface InspectTrimParams {
  /** Share of the conversation messages kept, newest first. */
  preservePercent: number;
}

export const INSPECT_TRIM_DEFAULTS: InspectTrimParams = { preservePercent: 80 };

export const inspectTrim: StrategyFn<InspectTrimParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  let input = preambleEnd(context);
  if (input < context.length && isUserMessage(context[input]!)) input++;
  const rest = context.length - input;
  const keep = Math.ceil((rest * Math.min(100, Math.max(0, params.preservePercent))) / 100);
  const cut = safeCut(context, context.length - keep, 'later');
  const dropped = context.slice(input, cut);
  if (dropped.length === 0) return unchanged(context, `nothing to trim: ${rest} messages, ${params.preservePercent}% kept`);
  return {
    context: [...context.slice(0, input), ...context.slice(cut)],
    changed: true,
    replacedIds: dropped.map((it) => it.id),
    label: 'dropped',
    slice: dropped,
    recap: null,
    foldedIds: [],
    priorSummary: null,
    fallback: null,
    summarizerCalls: [],
    note: `trimmed ${dropped.length} of ${rest} messages (kept ${params.preservePercent}%)`,
    cancelled: false,
  };
};
