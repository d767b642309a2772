// The first point where a call's prompt stops matching the previous call's, with a short diff.
import { headerOf, serializeUnit, type PromptUnit } from './item-hash';

export interface Divergence {
  /** Id of the diverging item in this call, or in the previous call when this call has none there. */
  itemId: string;
  /** Id of the item at that position in the previous call (ids may differ when logs number items per request). */
  previousItemId: string | null;
  /** Index in `call.entries`; -1 for the tool schemas. */
  itemIndex: number;
  /** Character offset into the item's text where the two first differ (0 when role/kind/name differ). */
  offset: number;
  /** Role, kind, name or call id differ, not just the text. */
  headerChanged: boolean;
  /** Up to `DIFF_CONTEXT_CHARS` of the shared text just before the offset. */
  before: string;
  /** The previous call's text from the offset up to where both agree again (clipped). */
  removed: string;
  /** This call's text at the same place (clipped). */
  added: string;
}

export const DIFF_CONTEXT_CHARS = 40;
export const DIFF_CHANGE_CHARS = 80;

/** Length of the common prefix of two strings, from `start`. */
export function commonPrefixLength(a: string, b: string, start = 0): number {
  const n = Math.min(a.length, b.length);
  let i = start;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix, not reaching into the first `floor` characters of either. */
export function commonSuffixLength(a: string, b: string, floor = 0): number {
  const n = Math.min(a.length, b.length) - floor;
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** Characters of the serialized units both calls share at the first differing unit. */
export function sharedSerialLength(previous: PromptUnit, current: PromptUnit): number {
  return commonPrefixLength(serializeUnit(previous), serializeUnit(current));
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * Describes the divergence at unit position `unitIndex`. `current` is undefined when this call's
 * prompt ends before that position (the previous call had more there).
 */
export function describeDivergence(previous: PromptUnit, current: PromptUnit | undefined, itemIndex: number): Divergence {
  if (!current) {
    return { itemId: previous.id, previousItemId: previous.id, itemIndex, offset: 0, headerChanged: false, before: '', removed: clip(previous.text, DIFF_CHANGE_CHARS), added: '' };
  }
  const headerChanged = headerOf(previous) !== headerOf(current);
  const old = previous.text;
  const now = current.text;
  const offset = headerChanged ? 0 : commonPrefixLength(old, now);
  const suffix = commonSuffixLength(old, now, offset);
  const from = Math.max(0, offset - DIFF_CONTEXT_CHARS);
  return {
    itemId: current.id,
    previousItemId: previous.id,
    itemIndex,
    offset,
    headerChanged,
    before: (from > 0 ? '…' : '') + now.slice(from, offset),
    removed: clip(old.slice(offset, old.length - suffix), DIFF_CHANGE_CHARS),
    added: clip(now.slice(offset, now.length - suffix), DIFF_CHANGE_CHARS),
  };
}
