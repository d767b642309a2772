// Estimated input cost: one small price table per model family, USD per million tokens.
//
// Source: the providers' public pricing pages — platform.claude.com/docs/en/about-claude/pricing,
// platform.openai.com/docs/pricing (developers.openai.com/api/docs/pricing), api-docs.deepseek.com
// (quick_start/pricing) — as read on 2026-11-22 (cross-checked against third-party price tables of
// 2026). Prices change: callers pass `price` (or their own table) to override. Cache writes, batch
// discounts and long-context tiers are not modelled: cost = uncached × input + cached × cachedInput.

export interface ModelPrice {
  /** Family label shown beside the figure (`Claude Sonnet 4.x`). */
  label: string;
  /** USD per million uncached input tokens. */
  input: number;
  /** USD per million input tokens served from the prompt cache. */
  cachedInput: number;
  /** USD per million output tokens. */
  output: number;
}

export interface PriceEntry extends ModelPrice {
  /** Case-insensitive regular expression source matched against the model name; first match wins. */
  match: string;
}

export const PRICE_TABLE: readonly PriceEntry[] = [
  // Anthropic
  { match: 'claude.*opus-4-(?:[5-9])|opus-4\\.[5-9]|opus-[5-9]', label: 'Claude Opus 4.5+', input: 5, cachedInput: 0.5, output: 25 },
  { match: 'claude.*opus|opus-4|claude-3-opus', label: 'Claude Opus 3/4/4.1', input: 15, cachedInput: 1.5, output: 75 },
  { match: 'sonnet-[5-9]|sonnet-5', label: 'Claude Sonnet 5', input: 2, cachedInput: 0.2, output: 10 },
  { match: 'sonnet', label: 'Claude Sonnet 3.7/4/4.5', input: 3, cachedInput: 0.3, output: 15 },
  { match: 'haiku-4|haiku-4\\.5', label: 'Claude Haiku 4.5', input: 1, cachedInput: 0.1, output: 5 },
  { match: '3-5-haiku|3\\.5-haiku|haiku-3-5', label: 'Claude Haiku 3.5', input: 0.8, cachedInput: 0.08, output: 4 },
  { match: '3-haiku|haiku-3', label: 'Claude Haiku 3', input: 0.25, cachedInput: 0.03, output: 1.25 },
  { match: 'haiku', label: 'Claude Haiku (4.5 price)', input: 1, cachedInput: 0.1, output: 5 },
  { match: 'claude', label: 'Claude (Sonnet-class default)', input: 3, cachedInput: 0.3, output: 15 },
  // OpenAI
  { match: 'gpt-5(?:\\.\\d+)?-nano', label: 'GPT-5 nano', input: 0.05, cachedInput: 0.005, output: 0.4 },
  { match: 'gpt-5(?:\\.\\d+)?-mini', label: 'GPT-5 mini', input: 0.25, cachedInput: 0.025, output: 2 },
  { match: 'gpt-5|codex', label: 'GPT-5', input: 1.25, cachedInput: 0.125, output: 10 },
  { match: 'gpt-4\\.1-nano', label: 'GPT-4.1 nano', input: 0.1, cachedInput: 0.025, output: 0.4 },
  { match: 'gpt-4\\.1-mini', label: 'GPT-4.1 mini', input: 0.4, cachedInput: 0.1, output: 1.6 },
  { match: 'gpt-4\\.1', label: 'GPT-4.1', input: 2, cachedInput: 0.5, output: 8 },
  { match: 'gpt-4o-mini', label: 'GPT-4o mini', input: 0.15, cachedInput: 0.075, output: 0.6 },
  { match: 'gpt-4o', label: 'GPT-4o', input: 2.5, cachedInput: 1.25, output: 10 },
  { match: '(?:^|[/:])o4-mini', label: 'o4-mini', input: 1.1, cachedInput: 0.275, output: 4.4 },
  { match: '(?:^|[/:])o3', label: 'o3', input: 2, cachedInput: 0.5, output: 8 },
  // DeepSeek (V3.2 prices, cache hit vs miss)
  { match: 'deepseek', label: 'DeepSeek V3.2', input: 0.28, cachedInput: 0.028, output: 0.42 },
];

/** The price of a model by name, from `table` (default PRICE_TABLE); null when unknown. */
export function priceFor(model: string | null | undefined, table: readonly PriceEntry[] = PRICE_TABLE): ModelPrice | null {
  if (!model) return null;
  for (const e of table) {
    if (new RegExp(e.match, 'i').test(model)) return { label: e.label, input: e.input, cachedInput: e.cachedInput, output: e.output };
  }
  return null;
}

/** USD for one call's prompt: `cached` of its `tokens` at the cached price, the rest at the input price. */
export function inputCost(tokens: number, cached: number, price: ModelPrice): number {
  const c = Math.max(0, Math.min(cached, tokens));
  return ((tokens - c) * price.input + c * price.cachedInput) / 1e6;
}

/** USD for a summarizer call (prompt uncached, plus its output). */
export function callCost(promptTokens: number, outputTokens: number, price: ModelPrice): number {
  return (promptTokens * price.input + outputTokens * price.output) / 1e6;
}
