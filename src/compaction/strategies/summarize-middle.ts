// Head + tail kept verbatim, the middle summarized (course unit 4/5): the course schema prompt on a plain
// rendering, or the action-aware prompt on an XML rendering (LiveKit PR #5099). Any earlier summary in the
// middle is folded into the new one; the recap goes in as one `assistant` item right after the head. On
// any summarizer failure the static marker takes its place, with the reason.
import { TRUNCATION_MARKER } from '../../model/markers';
import { hasNewMiddle, isRecap, layout, type LayoutParams } from '../layout';
import { fillPrompt, SCHEMA_SYSTEM_PROMPT, SCHEMA_USER_PROMPT, XML_SYSTEM_PROMPT, XML_USER_PROMPT } from '../prompts';
import { callSummarizer, markerItem, priorSummaryText, startsWithSchema, summaryItem } from '../recap';
import { renderSlice } from '../render-slice';
import { unchanged, type CompactionFallback, type StrategyFn } from '../types';
import { noMiddleNote } from './notes';

export type SummaryRender = 'schema' | 'xml';

export interface SummarizeMiddleParams extends LayoutParams {
  /** `schema`: course prompt over plain lines; `xml`: action-aware prompt over XML. */
  render: SummaryRender;
  /** System prompt; null uses the default for `render`. */
  systemPrompt: string | null;
  /** User prompt with `{slice}` and `{prior_summary}`; null uses the default for `render`. */
  userPrompt: string | null;
  /** Longer item texts are cut in the middle before they are sent (0 = never). */
  maxItemChars: number;
}

export const SUMMARIZE_MIDDLE_DEFAULTS: SummarizeMiddleParams = { head: 1, tail: 2, unit: 'auto', render: 'schema', systemPrompt: null, userPrompt: null, maxItemChars: 6000 };

/** The prompts a run of summarize-middle sends, defaults filled in. */
export function summarizeMiddlePrompts(p: Pick<SummarizeMiddleParams, 'render' | 'systemPrompt' | 'userPrompt'>): { system: string; user: string } {
  return {
    system: p.systemPrompt ?? (p.render === 'xml' ? XML_SYSTEM_PROMPT : SCHEMA_SYSTEM_PROMPT),
    user: p.userPrompt ?? (p.render === 'xml' ? XML_USER_PROMPT : SCHEMA_USER_PROMPT),
  };
}

export const summarizeMiddle: StrategyFn<SummarizeMiddleParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  const l = layout(context, params);
  if (!hasNewMiddle(context, l)) return unchanged(context, noMiddleNote(l, params));
  const middle = context.slice(l.headEnd, l.tailStart);
  const slice = middle.filter((it) => !isRecap(it));
  const priorSummary = priorSummaryText(middle);
  const prompts = summarizeMiddlePrompts(params);
  const rendered = renderSlice(slice, params.render === 'xml' ? 'xml' : 'plain', params.maxItemChars);
  const messages: { role: 'system' | 'user'; content: string }[] = [
    { role: 'system', content: prompts.system },
    { role: 'user', content: fillPrompt(prompts.user, { slice: rendered, prior_summary: priorSummary ?? '(none)' }) },
  ];
  const { result, call } = await callSummarizer(deps, { messages, slice, priorSummary });
  if (!result.ok && result.failure === 'cancelled') return { ...unchanged(context, result.reason, true), summarizerCalls: [call] };

  const prefix = deps.idPrefix ?? 'compact';
  let fallback: CompactionFallback | null = null;
  if (!result.ok) fallback = { failure: result.failure, reason: result.reason };
  else if (!startsWithSchema(result.text)) fallback = { failure: 'not-schema', reason: 'the summary does not start with "## Conversation Summary"' };
  const recap =
    result.ok && fallback === null
      ? summaryItem(`${prefix}.summary`, result.text.trim(), 'summarize-middle', { summarizer: deps.summarizer.name, render: params.render })
      : markerItem(`${prefix}.marker`, slice.map((it) => it.id), 'summarize-middle', TRUNCATION_MARKER);
  return {
    context: [...context.slice(0, l.headEnd), recap, ...context.slice(l.tailStart)],
    changed: true,
    replacedIds: slice.map((it) => it.id),
    label: fallback ? 'dropped' : 'summarized',
    slice,
    recap,
    foldedIds: middle.filter(isRecap).map((it) => it.id),
    priorSummary,
    fallback,
    summarizerCalls: [call],
    note: `summarized ${slice.length} item${slice.length === 1 ? '' : 's'} (turns counted by ${l.unit})`,
    cancelled: false,
  };
};
