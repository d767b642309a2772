// Endpoint client: plain-fetch calls to an OpenAI-compatible /chat/completions endpoint, and the endpoint summarizer.
export { createEndpointSummarizer, type EndpointConfig } from './endpoint-summarizer';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TEMPERATURE,
  DEFAULT_TIMEOUT_MS,
  requestBody,
  requestChatCompletion,
  type ChatFailure,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type FetchLike,
} from './chat-completion';
export { chatCompletionsUrl, type EndpointUrl } from './endpoint-url';
export { SseParser, type SseBatch, type SseEvent } from './sse';
export { REDACTED, scrubSecret } from './scrub';
