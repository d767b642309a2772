// The distinct texts an analysis counts exactly: every item's text, the header the cache prefix counts with it
// (itemHeader), each request's tool definitions, and the tools header; then the few starts of items where two
// prompts part (prefixPartTexts). The app's analysis worker hands both lists to the token pool; the bench's "unique
// content" baseline counts the first.
import { partingTexts } from '../cache/parting-texts';
import { itemHeader } from '../cache/item-hash';
import type { Item, Session } from '../model/types';
import type { SessionContexts } from './session-analysis';

export function countedTexts(session: Session): string[] {
  const texts = new Set<string>(['tools\n']);
  // A request log's requests share item objects (86,623 references to 1,342 items in the bench's 500-call log):
  // each is read once, not a header built and hashed per reference (~30 ms there).
  const seen = new Set<Item>();
  const add = (it: Item) => {
    if (seen.has(it)) return;
    seen.add(it);
    texts.add(it.text);
    texts.add(itemHeader(it));
  };
  for (const it of session.items) add(it);
  for (const r of session.requests) {
    for (const it of r.items) add(it);
    for (const it of r.output) add(it);
    if (r.tools) texts.add(r.tools);
  }
  return [...texts];
}

/**
 * The other texts a view counts: where two calls' prompts part inside an item, the cache prefix counts the part
 * they share (a compaction's first call does; see parting-texts.ts). Counted with the rest, the exact view needs no
 * second build for them.
 */
export function prefixPartTexts(contexts: SessionContexts, listed: readonly string[]): string[] {
  const known = new Set(listed);
  return partingTexts(contexts.calls, contexts.timeline).filter((t) => !known.has(t));
}
