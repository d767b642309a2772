// Dollars for tokens as a provider bills them, at the dated prices (prices.ts): the uncached prompt, the cache reads,
// the cache writes at their lifetime's price, and the output. The one arithmetic of a bill: a response's reported
// usage (the session cost), a call's prompt in a re-run (prompt-bill.ts) and a summarizer's call (compaction-cost.ts).
import type { Usage } from '../model/types';
import { promptTokens } from '../model/usage';
import type { ModelPrice } from './prices';

/** A prompt's tokens by how they are billed, and the output; each part's tokens, none counted twice. */
export interface BilledTokens {
  uncached: number;
  read: number;
  written5m: number;
  written1h: number;
  output: number;
}

export function billedCost(t: BilledTokens, price: ModelPrice): number {
  return (t.uncached * price.input + t.read * price.cacheRead + t.written5m * price.cacheWrite5m + t.written1h * price.cacheWrite1h + t.output * price.output) / 1e6;
}

/**
 * Dollars for a response's reported usage; null without a reported prompt. Writes reported without their lifetime
 * split are priced at the 5-minute rate (Anthropic's default). A provider that bills no writes (OpenAI) reports
 * none, and its table row prices them as input anyway. Output not reported is not priced.
 */
export function usageCost(u: Usage, price: ModelPrice): number | null {
  const prompt = promptTokens(u);
  if (prompt === null) return null;
  const read = Math.max(0, Math.min(prompt, u.cacheRead ?? 0));
  const written = Math.max(0, Math.min(prompt - read, u.cacheWrite ?? 0));
  const oneHour = Math.min(written, u.cacheWrite1h ?? 0);
  return billedCost({ uncached: prompt - read - written, read, written5m: written - oneHour, written1h: oneHour, output: u.output ?? 0 }, price);
}
