// How the research metrics count tokens: by text (the corpus counts with its own tokenizer), or from the
// counts an AnalysisView already made (the inspector), so a panel never counts a text twice.
import type { Item } from '../model/types';

export type CountText = (text: string) => number;

/** A counter, or an AnalysisView's `tokens` (item id → tokens); `count` covers ids the view lacks. */
export type TokenSource = CountText | { readonly tokens: ReadonlyMap<string, number>; readonly count?: CountText };

/** Tokens of one item from a source. Items a view never counted, with no fallback counter, count 0. */
export function itemCounter(source: TokenSource): (item: Item) => number {
  if (typeof source === 'function') return (item) => source(item.text);
  const { tokens, count } = source;
  return (item) => tokens.get(item.id) ?? (count ? count(item.text) : 0);
}
