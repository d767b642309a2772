// Small hand-made CallContexts for the cache tests.
import type { CallContext, RegionName } from '../analysis/context-types';
import type { Item, ItemKind, Role, Usage } from '../model/types';

const src = { file: 'test', line: null };

export function item(id: string, role: Role, kind: ItemKind, text: string, extra: Partial<Item> = {}): Item {
  return { id, role, kind, text, source: src, ...extra };
}

export const sys = (id: string, text: string, extra: Partial<Item> = {}) => item(id, 'system', 'message', text, extra);
export const user = (id: string, text: string, extra: Partial<Item> = {}) => item(id, 'user', 'message', text, extra);
export const asst = (id: string, text: string, extra: Partial<Item> = {}) => item(id, 'assistant', 'message', text, extra);
export const summary = (id: string, text: string) => item(id, 'assistant', 'summary', text);
export const marker = (id: string, text = '[Earlier messages truncated]') =>
  item(id, 'assistant', 'omission', text, { omission: { target: 'turns', refs: [], marker: text } });
export const toolCall = (id: string, name: string, args: string, callId: string) => item(id, 'assistant', 'tool_call', args, { name, callId });
export const toolResult = (id: string, name: string, text: string, callId: string, extra: Partial<Item> = {}) =>
  item(id, 'tool', 'tool_result', text, { name, callId, ...extra });

export function usage(u: Partial<Usage>): Usage {
  return { input: null, output: null, cacheRead: null, cacheWrite: null, ...u };
}

/** A call sending `items` in order; the index defaults to 0 (use `calls` to number a sequence). */
export function call(items: Item[], extra: Partial<CallContext> = {}): CallContext {
  return {
    index: 0,
    id: `c${extra.index ?? 0}`,
    entries: items.map((it) => ({ item: it, region: 'tail' as RegionName })),
    output: [],
    tools: null,
    usage: null,
    model: null,
    api: null,
    prefixUnrecorded: false,
    compactionId: null,
    recorded: true,
    ...extra,
  };
}

/** Numbers calls 0, 1, 2, … in order. */
export function calls(...cs: CallContext[]): CallContext[] {
  return cs.map((c, index) => ({ ...c, index, id: `c${index}` }));
}

/** Whitespace-separated words: a deterministic stand-in for a tokenizer. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** Seeded PRNG (mulberry32) for property-style tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
