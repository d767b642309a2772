// One call to an OpenAI-compatible /chat/completions endpoint with plain fetch: JSON or SSE, a deadline that
// covers both the headers and the body, a byte cap, the caller's cancel, and every failure returned as a value.
// Nothing here throws, logs, or puts the key anywhere but the Authorization header.

import type { SummarizeFailure } from '../compaction/summarizer';
import { anySignal, whenAborted } from './abort';
import { completionBody, errorMessage, streamChunk } from './completion-json';
import { chatCompletionsUrl } from './endpoint-url';
import { causeCode, nodeNetworkReason, probedReason } from './fetch-error';
import { readBody, type ReadOutcome } from './read-body';
import { excerpt, scrubSecret } from './scrub';
import { SseParser, type SseBatch } from './sse';

export const DEFAULT_TEMPERATURE = 0.2;
export const DEFAULT_MAX_TOKENS = 512;
export const DEFAULT_TIMEOUT_MS = 25_000;
/** A summary of 512 tokens is a few kilobytes even as SSE; 1 MiB is generous and still stops a runaway body. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1 << 20;
/** How much of an error body is read for its excerpt. */
const ERROR_BODY_BYTES = 16 << 10;
/** The browser's CORS-or-network probe gets at most this long (and never more than the request's own deadline). */
const PROBE_MS = 3_000;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatRequest {
  /** Base URL; see chatCompletionsUrl for the rule that turns it into the request URL. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when non-empty after trimming; nowhere else. */
  apiKey?: string | null;
  model: string;
  messages: readonly ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  /** SSE streaming (default true). */
  stream?: boolean;
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /** Called with the whole text so far as deltas arrive (and once with the full text on the JSON path). Errors it throws are ignored. */
  onText?(textSoFar: string): void;
  /** Injectable for tests and for the app's own defaults; the global fetch otherwise. */
  fetch?: FetchLike;
}

export type ChatFailure = Exclude<SummarizeFailure, 'not-schema'>;

export type ChatResult =
  | { ok: true; text: string; model: string | null; finishReason: string | null }
  | { ok: false; failure: ChatFailure; reason: string; status?: number };

type Phase = 'headers' | 'body';

function finite(v: number | undefined, fallback: number, min: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fallback;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${Number((n / (1 << 20)).toFixed(1))} MB` : `${Math.round(n / 1024)} KB`;
}

/** The request body; exported so tests and the UI's "show request" can see exactly what is sent. */
export function requestBody(req: ChatRequest): Record<string, unknown> {
  return {
    model: req.model,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: finite(req.temperature, DEFAULT_TEMPERATURE, 0),
    max_tokens: Math.floor(finite(req.maxTokens, DEFAULT_MAX_TOKENS, 1)),
    stream: req.stream ?? true,
  };
}

const ABORTED = Symbol('aborted');

/** Header values must be visible ASCII; anything else makes fetch throw a TypeError indistinguishable from a network error. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

export async function requestChatCompletion(req: ChatRequest): Promise<ChatResult> {
  const key = (req.apiKey ?? '').trim();
  const result = await run(req, key);
  return result.ok ? result : { ...result, reason: scrubSecret(result.reason, key) };
}

async function run(req: ChatRequest, key: string): Promise<ChatResult> {
  const target = chatCompletionsUrl(req.baseUrl);
  if (!target.ok) return { ok: false, failure: 'network', reason: target.reason };
  if (key !== '' && !HEADER_SAFE.test(key)) {
    return { ok: false, failure: 'network', reason: 'the API key contains spaces or characters that cannot be sent in a header' };
  }
  if (req.signal?.aborted) return { ok: false, failure: 'cancelled', reason: 'cancelled before the request was sent' };

  const fetchFn: FetchLike = req.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = finite(req.timeoutMs, DEFAULT_TIMEOUT_MS, 1);
  const maxBytes = finite(req.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 1);
  const shown = target.shown;

  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    if (!req.signal?.aborted) timedOut = true;
    deadline.abort();
  }, timeoutMs);
  const combined = anySignal(req.signal ? [req.signal, deadline.signal] : [deadline.signal]);
  const signal = combined.signal;
  let phase: Phase = 'headers';
  const aborted = (): ChatResult =>
    timedOut
      ? {
          ok: false,
          failure: 'timeout',
          reason:
            phase === 'headers'
              ? `no response from ${shown} within ${formatDuration(timeoutMs)} (the response headers never arrived)`
              : `the response from ${shown} did not finish within ${formatDuration(timeoutMs)} (it stalled mid-body)`,
        }
      : { ok: false, failure: 'cancelled', reason: 'cancelled' };

  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== '') headers.Authorization = `Bearer ${key}`;
  // Only the two headers above: anything else (X-Title, User-Agent overrides, SDK telemetry) would fail a
  // local server's CORS preflight. No cookies, no referrer; redirects are reported, not followed, so the
  // request never lands on an origin the user did not configure.
  const init: RequestInit = {
    method: 'POST',
    headers,
    body: JSON.stringify(requestBody(req)),
    signal,
    mode: 'cors',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    redirect: 'manual',
  };

  const onAbort = whenAborted(signal, ABORTED);
  try {
    let res: Response;
    try {
      res = await Promise.race([fetchFn(target.url, init), onAbort.promise]);
    } catch (e) {
      if (e === ABORTED || signal.aborted) return aborted();
      return await classifyRejection(e, fetchFn, target.url, shown, signal, () => (req.signal?.aborted ? aborted() : null));
    }
    phase = 'body';
    return await handleResponse(res, { req, shown, signal, maxBytes, aborted });
  } catch (e) {
    // Only a bug in this module could get here; the seam promises a value, never a throw.
    if (signal.aborted) return aborted();
    return { ok: false, failure: 'garbage', reason: `unexpected client error: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    clearTimeout(timer);
    onAbort.dispose();
    combined.dispose();
  }
}

async function classifyRejection(
  e: unknown,
  fetchFn: FetchLike,
  url: string,
  shown: string,
  signal: AbortSignal,
  cancelled: () => ChatResult | null,
): Promise<ChatResult> {
  const code = causeCode(e);
  if (code) return { ok: false, failure: 'network', reason: nodeNetworkReason(shown, code) };
  let answered = false;
  const probeSignal = anySignal([signal, timeoutSignal(PROBE_MS)]);
  try {
    // No `redirect` option: browsers refuse a no-cors request whose redirect mode isn't 'follow' without sending it.
    // So a redirect on the probe is followed; the app's CSP connect-src keeps that hop on the configured endpoint.
    const probe = fetchFn(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer', signal: probeSignal.signal });
    const abort = whenAborted(probeSignal.signal, ABORTED);
    try {
      const res = await Promise.race([probe, abort.promise]);
      answered = true;
      res.body?.cancel().catch(() => {});
    } finally {
      abort.dispose();
    }
  } catch {
    answered = false;
  } finally {
    probeSignal.dispose();
  }
  const c = cancelled();
  if (c) return c;
  return { ok: false, ...probedReason(shown, answered, e) };
}

function timeoutSignal(ms: number): AbortSignal {
  const ctrl = new AbortController();
  const t = setTimeout(() => ctrl.abort(), ms);
  // A Node timer must not keep a process alive for a probe nobody waits on any more.
  (t as { unref?: () => void }).unref?.();
  return ctrl.signal;
}

interface Ctx {
  req: ChatRequest;
  shown: string;
  signal: AbortSignal;
  maxBytes: number;
  aborted(): ChatResult;
}

function notify(req: ChatRequest, text: string): void {
  try {
    req.onText?.(text);
  } catch {
    // A faulty view callback must not turn a good answer into a failure.
  }
}

function readFailure(out: Exclude<ReadOutcome, { ok: true }>, ctx: Ctx): ChatResult {
  if (out.why === 'aborted') return ctx.aborted();
  if (out.why === 'too-large') {
    return { ok: false, failure: 'garbage', reason: `the response from ${ctx.shown} is larger than ${formatBytes(ctx.maxBytes)}; stopped reading` };
  }
  return { ok: false, failure: 'network', reason: `the connection to ${ctx.shown} broke while reading the response (${out.detail})` };
}

async function handleResponse(res: Response, ctx: Ctx): Promise<ChatResult> {
  const { shown } = ctx;
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    res.body?.cancel().catch(() => {});
    const status = res.status || 302;
    return { ok: false, failure: 'http', status, reason: `${shown} redirects elsewhere (HTTP ${res.status || '3xx'}); redirects are not followed — use the final URL as the base URL` };
  }
  if (!res.ok) return httpFailure(res, ctx);

  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > ctx.maxBytes) {
    res.body?.cancel().catch(() => {});
    return { ok: false, failure: 'garbage', reason: `the response from ${shown} announces ${formatBytes(declared)}, more than the ${formatBytes(ctx.maxBytes)} limit; not read` };
  }
  if (!res.body) return { ok: false, failure: 'garbage', reason: `${shown} sent an empty response` };

  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  const sse = type.includes('text/event-stream') || (!type.includes('json') && (ctx.req.stream ?? true));
  return sse ? readStream(res.body, type, ctx) : readJson(res.body, type, ctx);
}

async function httpFailure(res: Response, ctx: Ctx): Promise<ChatResult> {
  let text = '';
  if (res.body) {
    const out = await readBody(res.body, {
      maxBytes: Number.POSITIVE_INFINITY,
      signal: ctx.signal,
      onText: (t) => {
        text += t;
        return text.length >= ERROR_BODY_BYTES;
      },
    });
    if (!out.ok && out.why === 'aborted') return ctx.aborted();
  }
  let detail = text;
  try {
    detail = errorMessage(JSON.parse(text)) ?? text;
  } catch {
    // Not JSON: the raw text is the detail.
  }
  const hint =
    res.status === 401 || res.status === 403
      ? ' (check the API key)'
      : res.status === 404
        ? ' (check the base URL and the model name)'
        : res.status === 429
          ? ' (rate limited or out of quota)'
          : '';
  const shownDetail = excerpt(detail);
  const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  return { ok: false, failure: 'http', status: res.status, reason: `${status} from ${ctx.shown}${shownDetail ? `: ${shownDetail}` : ''}${hint}` };
}

async function readJson(body: ReadableStream<Uint8Array>, type: string, ctx: Ctx): Promise<ChatResult> {
  const parts: string[] = [];
  const out = await readBody(body, { maxBytes: ctx.maxBytes, signal: ctx.signal, onText: (t) => void parts.push(t) });
  if (!out.ok) return readFailure(out, ctx);
  const text = parts.join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'an empty body' : `not JSON (${type || 'no content type'}): ${excerpt(text, 120)}`;
    return { ok: false, failure: 'garbage', reason: `the response from ${ctx.shown} is ${what}` };
  }
  const err = errorMessage(json);
  if (err !== null) return { ok: false, failure: 'http', reason: `${ctx.shown} answered with an error: ${excerpt(err)}` };
  const c = completionBody(json);
  if (!c.ok) return { ok: false, failure: 'garbage', reason: `the response from ${ctx.shown} is not a chat completion (no ${c.missing})` };
  notify(ctx.req, c.text);
  return { ok: true, text: c.text, model: c.model, finishReason: c.finishReason };
}

async function readStream(body: ReadableStream<Uint8Array>, type: string, ctx: Ctx): Promise<ChatResult> {
  const parser = new SseParser();
  let text = '';
  let model: string | null = null;
  let finishReason: string | null = null;
  let done = false;
  let events = 0;
  let failed: ChatResult | null = null;
  const notSse = type.includes('text/event-stream') ? '' : `expected an event stream, got ${type || 'no content type'}: `;

  const take = (batch: SseBatch): void => {
    for (const ev of batch.events) {
      if (done || failed) return;
      events++;
      if (ev.event === 'error') {
        failed = { ok: false, failure: 'http', reason: `${ctx.shown} reported an error mid-stream: ${excerpt(streamError(ev.data))}` };
        return;
      }
      if (ev.data.trim() === '[DONE]') {
        done = true;
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(ev.data);
      } catch {
        failed = { ok: false, failure: 'garbage', reason: `${notSse}the stream from ${ctx.shown} carried data that is not JSON: ${excerpt(ev.data, 120)}` };
        return;
      }
      const err = errorMessage(json);
      if (err !== null) {
        failed = { ok: false, failure: 'http', reason: `${ctx.shown} reported an error mid-stream: ${excerpt(err)}` };
        return;
      }
      const chunk = streamChunk(json);
      if (!chunk.ok) {
        failed = { ok: false, failure: 'garbage', reason: `a stream chunk from ${ctx.shown} is not a chat completion chunk (no ${chunk.missing})` };
        return;
      }
      model = chunk.model ?? model;
      finishReason = chunk.finishReason ?? finishReason;
      if (chunk.delta !== '') {
        text += chunk.delta;
        notify(ctx.req, text);
      }
    }
    if (batch.error && !failed && !done) failed = { ok: false, failure: 'garbage', reason: `${notSse}${batch.error} (from ${ctx.shown})` };
  };

  const out = await readBody(body, {
    maxBytes: ctx.maxBytes,
    signal: ctx.signal,
    onText: (t) => {
      take(parser.push(t));
      return done || failed !== null;
    },
  });
  if (failed) return failed;
  if (done) return { ok: true, text, model, finishReason };
  if (!out.ok) return readFailure(out, ctx);
  const last = parser.end();
  take(last);
  if (failed) return failed;
  if (done) return { ok: true, text, model, finishReason };
  // Lenient on one point: a stream that reported a finish_reason is complete even if a proxy dropped [DONE].
  if (finishReason !== null && !last.incomplete) return { ok: true, text, model, finishReason };
  if (events === 0 && text === '') {
    return { ok: false, failure: 'garbage', reason: `${notSse}the stream from ${ctx.shown} ended without a single event` };
  }
  return { ok: false, failure: 'garbage', reason: `the stream from ${ctx.shown} was cut off before [DONE] (after ${text.length} characters)` };
}

function streamError(data: string): string {
  try {
    return errorMessage(JSON.parse(data)) ?? data;
  } catch {
    return data;
  }
}
