// Provider-native compaction items (OpenAI Responses `compaction` items, Anthropic `compaction` blocks):
// the item stands in for everything before it, so the events are derived from item order alone.
// Shared by the OpenAI Responses and Anthropic adapters.
import type { CompactionEvent, Item } from '../model/types';

/** A compaction item whose summary is encrypted: its text is a placeholder, not what the model reads. */
export function isOpaqueCompaction(item: Item): boolean {
  return item.meta?.['encrypted'] === true;
}

const INSTRUCTION_ROLES = new Set<Item['role']>(['system', 'developer']);

/**
 * One `summary` event per compaction item. It replaces every earlier conversation item since the previous
 * compaction (that compaction item included, since a new one folds the old); system and developer
 * instructions before it are kept.
 */
export function compactionsAtItems(items: Item[], isCompaction: (item: Item) => boolean): CompactionEvent[] {
  const events: CompactionEvent[] = [];
  let start = 0;
  items.forEach((item, k) => {
    if (!isCompaction(item)) return;
    const before = items.slice(start, k);
    const kept = items.slice(0, k).filter((it) => INSTRUCTION_ROLES.has(it.role));
    events.push({
      id: item.id,
      index: events.length,
      kind: 'summary',
      trigger: null,
      tokensBefore: null,
      tokensAfter: null,
      replacedIds: before.filter((it) => !INSTRUCTION_ROLES.has(it.role)).map((it) => it.id),
      keptIds: kept.map((it) => it.id),
      summaryId: item.id,
      atItemId: item.id,
      ...(isOpaqueCompaction(item) ? { opaque: true } : {}),
      ...(item.timestamp ? { timestamp: item.timestamp } : {}),
      source: item.source,
    });
    start = k;
  });
  return events;
}
