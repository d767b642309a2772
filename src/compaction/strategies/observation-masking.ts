// Observation masking (Lindenbauer et al., cited by Agent-Omit; Claude Code's microcompact does the same):
// every tool output but the last N is replaced in place by a static placeholder. The call and the result
// item stay, so no tool pair is split, and the placeholder's bytes never change.
import type { Item } from '../../model/types';
import { MASK_PLACEHOLDER } from '../prompts';
import { unchanged, type StrategyFn } from '../types';
import { isCleared, isObservation } from './observations';

export interface ObservationMaskingParams {
  /** Tool outputs kept verbatim, counted from the end. */
  keepLast: number;
  placeholder: string;
}

export const OBSERVATION_MASKING_DEFAULTS: ObservationMaskingParams = { keepLast: 3, placeholder: MASK_PLACEHOLDER };

export function maskedItem(it: Item, placeholder: string): Item {
  return { ...it, text: placeholder, omission: { target: 'tool_result', refs: [it.id], marker: placeholder }, meta: { ...it.meta, masked: true } };
}

export const observationMasking: StrategyFn<ObservationMaskingParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  const keep = Math.max(0, Math.floor(params.keepLast));
  const observations = context.map((it, i) => (isObservation(it) ? i : -1)).filter((i) => i >= 0);
  const older = new Set(observations.slice(0, Math.max(0, observations.length - keep)).filter((i) => !isCleared(context[i]!)));
  if (older.size === 0) return unchanged(context, `nothing to mask: ${observations.length} tool output${observations.length === 1 ? '' : 's'}, the last ${keep} kept`);
  const placeholder = params.placeholder || MASK_PLACEHOLDER;
  const slice = [...older].map((i) => context[i]!);
  return {
    context: context.map((it, i) => (older.has(i) ? maskedItem(it, placeholder) : it)),
    changed: true,
    replacedIds: slice.map((it) => it.id),
    label: 'masked',
    slice,
    recap: null,
    foldedIds: [],
    priorSummary: null,
    fallback: null,
    summarizerCalls: [],
    note: `masked ${slice.length} tool output${slice.length === 1 ? '' : 's'}, kept the last ${keep}`,
    cancelled: false,
  };
};
