// What the cache prefix analysis says about one call: the content prediction (prefix.ts) and the verdict from
// the provider's reported figures (forensics.ts). Its own file, so both read it and neither reads the other's.
import type { CacheBreakCause } from './cause';
import type { Divergence } from './divergence';
import type { ProviderRule } from './provider-rules';
import type { ReportedTtl } from './reported';

export interface ReportedVerdict {
  /** The whole prompt as reported (Anthropic: input + cache read + cache write; OpenAI: input); null without usage. */
  reportedPrompt: number | null;
  /** What the previous call left in the provider's cache by its own figures; null without them. */
  previousCacheable: number | null;
  /** The reported cache read fell short of `previousCacheable` by more than the provider's granularity; null without figures. */
  reportedMiss: boolean | null;
  /** `full` when the provider served (almost) nothing, `partial` when it served some; null without a reported miss. */
  missKind: 'partial' | 'full' | null;
  /** Tokens of the previous prompt the provider processed again instead of reading from cache; null when unknown. */
  missTokens: number | null;
  /** Dollars those tokens cost against a hit, by the dated price table; null for an unknown model or no miss figure. */
  missCostUsd: number | null;
  /** The provider's own cache diagnostic for this call, when the log carries one. */
  diagnostic: string | null;
  /**
   * Tokens of the unrecorded prefix (system prompt, tool schemas; `unseenPrefixTokens`) the provider did not read
   * from its cache although the previous call had left it cacheable: the reported read stops short of that prefix by
   * more than the estimate's margin, so part of it changed at this call (or no breakpoint covered it) and was
   * processed again. Null when the file records the whole prompt, figures are missing, nothing was read, or the read
   * reaches the prefix.
   */
  unrecordedNotRead: number | null;
}

export interface CacheReport extends ReportedVerdict {
  /** `call.index` (0-based). */
  index: number;
  /** 1-based call number, as the app and the CLI show it. */
  call: number;
  /** `call.id`. */
  callId: string;
  rule: ProviderRule;
  /** Tokens of the longest common prefix with the previous call, unrounded (0 for the first call). */
  prefixTokens: number;
  /**
   * Tokens of the previous call's own output that this call repeats right after the shared prompt.
   * OpenAI and vLLM keep the KV cache of generated tokens, so these count towards `cachedPredicted`
   * under those rules; 0 for the others, and whenever the previous prompt was not fully shared.
   */
  outputReusedTokens: number;
  /** `prefixTokens` (+ `outputReusedTokens`) as the provider would serve it from cache; 0 on TTL expiry or a model switch. */
  cachedPredicted: number;
  /** `usage.cacheRead` as reported, null when the call has no usage or no cache figure. */
  reportedCacheRead: number | null;
  /** Tokens of this call's prompt: counted items and tool schemas, plus (when unrecorded) this call's own unseen estimate. */
  contextTokens: number;
  /** The previous call's counted tokens plus the shared unseen prefix, null for the first call. */
  previousContextTokens: number | null;
  /** Tokens of the previous prompt this call could not reuse: previousContextTokens − prefixTokens. */
  lostTokens: number;
  /** True when the format did not record part of the prompt (system prompt, tool schemas). */
  prefixUnrecorded: boolean;
  /**
   * Estimated tokens of that unrecorded prefix (reported prompt tokens − counted tokens, ≥ 0; the smaller
   * of this call's and the previous call's estimate), counted in both calls' prefix since it is the same
   * in each. 0 when nothing is unrecorded; null when it is but no usage allows an estimate.
   */
  unseenPrefixTokens: number | null;
  /** Leading items (and tool schemas) identical to the previous call's. */
  sharedItems: number;
  /**
   * The content analysis alone says the cache cannot serve the previous prompt: something before its end changed
   * (losing at least `minBreakTokens`), the TTL ran out, or the model changed.
   */
  predictedBreak: boolean;
  /** A cache break by either side: the prediction, or a miss the provider reported (forensics.ts). */
  cacheBreak: boolean;
  /** Why the cache did not serve the previous prompt, from the evidence (most specific first); null when it held. */
  cause: CacheBreakCause | null;
  /** Time since the previous call exceeds the TTL: nothing is cached even with an identical prefix. */
  ttlExpired: boolean;
  /** Milliseconds since the previous call, null when a timestamp is missing. */
  gapMs: number | null;
  /** The cache lifetime used: from the previous call's reported 5m/1h writes, its breakpoints, or the default. */
  ttlMs: number;
  ttlSource: ReportedTtl['source'];
  /** The model differs from the previous call's: caches are per model, so nothing is served. */
  modelChanged: boolean;
  /** First divergence from the previous prompt; null when the previous prompt is a prefix of this one. */
  divergence: Divergence | null;
}
