// One summarizer call over a span of the context, for the harness policies: the harness's own prompt, the
// summary accepted as written (harness summaries have their own shapes, not the course schema), the static
// marker when the summarizer fails. Prior summaries in the span are folded in, as the harnesses do.
import type { Item } from '../../model/types';
import { isRecap } from '../layout';
import { fillPrompt } from '../prompts';
import { callSummarizer, markerItem, priorSummaryText, summaryItem } from '../recap';
import { renderSlice } from '../render-slice';
import type { CompactionDeps, CompactionFallback, CompactionOutcome, SummarizerCall } from '../types';

export interface SpanSummary {
  /** The summary item, or the static marker when the summarizer failed. */
  recap: Item;
  slice: Item[];
  foldedIds: string[];
  priorSummary: string | null;
  fallback: CompactionFallback | null;
  call: SummarizerCall;
  cancelled: boolean;
}

export async function summarizeSpan(
  span: readonly Item[],
  prompts: { system: string; user: string; prefix?: string },
  strategy: string,
  deps: CompactionDeps,
  maxItemChars = 6000,
): Promise<SpanSummary> {
  const slice = span.filter((it) => !isRecap(it));
  const priorSummary = priorSummaryText(span);
  const rendered = renderSlice(slice, 'plain', maxItemChars);
  const messages: { role: 'system' | 'user'; content: string }[] = [
    { role: 'system', content: prompts.system },
    { role: 'user', content: fillPrompt(prompts.user, { slice: rendered, prior_summary: priorSummary ?? '(none)' }) },
  ];
  const { result, call } = await callSummarizer(deps, { messages, slice, priorSummary });
  const id = deps.idPrefix ?? 'compact';
  const cancelled = !result.ok && result.failure === 'cancelled';
  const fallback: CompactionFallback | null = result.ok && result.text.trim() !== '' ? null : result.ok ? { failure: 'garbage', reason: 'the summary is empty' } : { failure: result.failure, reason: result.reason };
  const recap =
    result.ok && fallback === null
      ? summaryItem(`${id}.summary`, `${prompts.prefix ?? ''}${result.text.trim()}`, strategy, { summarizer: deps.summarizer.name })
      : markerItem(`${id}.marker`, slice.map((it) => it.id), strategy);
  return { recap, slice, foldedIds: span.filter(isRecap).map((it) => it.id), priorSummary, fallback, call, cancelled };
}

/**
 * The outcome of a policy that summarized a span: `context` is the compacted context, `recap` the item standing in
 * for the span in it (the summary, or one the policy built from it), `replacedIds` when more than the slice left.
 */
export function summarizedOutcome(s: SpanSummary, out: { context: Item[]; note: string; recap?: Item; replacedIds?: string[] }): CompactionOutcome {
  return {
    context: out.context,
    changed: true,
    replacedIds: out.replacedIds ?? s.slice.map((it) => it.id),
    label: s.fallback ? 'dropped' : 'summarized',
    slice: s.slice,
    recap: out.recap ?? s.recap,
    foldedIds: s.foldedIds,
    priorSummary: s.priorSummary,
    fallback: s.fallback,
    summarizerCalls: [s.call],
    note: out.note,
    cancelled: false,
  };
}
