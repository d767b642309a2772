// What one response cost as the provider reported its usage, at the dated prices (prices.ts): the uncached prompt,
// the cache reads, the cache writes at their lifetime's price, and the output.
import type { Usage } from '../model/types';
import { promptTokens } from '../model/usage';
import type { ModelPrice } from './prices';

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
  const uncached = prompt - read - written;
  return (uncached * price.input + read * price.cacheRead + (written - oneHour) * price.cacheWrite5m + oneHour * price.cacheWrite1h + (u.output ?? 0) * price.output) / 1e6;
}
