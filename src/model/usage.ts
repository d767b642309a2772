// Reading reported usage the same way whatever the provider: the one definition of a call's whole prompt.
import type { Usage } from './types';

/**
 * Total prompt tokens of a call. The adapter says whether `input` already includes the cache (`inputIncludesCache`,
 * the harness's own convention); without that, only Anthropic-style usage reports cache writes, and there `input`
 * excludes cache reads and writes, while elsewhere `input` already includes cached tokens.
 */
export function promptTokens(u: Usage): number | null {
  if (u.input === null) return null;
  const includes = u.inputIncludesCache ?? u.cacheWrite === null;
  return includes ? u.input : u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
}
