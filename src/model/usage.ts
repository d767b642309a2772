// Reading reported usage the same way whatever the provider.
import type { Usage } from './types';

/**
 * Total prompt tokens of a call. Only Anthropic-style usage reports cache writes, and there
 * `input` excludes cache reads and writes; elsewhere `input` already includes cached tokens.
 */
export function promptTokens(u: Usage): number | null {
  if (u.input === null) return null;
  if (u.cacheWrite !== null) return u.input + (u.cacheRead ?? 0) + u.cacheWrite;
  return u.input;
}
