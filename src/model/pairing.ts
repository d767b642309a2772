// Links each tool call to its result through the provider call id.
import type { Item } from './types';

/** Sets `pairId` on calls and results that share a `callId`; the first match wins. Mutates in place. */
export function pairToolCalls(items: Item[]): void {
  const calls = new Map<string, Item>();
  for (const item of items) {
    if (item.kind === 'tool_call' && item.callId && !calls.has(item.callId)) calls.set(item.callId, item);
  }
  for (const item of items) {
    if (item.kind !== 'tool_result' || !item.callId) continue;
    const call = calls.get(item.callId);
    if (!call || call.pairId) continue;
    call.pairId = item.id;
    item.pairId = call.id;
    if (!item.name && call.name) item.name = call.name;
  }
}
