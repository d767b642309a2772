// Drop-oldest (course unit 3): whole steps leave the middle from the oldest, until the context fits the
// target or the middle is gone; one static marker stands where they were. Earlier markers or summaries in
// the middle go with them, so there is never more than one.
import { TRUNCATION_MARKER } from '../../model/markers';
import type { Item } from '../../model/types';
import { hasNewMiddle, isRecap, layout, stepStarts, type LayoutParams } from '../layout';
import { itemTokens } from '../measure';
import { markerItem, priorSummaryText } from '../recap';
import { cutSplitsPair, pairSpans } from '../tool-pairs';
import { unchanged, type StrategyFn } from '../types';
import { noMiddleNote } from './notes';

export interface DropOldestParams extends LayoutParams {
  /** Stop dropping once the context is at most this many tokens; null drops the whole middle. */
  targetTokens: number | null;
  /** The static marker's text. */
  marker: string;
}

export const DROP_OLDEST_DEFAULTS: DropOldestParams = { head: 1, tail: 2, unit: 'auto', targetTokens: null, marker: TRUNCATION_MARKER };

export const dropOldest: StrategyFn<DropOldestParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  const l = layout(context, params);
  if (!hasNewMiddle(context, l)) return unchanged(context, noMiddleNote(l, params));
  const prefix = deps.idPrefix ?? 'compact';
  const marker = markerItem(`${prefix}.marker`, [], 'drop-oldest', params.marker || TRUNCATION_MARKER);
  const tokens = (it: Item) => itemTokens(it, deps.count);

  // Candidate cuts: step boundaries inside the middle past every recap, and the middle's end; none splits a pair.
  let lastRecap = -1;
  for (let i = l.headEnd; i < l.tailStart; i++) if (isRecap(context[i]!)) lastRecap = i;
  const spans = pairSpans(context);
  const cuts = [...stepStarts(context).filter((s) => s > l.headEnd && s < l.tailStart), l.tailStart].filter(
    (c) => c > lastRecap && !cutSplitsPair(context, c, spans) && context.slice(l.headEnd, c).some((it) => !isRecap(it)),
  );
  let cut = l.tailStart;
  if (params.targetTokens !== null) {
    const fixed = [...context.slice(0, l.headEnd), marker, ...context.slice(l.tailStart)].reduce((n, it) => n + tokens(it), 0);
    // Tokens of the kept middle after each cut, from the end.
    const after = new Map<number, number>();
    let sum = 0;
    for (let i = l.tailStart - 1; i >= l.headEnd; i--) {
      sum += tokens(context[i]!);
      after.set(i, sum);
    }
    const fits = cuts.find((c) => fixed + (after.get(c) ?? 0) <= params.targetTokens!);
    cut = fits ?? l.tailStart;
  }
  const dropped = context.slice(l.headEnd, cut);
  const slice = dropped.filter((it) => !isRecap(it));
  marker.omission!.refs = slice.map((it) => it.id);
  return {
    context: [...context.slice(0, l.headEnd), marker, ...context.slice(cut)],
    changed: true,
    replacedIds: slice.map((it) => it.id),
    label: 'dropped',
    slice,
    recap: marker,
    foldedIds: dropped.filter(isRecap).map((it) => it.id),
    priorSummary: priorSummaryText(dropped),
    fallback: null,
    summarizerCalls: [],
    note: `dropped ${slice.length} item${slice.length === 1 ? '' : 's'} (turns counted by ${l.unit})`,
    cancelled: false,
  };
};
