// Reads the parts of OpenAI-compatible chat completion bodies the client needs, from untrusted JSON.

import { arr, get, isObject, obj, str, type JsonObject } from '../model/narrow';

/** `{"error": {"message": …}}` or `{"error": "…"}`, as OpenAI, vLLM, Ollama and llama.cpp send on failures. */
export function errorMessage(body: unknown): string | null {
  if (!isObject(body)) return null;
  const e = get(body, 'error');
  if (typeof e === 'string') return e;
  if (isObject(e)) return str(e, 'message') ?? str(e, 'type') ?? 'unspecified error';
  return null;
}

function firstChoice(body: JsonObject): JsonObject | undefined {
  const choices = arr(body, 'choices');
  const first: unknown = choices?.[0];
  return isObject(first) ? first : undefined;
}

/** Content as a string, or as an array of `{type:'text', text}` parts (some servers answer that way). */
function contentText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return null;
  let out = '';
  for (const part of v) if (isObject(part)) out += str(part, 'text') ?? '';
  return out;
}

export type CompletionBody =
  | { ok: true; text: string; model: string | null; finishReason: string | null }
  | { ok: false; missing: string };

/** A non-streamed completion: `choices[0].message.content`. A null content (refusal, tool call) counts as ''. */
export function completionBody(body: unknown): CompletionBody {
  if (!isObject(body)) return { ok: false, missing: 'a JSON object' };
  const choice = firstChoice(body);
  if (!choice) return { ok: false, missing: 'choices[0]' };
  const message = obj(choice, 'message');
  if (!message) return { ok: false, missing: 'choices[0].message' };
  const content = get(message, 'content');
  const text = content === null || content === undefined ? '' : contentText(content);
  if (text === null) return { ok: false, missing: 'choices[0].message.content as text' };
  return { ok: true, text, model: str(body, 'model') ?? null, finishReason: str(choice, 'finish_reason') ?? null };
}

export type StreamChunk =
  | { ok: true; delta: string; model: string | null; finishReason: string | null }
  | { ok: false; missing: string };

/** One streamed chunk: `choices[0].delta.content`. Chunks with no choices (a final usage chunk) carry no text. */
export function streamChunk(body: unknown): StreamChunk {
  if (!isObject(body)) return { ok: false, missing: 'a JSON object' };
  const model = str(body, 'model') ?? null;
  const choices = get(body, 'choices');
  if (choices === undefined || (Array.isArray(choices) && choices.length === 0)) return { ok: true, delta: '', model, finishReason: null };
  const choice = firstChoice(body);
  if (!choice) return { ok: false, missing: 'choices[0]' };
  const delta = obj(choice, 'delta') ?? obj(choice, 'message');
  const content = delta ? get(delta, 'content') : undefined;
  const text = content === null || content === undefined ? '' : contentText(content);
  if (text === null) return { ok: false, missing: 'choices[0].delta.content as text' };
  return { ok: true, delta: text, model, finishReason: str(choice, 'finish_reason') ?? null };
}
