// The endpoint side of the summarizer seam: sends the strategy's rendered prompt to the user's
// OpenAI-compatible endpoint and turns every outcome into a SummarizeResult. The caller falls back to the
// static marker on any `ok: false` and shows `reason`.

import type { SummarizeRequest, SummarizeResult, Summarizer } from '../compaction/summarizer';
import { SCHEMA_HEADER } from '../model/markers';
import { requestChatCompletion, type FetchLike } from './chat-completion';
import { excerpt } from './scrub';

export interface EndpointConfig {
  baseUrl: string;
  /** Held in memory by the caller; sent only as the Authorization header. */
  apiKey?: string | null;
  model: string;
  /** Default 0.2. */
  temperature?: number;
  /** Default 512. */
  maxTokens?: number;
  /** Default 25 000 ms; covers the wait for headers and the whole body. */
  timeoutMs?: number;
  /** SSE streaming, default true. */
  stream?: boolean;
  /** Output must start with `## Conversation Summary` after trimming (default true); off for prompts with another shape. */
  requireSchema?: boolean;
  /** Default 1 MiB. */
  maxResponseBytes?: number;
  fetch?: FetchLike | typeof fetch;
}

export function createEndpointSummarizer(config: EndpointConfig): Summarizer {
  const requireSchema = config.requireSchema ?? true;
  return {
    name: config.model.trim() || 'endpoint',
    async summarize(req: SummarizeRequest): Promise<SummarizeResult> {
      const r = await requestChatCompletion({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey ?? null,
        model: config.model,
        messages: req.messages,
        temperature: config.temperature,
        maxTokens: config.maxTokens,
        timeoutMs: config.timeoutMs,
        stream: config.stream ?? true,
        maxResponseBytes: config.maxResponseBytes,
        signal: req.signal,
        onText: req.onText,
        fetch: config.fetch as FetchLike | undefined,
      });
      if (!r.ok) return { ok: false, failure: r.failure, reason: r.reason };
      const text = r.text.trim();
      if (text === '') {
        const why = r.finishReason === 'length' ? ' (it stopped at max_tokens before writing any; a reasoning model may have spent them thinking)' : '';
        return { ok: false, failure: 'garbage', reason: `the endpoint returned no text${why}` };
      }
      if (requireSchema && !text.startsWith(SCHEMA_HEADER)) {
        return { ok: false, failure: 'not-schema', reason: `the output does not start with "${SCHEMA_HEADER}"; it starts with "${excerpt(text, 60)}"` };
      }
      return { ok: true, text, model: r.model ?? (config.model || null) };
    },
  };
}
