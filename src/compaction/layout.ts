// Where a context splits into head / middle / tail (course unit 5: keep the head and the tail verbatim,
// only ever compress the middle), computed on the items themselves so causal order survives (LiveKit
// PR #5099) and never between a tool call and its result.
import { classifyText } from '../model/markers';
import type { Item } from '../model/types';
import { cutSplitsPair, pairSpans, safeCut } from './tool-pairs';

/**
 * `user`: a turn is a user message and everything up to the next one (LiveKit's keep_last_turns).
 * `step`: a turn is one user message, or one model response with the tool results answering it.
 * `auto`: `user`, unless that leaves nothing to compact (an agent run with one prompt), then `step`.
 */
export type TurnUnit = 'user' | 'step';
export type TurnUnitChoice = TurnUnit | 'auto';

export interface LayoutParams {
  /** Steps kept verbatim after the leading system/developer items (1 = the first user message, as in the course). */
  head: number;
  /** Trailing turns kept verbatim. */
  tail: number;
  unit: TurnUnitChoice;
}

export interface Layout {
  /** Leading system/developer items: [0, preambleEnd). */
  preambleEnd: number;
  /** Head = [0, headEnd), middle = [headEnd, tailStart), tail = [tailStart, length). */
  headEnd: number;
  tailStart: number;
  unit: TurnUnit;
}

/** A summary or static marker standing in for earlier turns. */
export function isRecap(it: Item): boolean {
  if (it.kind === 'summary') return true;
  if (it.kind === 'omission') return it.omission?.target === 'turns' || classifyText(it.text) === 'marker';
  return false;
}

export const isUserMessage = (it: Item) => it.role === 'user' && it.kind === 'message';

/** Something the model wrote in a response (its text, thinking, tool calls, an omit command). */
export const isModelItem = (it: Item) =>
  it.role === 'assistant' && (it.kind === 'message' || it.kind === 'thinking' || it.kind === 'tool_call' || (it.kind === 'omission' && !isRecap(it)));

export function preambleEnd(items: readonly Item[]): number {
  let i = 0;
  while (i < items.length && (items[i]!.role === 'system' || items[i]!.role === 'developer') && items[i]!.kind === 'message') i++;
  return i;
}

/** Start indices of the steps after the preamble. */
export function stepStarts(items: readonly Item[]): number[] {
  const starts: number[] = [];
  let prev: Item | null = null;
  for (let i = preambleEnd(items); i < items.length; i++) {
    const it = items[i]!;
    let starts_ = false;
    if (prev === null || isRecap(it) || isRecap(prev)) starts_ = true;
    else if (isUserMessage(it) || ((it.role === 'system' || it.role === 'developer') && it.kind === 'message')) starts_ = true;
    else if (isModelItem(it)) {
      // A new response begins after anything the model did not write, or where the response id changes.
      starts_ = !isModelItem(prev) || (it.responseId !== undefined && prev.responseId !== undefined && it.responseId !== prev.responseId);
    }
    if (starts_) starts.push(i);
    prev = it;
  }
  return starts;
}

/** Start indices of the turns of `unit`. Items before the first user message belong to no user turn. */
export function turnStarts(items: readonly Item[], unit: TurnUnit): number[] {
  const steps = stepStarts(items);
  return unit === 'step' ? steps : steps.filter((i) => isUserMessage(items[i]!));
}

function layoutFor(items: readonly Item[], params: LayoutParams, unit: TurnUnit): Layout {
  const pre = preambleEnd(items);
  const steps = stepStarts(items);
  const recaps = items.map((it, i) => (isRecap(it) ? i : -1)).filter((i) => i >= 0);
  const firstRecap = recaps.length > 0 ? recaps[0]! : items.length;
  const lastRecap = recaps.length > 0 ? recaps[recaps.length - 1]! : -1;

  const head = Math.max(0, Math.floor(params.head));
  let headEnd = head < steps.length ? steps[head]! : items.length;
  if (head === 0) headEnd = pre;
  // A recap is never head: it is folded into the next one.
  headEnd = Math.min(headEnd, firstRecap);

  const tail = Math.max(0, Math.floor(params.tail));
  const turns = turnStarts(items, unit);
  // Fewer turns than asked for: everything from the first one stays (with none, everything stays).
  let tailStart = tail === 0 ? items.length : tail <= turns.length ? turns[turns.length - tail]! : (turns[0] ?? headEnd);
  tailStart = Math.max(tailStart, lastRecap + 1, headEnd);

  const spans = pairSpans(items);
  headEnd = Math.max(pre, safeCut(items, headEnd, 'earlier', spans));
  tailStart = safeCut(items, tailStart, 'earlier', spans);
  if (tailStart <= lastRecap || tailStart < headEnd || cutSplitsPair(items, tailStart, spans) || cutSplitsPair(items, headEnd, spans)) {
    tailStart = headEnd = Math.min(headEnd, items.length);
    return { preambleEnd: pre, headEnd, tailStart: Math.max(tailStart, headEnd), unit };
  }
  return { preambleEnd: pre, headEnd, tailStart, unit };
}

/** Does the middle hold anything besides earlier recaps? */
export function hasNewMiddle(items: readonly Item[], l: Layout): boolean {
  for (let i = l.headEnd; i < l.tailStart; i++) if (!isRecap(items[i]!)) return true;
  return false;
}

export function layout(items: readonly Item[], params: LayoutParams): Layout {
  if (params.unit !== 'auto') return layoutFor(items, params, params.unit);
  const byUser = layoutFor(items, params, 'user');
  return hasNewMiddle(items, byUser) ? byUser : layoutFor(items, params, 'step');
}
