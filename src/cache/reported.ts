// What the provider reported about a call's prompt and its cache: the ground truth every verdict starts from.
import type { CallContext } from '../analysis/context-types';
import { promptTokens } from '../model/usage';
import { DEFAULT_TTL_MS, ONE_HOUR_TTL_MS, providerOf } from './provider-rules';

type UsageCall = Pick<CallContext, 'api' | 'model' | 'usage'>;

/**
 * Prompt tokens the provider reported: the whole prompt. The harness's own convention decides where the adapter
 * declared it (`promptTokens`); else the provider: OpenAI's (and DeepSeek's) input count already includes cached
 * tokens; Anthropic's — and, when the provider is unknown, by default — excludes cache reads and writes.
 */
export function reportedPromptTokens(call: UsageCall): number | null {
  const usage = call.usage;
  if (!usage || usage.input === null) return null;
  if (usage.inputIncludesCache !== undefined) return promptTokens(usage);
  const provider = providerOf(call);
  if (provider === 'openai' || provider === 'deepseek') return usage.input;
  return usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
}

/**
 * What a call left in the provider's cache for the next one, by the provider's own figures. Anthropic writes
 * cache entries up to its last breakpoint: read + write of that call. OpenAI caches the prompt it saw (the
 * prompt as reported). Null without usage.
 */
export function reportedCacheable(call: UsageCall): number | null {
  const usage = call.usage;
  if (!usage || usage.input === null) return null;
  if (providerOf(call) === 'anthropic' && (usage.cacheRead !== null || usage.cacheWrite !== null)) return (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return reportedPromptTokens(call);
}

export interface ReportedTtl {
  ttlMs: number;
  /** Where the lifetime comes from: the usage's 5m/1h split, a breakpoint's `cache_control.ttl`, or the default. */
  source: 'usage' | 'cache-control' | 'default';
}

/**
 * The lifetime of what a call wrote: 1 hour when its usage reports 1-hour writes (Claude Code writes them since
 * 2026) or a breakpoint asked for `ttl: "1h"`; 5 minutes when the usage reports only 5-minute writes; else the
 * provider default. A call that wrote nothing keeps the lifetime of what it read, so the previous call's is passed on.
 */
export function ttlOfCall(call: UsageCall, oneHourBreakpoint: boolean, inherited: ReportedTtl | null): ReportedTtl {
  const u = call.usage;
  if (u && (u.cacheWrite1h ?? 0) > 0) return { ttlMs: ONE_HOUR_TTL_MS, source: 'usage' };
  if (u && (u.cacheWrite5m ?? 0) > 0) return { ttlMs: DEFAULT_TTL_MS, source: 'usage' };
  if (oneHourBreakpoint) return { ttlMs: ONE_HOUR_TTL_MS, source: 'cache-control' };
  return inherited ?? { ttlMs: DEFAULT_TTL_MS, source: 'default' };
}
