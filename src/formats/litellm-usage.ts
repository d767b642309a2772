// LiteLLM's usage, the one conversion every LiteLLM-based harness shares (request and completion logs,
// mini-swe-agent, OpenHands V0 and the OpenHands SDK). LiteLLM returns the OpenAI shape for every provider: its
// `prompt_tokens` already counts the cache. For Anthropic models `calculate_usage`
// (litellm/llms/anthropic/chat/transformation.py) adds `cache_read_input_tokens` and `cache_creation_input_tokens`
// into `prompt_tokens` and keeps both beside it, so reads and writes are parts of the prompt, never added again.
import { get, isObject, num, numAt, type JsonObject } from '../model/narrow';
import type { Usage } from '../model/types';
import { cacheInsideUsage, reportsACall } from '../model/usage';

/**
 * The prompt, completion, cache read and cache write LiteLLM reported for one call. Some LiteLLM releases of 2025
 * added only the reads into `prompt_tokens`: a prompt smaller than its own reads and writes cannot hold the writes,
 * so they are added to make the whole prompt.
 */
export function litellmUsage(prompt: number | null, completion: number | null, read: number | null, write: number | null): Usage {
  const holdsWrites = prompt === null || !write || prompt >= (read ?? 0) + write;
  return cacheInsideUsage(holdsWrites ? prompt : prompt + write, completion, read, write);
}

/**
 * Chat Completions usage (`prompt_tokens`, `completion_tokens`, `prompt_tokens_details.cached_tokens`), as OpenAI,
 * LiteLLM and OpenAI-compatible servers write it: writes from Anthropic's `cache_creation_input_tokens` (LiteLLM)
 * or `prompt_tokens_details.cache_write_tokens` (OpenRouter), reads from DeepSeek's `prompt_cache_hit_tokens` too.
 */
export function chatUsage(u: unknown): Usage | null {
  if (!isObject(u)) return null;
  const prompt = num(u, 'prompt_tokens') ?? null;
  const completion = num(u, 'completion_tokens') ?? null;
  if (prompt === null && completion === null) return null;
  const read = numAt(u, 'prompt_tokens_details.cached_tokens') ?? num(u, 'cache_read_input_tokens') ?? num(u, 'prompt_cache_hit_tokens') ?? null;
  const write = num(u, 'cache_creation_input_tokens') ?? numAt(u, 'prompt_tokens_details.cache_write_tokens');
  const usage = litellmUsage(prompt, completion, read, write ?? null);
  return reportsACall(usage) ? usage : null;
}

/**
 * One entry of OpenHands' `Metrics.token_usages` (`prompt_tokens`, `completion_tokens`, `cache_read_tokens`,
 * `cache_write_tokens`, `context_window`, `response_id`), as OpenHands V0 writes it in an event's `llm_metrics` and
 * the SDK in `base_state.json` and benchmark outputs. Its figures are LiteLLM's.
 */
export function tokenUsageRecord(u: JsonObject): Usage {
  const usage = litellmUsage(num(u, 'prompt_tokens') ?? null, num(u, 'completion_tokens') ?? null, num(u, 'cache_read_tokens') ?? null, num(u, 'cache_write_tokens') ?? null);
  const window = num(u, 'context_window');
  if (window) usage.contextWindow = window;
  return usage;
}

/** Usage of a LiteLLM response object (`{usage: …}`), or null. */
export function responseUsage(response: unknown): Usage | null {
  return chatUsage(isObject(response) ? get(response, 'usage') : undefined);
}
