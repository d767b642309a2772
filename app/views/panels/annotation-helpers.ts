// Pure helpers of the Annotations panel: where a note sits in the session, how its target reads, and
// which call or item a click on it goes to.
import { firstSentByItem } from '../../../src/analysis/call-lookup';
import type { Item } from '../../../src/model/types';
import type { AnnotationTarget } from '../../../src/share';
import type { GoTo } from './panel-props';

/**
 * 1-based call where each item first appears in the context sent to the model, else the call that
 * produced it. Items in neither (never sent, never produced by a call) are left out.
 */
export function itemPositions(
  calls: readonly { entries: readonly { id: string }[]; outputIds: readonly string[] }[],
  spans?: readonly { id: string; from: number }[] | null,
): Map<string, number> {
  const pos = new Map<string, number>();
  for (const [id, ci] of firstSentByItem(calls, spans)) pos.set(id, ci + 1);
  calls.forEach((c, i) => {
    for (const id of c.outputIds) if (!pos.has(id)) pos.set(id, i + 1);
  });
  return pos;
}

/** "m3 · user message", "toolu_1 · tool call Read" for an item, or the id alone when unknown. */
export function itemLabel(item: Item | undefined, id: string): string {
  if (!item) return id;
  const kind = item.kind === 'message' ? `${item.role} message` : item.kind.replace('_', ' ');
  return `${id} · ${kind}${item.name ? ` ${item.name}` : ''}`;
}

/** Where a click on a note goes: calls are 1-based in targets, 0-based in goTo. */
export function goToTarget(t: AnnotationTarget): GoTo {
  switch (t.kind) {
    case 'item':
      return { item: t.itemId };
    case 'call':
      return { call: t.call - 1 };
    case 'range':
      return { call: t.fromCall - 1 };
    case 'item-range':
      return { item: t.fromItemId };
  }
}

/** Whether a note's target touches the call being looked at (0-based `callIndex`). */
export function touchesCall(t: AnnotationTarget, callIndex: number, positions: ReadonlyMap<string, number>, inContext: (id: string) => boolean): boolean {
  const call = callIndex + 1;
  switch (t.kind) {
    case 'call':
      return t.call === call;
    case 'range':
      return t.fromCall <= call && call <= t.toCall;
    case 'item':
      return inContext(t.itemId) || positions.get(t.itemId) === call;
    case 'item-range':
      return inContext(t.fromItemId) || inContext(t.toItemId);
  }
}

/** Tags to offer: the suggested ones first, then the ones in use that are not among them. */
export function tagChoices(suggested: readonly string[], inUse: readonly string[]): string[] {
  const seen = new Set(suggested.map((t) => t.toLowerCase()));
  return [...suggested, ...inUse.filter((t) => !seen.has(t.toLowerCase()))];
}

/** Tags typed as "lost fact, question" → ['lost fact', 'question']. */
export function parseTagInput(text: string): string[] {
  return text.split(',').map((t) => t.trim()).filter(Boolean);
}
