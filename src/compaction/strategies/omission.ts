// Agent-Omit-style omission, applied as a fixed rule rather than a learned policy: thoughts and/or
// observations of model steps older than the last N become the paper's empty forms — an empty thought
// (`<think> </think>`) and `<omitted_tool_response_N></omitted_tool_response_N>` for turn N's tool output.
// The paper finds the first turn's thought (the plan) worth keeping, hence `keepFirst`.
import type { Item } from '../../model/types';
import { isModelItem, stepStarts } from '../layout';
import { unchanged, type StrategyFn } from '../types';
import { isCleared, isObservation } from './observations';

export interface OmissionParams {
  /** Model steps at the end whose thoughts and observations stay. */
  keepLast: number;
  /** Model steps at the start whose thoughts stay (initial planning). */
  keepFirst: number;
  thoughts: boolean;
  observations: boolean;
}

export const OMISSION_DEFAULTS: OmissionParams = { keepLast: 2, keepFirst: 1, thoughts: true, observations: true };

export const EMPTY_THOUGHT = '<think> </think>';
export const omittedPlaceholder = (turn: number) => `<omitted_tool_response_${turn}></omitted_tool_response_${turn}>`;

/** Model steps (1-based turn numbers) with the indices of their items; user messages are no step. */
function modelSteps(context: readonly Item[]): { turn: number; indices: number[] }[] {
  const starts = stepStarts(context);
  const steps: { turn: number; indices: number[] }[] = [];
  starts.forEach((s, k) => {
    const end = starts[k + 1] ?? context.length;
    if (!isModelItem(context[s]!)) return;
    const indices: number[] = [];
    for (let i = s; i < end; i++) indices.push(i);
    steps.push({ turn: steps.length + 1, indices });
  });
  return steps;
}

export const omission: StrategyFn<OmissionParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  if (!params.thoughts && !params.observations) return unchanged(context, 'nothing to omit: thoughts and observations both kept');
  const steps = modelSteps(context);
  const keepLast = Math.max(0, Math.floor(params.keepLast));
  const keepFirst = Math.max(0, Math.floor(params.keepFirst));
  const replaced = new Map<number, Item>();
  steps.slice(0, Math.max(0, steps.length - keepLast)).forEach((step, k) => {
    for (const i of step.indices) {
      const it = context[i]!;
      if (isCleared(it)) continue;
      if (params.thoughts && it.kind === 'thinking' && k >= keepFirst && it.text.trim() !== '') {
        replaced.set(i, { ...it, text: '', omission: { target: 'thought', refs: [it.id], marker: EMPTY_THOUGHT }, meta: { ...it.meta, omittedThought: true } });
      } else if (params.observations && isObservation(it)) {
        // The Agent-Omit export numbers observation turns itself; keep its number when it has one.
        const turn = typeof it.meta?.['turn'] === 'number' ? it.meta['turn'] : step.turn;
        const text = omittedPlaceholder(turn);
        replaced.set(i, { ...it, text, omission: { target: 'observation', refs: [String(turn)], marker: `<omitted_tool_response_${turn}>` } });
      }
    }
  });
  if (replaced.size === 0) return unchanged(context, `nothing to omit: ${steps.length} model step${steps.length === 1 ? '' : 's'}, the last ${keepLast} kept`);
  const slice = [...replaced.keys()].map((i) => context[i]!);
  const thoughts = slice.filter((it) => it.kind === 'thinking').length;
  return {
    context: context.map((it, i) => replaced.get(i) ?? it),
    changed: true,
    replacedIds: slice.map((it) => it.id),
    label: 'omitted',
    slice,
    recap: null,
    foldedIds: [],
    priorSummary: null,
    fallback: null,
    summarizerCalls: [],
    note: `omitted ${thoughts} thought${thoughts === 1 ? '' : 's'} and ${slice.length - thoughts} observation${slice.length - thoughts === 1 ? '' : 's'}`,
    cancelled: false,
  };
};
