// Finds calls by what they contain, so views can turn an item or a compaction into a turn to step to.
import type { CallView } from './analysis-view';

type CallLike = Pick<CallView, 'entries' | 'outputIds' | 'compactionId'>;

/** A view's spans (view-timeline.ts): where they exist, reading them is cheaper than every call's list. */
type SpanLike = { id: string; from: number };

/** Index of the first call whose context holds each item id. */
export function firstSentByItem(calls: readonly { entries: readonly { id: string }[] }[], spans?: readonly SpanLike[] | null): Map<string, number> {
  const first = new Map<string, number>();
  if (spans) {
    for (const s of spans) if ((first.get(s.id) ?? Infinity) > s.from) first.set(s.id, s.from);
    return first;
  }
  calls.forEach((call, ci) => {
    for (const e of call.entries) if (!first.has(e.id)) first.set(e.id, ci);
  });
  return first;
}

/** Index of the first call whose context or output holds each item id (first occurrence wins). */
export function firstCallByItem(calls: readonly CallLike[], spans?: readonly SpanLike[] | null): Map<string, number> {
  if (!spans) {
    const first = new Map<string, number>();
    calls.forEach((call, ci) => {
      for (const e of call.entries) if (!first.has(e.id)) first.set(e.id, ci);
      for (const id of call.outputIds) if (!first.has(id)) first.set(id, ci);
    });
    return first;
  }
  const first = firstSentByItem(calls, spans);
  calls.forEach((call, ci) => {
    for (const id of call.outputIds) if ((first.get(id) ?? Infinity) > ci) first.set(id, ci);
  });
  return first;
}

/** The first call that sent or produced the item, or null when no call shows it. */
export function firstCallWithItem(calls: readonly CallLike[], itemId: string): number | null {
  for (let ci = 0; ci < calls.length; ci++) {
    const call = calls[ci]!;
    if (call.entries.some((e) => e.id === itemId) || call.outputIds.includes(itemId)) return ci;
  }
  return null;
}

/** The first call made after each compaction, by compaction id: one pass for many look-ups. */
export function firstCallByCompaction(calls: readonly Pick<CallLike, 'compactionId'>[]): Map<string, number> {
  const first = new Map<string, number>();
  calls.forEach((c, ci) => {
    if (c.compactionId !== null && !first.has(c.compactionId)) first.set(c.compactionId, ci);
  });
  return first;
}

/** The first call made after the compaction (the one that carries its id), or null. */
export function firstCallOfCompaction(calls: readonly CallLike[], compactionId: string): number | null {
  const ci = calls.findIndex((c) => c.compactionId === compactionId);
  return ci >= 0 ? ci : null;
}

/** The compaction whose result the call was sent: the latest one at or before it, or null before any. */
export function compactionInEffect(calls: readonly CallLike[], callIndex: number): string | null {
  for (let ci = Math.min(callIndex, calls.length - 1); ci >= 0; ci--) {
    const id = calls[ci]!.compactionId;
    if (id) return id;
  }
  return null;
}
