// Fake-fetch tests: Response objects with ReadableStream bodies, no network. The shapes imitate what
// OpenAI, vLLM, Ollama and llama.cpp send for /v1/chat/completions (JSON and `stream: true` SSE).
import { describe, expect, it } from 'vitest';
import { requestBody, requestChatCompletion, type ChatRequest, type ChatResult, type FetchLike } from './chat-completion';

const KEY = 'sk-test-0123456789abcdef';
const enc = new TextEncoder();

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records its calls and answers with `answer(call, index)`. */
function fakeFetch(answer: (call: Call, index: number) => Promise<Response> | Response): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      const call = { url, init };
      calls.push(call);
      return answer(call, calls.length - 1);
    },
  };
}

interface Body {
  stream: ReadableStream<Uint8Array>;
  /** True once the client cancelled the body (it stopped reading). */
  cancelled(): boolean;
  /** How many chunks the client pulled. */
  pulled(): number;
}

/** A body that yields `chunks` one per pull, then ends, stalls forever, or fails, as asked. */
function body(chunks: (string | Uint8Array)[], then: 'end' | 'stall' | Error = 'end'): Body {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) {
        const next = chunks[i++]!;
        c.enqueue(typeof next === 'string' ? enc.encode(next) : next);
        return;
      }
      if (then === 'end') return c.close();
      if (then === 'stall') return new Promise<void>(() => {});
      c.error(then);
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, cancelled: () => cancelled, pulled: () => i };
}

function sse(b: Body, headers: Record<string, string> = { 'content-type': 'text/event-stream' }): Response {
  return new Response(b.stream, { status: 200, headers });
}

const delta = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm-1', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const completion = (content: string | null) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'm-1', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const SUMMARY = '## Conversation Summary\n- **Decisions:** use db-prod-1:5432 — café 🙂';
const STREAM = `: hi\n\n${delta('## Conversation ')}${delta('Summary\n- **Decisions:** use db-prod-1:5432')}${delta(' — café 🙂')}${delta('', 'stop')}data: [DONE]\n\n`;

function req(fetch: FetchLike, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY, model: 'm-1', messages: [{ role: 'user', content: 'hi' }], fetch, ...extra };
}

function failure(r: ChatResult): { failure: string; reason: string } {
  expect(r.ok).toBe(false);
  return r.ok ? { failure: 'none', reason: '' } : { failure: r.failure, reason: r.reason };
}

describe('requestChatCompletion', () => {
  it('posts the OpenAI body with only Content-Type and Authorization, no cookies, no referrer, no followed redirects', async () => {
    const f = fakeFetch(() => sse(body([STREAM])));
    await requestChatCompletion(req(f.fetch, { temperature: 0.7, maxTokens: 300 }));
    expect(f.calls).toHaveLength(1);
    const { url, init } = f.calls[0]!;
    expect(url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` });
    expect(init.credentials).toBe('omit');
    expect(init.referrerPolicy).toBe('no-referrer');
    expect(init.redirect).toBe('manual');
    expect(init.mode).toBe('cors');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(JSON.parse(String(init.body))).toEqual({ model: 'm-1', messages: [{ role: 'user', content: 'hi' }], temperature: 0.7, max_tokens: 300, stream: true });
  });

  it('defaults to temperature 0.2, max_tokens 512 and streaming', () => {
    expect(requestBody({ baseUrl: 'x', model: 'm', messages: [] })).toEqual({ model: 'm', messages: [], temperature: 0.2, max_tokens: 512, stream: true });
    expect(requestBody({ baseUrl: 'x', model: 'm', messages: [], temperature: Number.NaN, maxTokens: -3, stream: false })).toEqual({ model: 'm', messages: [], temperature: 0.2, max_tokens: 512, stream: false });
  });

  it('sends no Authorization header without a key, and trims a pasted key', async () => {
    const f = fakeFetch(() => sse(body([STREAM])));
    await requestChatCompletion(req(f.fetch, { apiKey: '   ' }));
    await requestChatCompletion(req(f.fetch, { apiKey: ` ${KEY}\n` }));
    expect(f.calls[0]!.init.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(f.calls[1]!.init.headers).toEqual({ 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` });
  });

  it('streams SSE deltas to onText as the text so far and returns the whole text', async () => {
    const seen: string[] = [];
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([STREAM]))).fetch, { onText: (t) => seen.push(t) }));
    expect(r).toEqual({ ok: true, text: SUMMARY, model: 'm-1', finishReason: 'stop' });
    expect(seen).toEqual(['## Conversation ', '## Conversation Summary\n- **Decisions:** use db-prod-1:5432', SUMMARY]);
  });

  it('gets the same text wherever the byte stream is split, inside a UTF-8 sequence or a CRLF included', async () => {
    const bytes = enc.encode(STREAM.replaceAll('\n', '\r\n'));
    for (let i = 0; i <= bytes.length; i++) {
      const r = await requestChatCompletion(req(fakeFetch(() => sse(body([bytes.slice(0, i), bytes.slice(i)]))).fetch));
      expect(r).toEqual({ ok: true, text: SUMMARY, model: 'm-1', finishReason: 'stop' });
    }
  });

  it('stops reading at [DONE] and releases the rest of the body', async () => {
    const b = body([`${delta('## Conversation Summary')}data: [DONE]\n\n`, 'data: never read\n\n'], 'stall');
    const r = await requestChatCompletion(req(fakeFetch(() => sse(b)).fetch));
    expect(r).toEqual({ ok: true, text: '## Conversation Summary', model: 'm-1', finishReason: null });
    expect(b.pulled()).toBe(1);
    expect(b.cancelled()).toBe(true);
  });

  it('accepts a stream that reported finish_reason but lost [DONE]', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([delta('## Conversation Summary', 'stop')]))).fetch));
    expect(r).toEqual({ ok: true, text: '## Conversation Summary', model: 'm-1', finishReason: 'stop' });
  });

  it('fails as garbage when the stream is cut off before [DONE]', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([delta('## Conversation '), 'data: {"choices":[{"delta":{"con']))).fetch));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'the stream from http://127.0.0.1:9/v1/chat/completions was cut off before [DONE] (after 16 characters)' });
  });

  it('fails as garbage on invalid SSE framing', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([delta('## C'), 'dta: {"x":1}\n\n']))).fetch));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'invalid SSE framing: unexpected line "dta: {\\"x\\":1}" (from http://127.0.0.1:9/v1/chat/completions)' });
  });

  it('fails as garbage when an event carries data that is not JSON', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body(['data: hello world\n\n']))).fetch));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'the stream from http://127.0.0.1:9/v1/chat/completions carried data that is not JSON: hello world' });
  });

  it('fails as garbage when a streamed request gets an HTML page, naming the content type', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body(['<!doctype html>\n<p>502</p>']), { 'content-type': 'text/html' })).fetch));
    expect(failure(r)).toEqual({
      failure: 'garbage',
      reason: 'expected an event stream, got text/html: invalid SSE framing: unexpected line "<!doctype html>" (from http://127.0.0.1:9/v1/chat/completions)',
    });
  });

  it('fails as garbage on an empty event stream', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([]))).fetch));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'the stream from http://127.0.0.1:9/v1/chat/completions ended without a single event' });
  });

  it('reports an error object sent mid-stream as an http failure', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([delta('## C'), 'data: {"error":{"message":"overloaded"}}\n\n']))).fetch));
    expect(failure(r)).toEqual({ failure: 'http', reason: 'http://127.0.0.1:9/v1/chat/completions reported an error mid-stream: overloaded' });
  });

  it('reads a JSON completion when the server ignores stream: true', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => new Response(completion(SUMMARY), { headers: { 'content-type': 'application/json' } })).fetch));
    expect(r).toEqual({ ok: true, text: SUMMARY, model: 'm-1', finishReason: 'stop' });
  });

  it('reads a JSON completion and reports its text once to onText', async () => {
    const seen: string[] = [];
    const f = fakeFetch(() => new Response(body([completion(SUMMARY).slice(0, 30), completion(SUMMARY).slice(30)]).stream, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
    const r = await requestChatCompletion(req(f.fetch, { stream: false, onText: (t) => seen.push(t) }));
    expect(r).toEqual({ ok: true, text: SUMMARY, model: 'm-1', finishReason: 'stop' });
    expect(seen).toEqual([SUMMARY]);
    expect(JSON.parse(String(f.calls[0]!.init.body)).stream).toBe(false);
  });

  it('reads content given as text parts, and a null content as empty text', async () => {
    const parts = JSON.stringify({ choices: [{ message: { content: [{ type: 'text', text: '## Conversation ' }, { type: 'text', text: 'Summary' }] } }] });
    const r1 = await requestChatCompletion(req(fakeFetch(() => new Response(parts, { headers: { 'content-type': 'application/json' } })).fetch, { stream: false }));
    expect(r1).toEqual({ ok: true, text: '## Conversation Summary', model: null, finishReason: null });
    const r2 = await requestChatCompletion(req(fakeFetch(() => new Response(completion(null), { headers: { 'content-type': 'application/json' } })).fetch, { stream: false }));
    expect(r2).toEqual({ ok: true, text: '', model: 'm-1', finishReason: 'stop' });
  });

  it('fails as garbage on a body that is not JSON, or JSON that is not a completion', async () => {
    const html = await requestChatCompletion(req(fakeFetch(() => new Response('<html>oops</html>', { headers: { 'content-type': 'application/json' } })).fetch, { stream: false }));
    expect(failure(html)).toEqual({ failure: 'garbage', reason: 'the response from http://127.0.0.1:9/v1/chat/completions is not JSON (application/json): <html>oops</html>' });
    const other = await requestChatCompletion(req(fakeFetch(() => new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } })).fetch, { stream: false }));
    expect(failure(other)).toEqual({ failure: 'garbage', reason: 'the response from http://127.0.0.1:9/v1/chat/completions is not a chat completion (no choices[0])' });
    const empty = await requestChatCompletion(req(fakeFetch(() => new Response('', { headers: { 'content-type': 'application/json' } })).fetch, { stream: false }));
    expect(failure(empty)).toEqual({ failure: 'garbage', reason: 'the response from http://127.0.0.1:9/v1/chat/completions is an empty body' });
  });

  it('reports an HTTP error with status, a short excerpt of the error message and a hint', async () => {
    const r = await requestChatCompletion(
      req(fakeFetch(() => new Response(JSON.stringify({ error: { message: `model "m-1" not found\n${'x'.repeat(400)}` } }), { status: 404, statusText: 'Not Found' })).fetch),
    );
    expect(r).toEqual({
      ok: false,
      failure: 'http',
      status: 404,
      reason: `HTTP 404 Not Found from http://127.0.0.1:9/v1/chat/completions: model "m-1" not found ${'x'.repeat(178)}… (check the base URL and the model name)`,
    });
  });

  it('reports a 500 with a plain-text body', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => new Response('upstream died', { status: 500 })).fetch));
    expect(r).toEqual({ ok: false, failure: 'http', status: 500, reason: 'HTTP 500 from http://127.0.0.1:9/v1/chat/completions: upstream died' });
  });

  it('never puts the key into a failure reason, even when the server echoes it', async () => {
    const echo = fakeFetch((call) => new Response(JSON.stringify({ error: { message: `bad key: ${String((call.init.headers as Record<string, string>).Authorization)}` } }), { status: 401 }));
    const r = await requestChatCompletion(req(echo.fetch, { baseUrl: `http://127.0.0.1:9/v1?key=${KEY}` }));
    expect(r).toEqual({ ok: false, failure: 'http', status: 401, reason: 'HTTP 401 from http://127.0.0.1:9/v1/chat/completions: bad key: Bearer [redacted key] (check the API key)' });
    const stream = await requestChatCompletion(req(fakeFetch(() => sse(body([`data: ${KEY} oops\n\n`]))).fetch));
    expect(failure(stream).reason).not.toContain(KEY);
    expect(failure(stream).reason).toContain('[redacted key]');
  });

  it('reports a redirect instead of following it to another origin', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/' } })).fetch));
    expect(r).toEqual({
      ok: false,
      failure: 'http',
      status: 307,
      reason: 'http://127.0.0.1:9/v1/chat/completions redirects elsewhere (HTTP 307); redirects are not followed — use the final URL as the base URL',
    });
  });

  it('refuses a body that announces more than the cap without reading it', async () => {
    const b = body(['{"choices":'], 'stall');
    const r = await requestChatCompletion(req(fakeFetch(() => new Response(b.stream, { headers: { 'content-type': 'application/json', 'content-length': String(20 << 20) } })).fetch, { stream: false }));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'the response from http://127.0.0.1:9/v1/chat/completions announces 20 MB, more than the 1 MB limit; not read' });
    expect(b.pulled()).toBe(0);
  });

  it('stops reading a body that grows past the cap and cancels it', async () => {
    const chunk = delta('y'.repeat(64 * 1024));
    const b = body(Array.from({ length: 400 }, () => chunk));
    const r = await requestChatCompletion(req(fakeFetch(() => sse(b)).fetch, { maxResponseBytes: 256 * 1024 }));
    expect(failure(r)).toEqual({ failure: 'garbage', reason: 'the response from http://127.0.0.1:9/v1/chat/completions is larger than 256 KB; stopped reading' });
    // Each chunk is 64 KB of text plus its JSON wrapping, so the fourth crosses 256 KB and nothing more is pulled.
    expect(b.pulled()).toBe(4);
    expect(b.cancelled()).toBe(true);
  });

  it('times out when the headers never arrive, even with a fetch that ignores the signal', async () => {
    // The fetch never settles, so only the client's own timer can end the wait.
    const r = await requestChatCompletion(req(() => new Promise<Response>(() => {}), { timeoutMs: 60 }));
    expect(failure(r)).toEqual({ failure: 'timeout', reason: 'no response from http://127.0.0.1:9/v1/chat/completions within 60 ms (the response headers never arrived)' });
  });

  it('times out when the body stalls mid-stream, and cancels it', async () => {
    const b = body([delta('## Conversation')], 'stall');
    const seen: string[] = [];
    const r = await requestChatCompletion(req(fakeFetch(() => sse(b)).fetch, { timeoutMs: 80, onText: (t) => seen.push(t) }));
    expect(failure(r)).toEqual({ failure: 'timeout', reason: 'the response from http://127.0.0.1:9/v1/chat/completions did not finish within 80 ms (it stalled mid-body)' });
    expect(seen).toEqual(['## Conversation']);
    expect(b.cancelled()).toBe(true);
  });

  it('passes the deadline to fetch as an abort signal', async () => {
    let signal: AbortSignal | null = null;
    const r = await requestChatCompletion(
      req(
        (_url, init) =>
          new Promise<Response>((_, reject) => {
            signal = init.signal ?? null;
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
        { timeoutMs: 30 },
      ),
    );
    expect(failure(r).failure).toBe('timeout');
    expect(signal!.aborted).toBe(true);
  });

  it('reports cancelled when the caller aborts, before or during the request', async () => {
    const before = new AbortController();
    before.abort();
    const f = fakeFetch(() => sse(body([STREAM])));
    expect(await requestChatCompletion(req(f.fetch, { signal: before.signal }))).toEqual({ ok: false, failure: 'cancelled', reason: 'cancelled before the request was sent' });
    expect(f.calls).toHaveLength(0);

    const during = new AbortController();
    const b = body([delta('## Conversation')], 'stall');
    const r = requestChatCompletion(req(fakeFetch(() => sse(b)).fetch, { signal: during.signal, onText: () => during.abort() }));
    expect(await r).toEqual({ ok: false, failure: 'cancelled', reason: 'cancelled' });
    expect(b.cancelled()).toBe(true);
  });

  it('classifies a Node fetch failure with a cause code as a network failure', async () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    const f = fakeFetch(() => Promise.reject(refused));
    expect(failure(await requestChatCompletion(req(f.fetch)))).toEqual({
      failure: 'network',
      reason: 'could not reach http://127.0.0.1:9/v1/chat/completions: connection refused — is the server running, and is the port right? (ECONNREFUSED)',
    });
    expect(f.calls).toHaveLength(1);
    const aggregate = new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('x'), { code: 'ENOTFOUND' })]) });
    expect(failure(await requestChatCompletion(req(fakeFetch(() => Promise.reject(aggregate)).fetch))).reason).toBe(
      'could not reach http://127.0.0.1:9/v1/chat/completions: host not found — check the host name (ENOTFOUND)',
    );
  });

  it('calls a browser-style TypeError a CORS refusal when a no-cors probe of the same URL gets an answer', async () => {
    const f = fakeFetch((_c, i) => (i === 0 ? Promise.reject(new TypeError('Failed to fetch')) : new Response(null, { status: 200 })));
    const r = failure(await requestChatCompletion(req(f.fetch)));
    expect(r.failure).toBe('cors');
    expect(r.reason).toMatch(/^network error or CORS refusal: http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions answers, but the browser refused this page the response/);
    expect(f.calls).toHaveLength(2);
    const probe = f.calls[1]!;
    expect(probe.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(probe.init).toMatchObject({ method: 'GET', mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
    // A no-cors request with redirect 'manual' or 'error' is refused by browsers before it is sent.
    expect(probe.init.redirect).toBeUndefined();
    expect(probe.init.headers).toBeUndefined();
    expect(probe.init.body).toBeUndefined();
  });

  it('calls a browser-style TypeError a network failure when the probe fails too', async () => {
    const f = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const r = failure(await requestChatCompletion(req(f.fetch)));
    expect(r).toEqual({
      failure: 'network',
      reason:
        'network error or CORS refusal: could not reach http://127.0.0.1:9/v1/chat/completions — wrong URL, server not running, or the request was blocked (CORS, mixed http/https content, or the page\'s connect policy) [Failed to fetch]',
    });
  });

  it('reports a connection that breaks mid-body as a network failure', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([delta('## C')], new TypeError('terminated')))).fetch));
    expect(failure(r)).toEqual({ failure: 'network', reason: 'the connection to http://127.0.0.1:9/v1/chat/completions broke while reading the response (terminated)' });
  });

  it('refuses a bad base URL or a key that cannot travel in a header without calling fetch', async () => {
    const f = fakeFetch(() => sse(body([STREAM])));
    expect(await requestChatCompletion(req(f.fetch, { baseUrl: 'nope' }))).toEqual({ ok: false, failure: 'network', reason: 'the base URL is not a valid URL (expected e.g. http://127.0.0.1:11434/v1)' });
    expect(await requestChatCompletion(req(f.fetch, { apiKey: 'sk-ключ' }))).toEqual({ ok: false, failure: 'network', reason: 'the API key contains spaces or characters that cannot be sent in a header' });
    expect(f.calls).toHaveLength(0);
  });

  it('keeps a good answer when the onText callback throws', async () => {
    const r = await requestChatCompletion(req(fakeFetch(() => sse(body([STREAM]))).fetch, { onText: () => { throw new Error('view bug'); } }));
    expect(r).toEqual({ ok: true, text: SUMMARY, model: 'm-1', finishReason: 'stop' });
  });
});
