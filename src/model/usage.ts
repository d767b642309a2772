// Reading reported usage the same way whatever the provider: the one definition of a call's whole prompt.
import type { Session, Usage } from './types';

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

/** The uncached rest of the prompt: what was neither read from nor written to the cache. Null without input. */
export function uncachedTokens(u: Usage): number | null {
  const prompt = promptTokens(u);
  return prompt === null ? null : Math.max(0, prompt - (u.cacheRead ?? 0) - (u.cacheWrite ?? 0));
}

/**
 * Usage in the OpenAI shape, whose prompt already counts the cache (OpenAI, Gemini, LiteLLM for every provider):
 * `input` is the whole prompt as reported, reads and writes are parts of it.
 */
export function cacheInsideUsage(input: number | null, output: number | null, cacheRead: number | null, cacheWrite: number | null): Usage {
  return { input, output, cacheRead, cacheWrite, inputIncludesCache: true };
}

/** Usage in the Anthropic shape: `input` is the uncached rest, reads and writes come on top. */
export function cacheApartUsage(input: number | null, output: number | null, cacheRead: number | null, cacheWrite: number | null): Usage {
  return { input, output, cacheRead, cacheWrite, inputIncludesCache: false };
}

/**
 * Does the usage record a model call at all? No call reads an empty prompt: a usage of zeros throughout is what a
 * proxy to another provider writes when it passes no usage on (Claude Code through an Anthropic-compatible endpoint
 * for DeepSeek writes `{"input_tokens":0,"output_tokens":0}` on many replies), and it reports nothing.
 */
export function reportsACall(u: Usage): boolean {
  return !((u.input ?? 0) === 0 && (u.cacheRead ?? 0) === 0 && (u.cacheWrite ?? 0) === 0 && (u.output ?? 0) === 0);
}

/**
 * A session's usage as reports: every usage of zeros throughout dropped (`reportsACall`), so no reader, whatever its
 * format, takes one for a call that read nothing. Each reader may drop them too; this is the one rule all share.
 */
export function dropEmptyUsage(s: Session): void {
  const clear = <T extends { usage: Usage | null }>(xs: readonly T[] | undefined) => {
    for (const x of xs ?? []) if (x.usage && !reportsACall(x.usage)) x.usage = null;
  };
  clear(s.responses);
  clear(s.requests);
  for (const sc of s.sidechains) clear(sc.responses);
  if (s.offBranch) s.offBranch = s.offBranch.filter((r) => reportsACall(r.usage));
}
