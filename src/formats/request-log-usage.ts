// Usage of a logged response, in whichever of the three wire shapes the response used.
import { get, isObject } from '../model/narrow';
import type { RecordedRequest, Usage } from '../model/types';
import { anthropicUsage } from './anthropic';
import { chatUsage } from './litellm-usage';
import { responsesUsage } from './openai-responses';

/** Reads usage by its field names; the request's API only breaks the tie for bare `input_tokens`. */
export function usageOfAnyApi(u: unknown, api: RecordedRequest['api']): Usage | null {
  if (!isObject(u)) return null;
  if (get(u, 'prompt_tokens') !== undefined || get(u, 'completion_tokens') !== undefined) return chatUsage(u);
  if (get(u, 'cache_read_input_tokens') !== undefined || get(u, 'cache_creation_input_tokens') !== undefined) return anthropicUsage(u);
  if (get(u, 'input_tokens_details') !== undefined) return responsesUsage(u);
  return api === 'anthropic' ? anthropicUsage(u) : responsesUsage(u);
}
