// The endpoint client against the e2e test server (e2e/support/openai-server.ts) over real HTTP on 127.0.0.1,
// one test per server mode, streamed and not; and the server's own protocol (CORS, routes, recording, close).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NON_SCHEMA_TEXT, OK_SUMMARY, SERVER_MODES, startOpenAIServer, type OpenAIServer } from '../../e2e/support/openai-server';
import { requestChatCompletion } from './chat-completion';
import { createEndpointSummarizer, type EndpointConfig } from './endpoint-summarizer';

const KEY = 'sk-local-test-key-9f8e7d6c';
const MESSAGES = [
  { role: 'system' as const, content: 'Summarize the slice.' },
  { role: 'user' as const, content: 'user: deploy to db-prod-1:5432' },
];

let server: OpenAIServer;
let url: string;

beforeAll(async () => {
  server = await startOpenAIServer({ slowMs: 3_000, stallMs: 3_000, chunkDelayMs: 1 });
  url = `${server.origin}/v1/chat/completions`;
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearRequests();
  server.setMode('ok');
});

// Far above any answer's time on a loaded machine: a test that expects an answer must not race a timer. The timeout
// tests set their own short one (SHORT_MS), against a server that waits ten times as long.
const SHORT_MS = 300;
const summarize = (config: Partial<EndpointConfig> = {}, onText?: (t: string) => void) =>
  createEndpointSummarizer({ baseUrl: server.url, apiKey: KEY, model: 'test-model', timeoutMs: 30_000, ...config }).summarize({
    messages: MESSAGES,
    slice: [],
    priorSummary: null,
    onText,
  });

describe('endpoint summarizer against the test server', () => {
  for (const stream of [true, false]) {
    const how = stream ? 'streamed' : 'as JSON';

    it(`gets the schema summary ${how} in mode ok`, async () => {
      const seen: string[] = [];
      expect(await summarize({ stream }, (t) => seen.push(t))).toEqual({ ok: true, text: OK_SUMMARY, model: 'test-model' });
      expect(seen.at(-1)).toBe(OK_SUMMARY);
      expect(seen.length > 1).toBe(stream);
    });

    // The server answers after 3 s; the client's 300 ms timer is set first and fires first, so only the client's
    // timeout can give these results (a wall-clock check beside them would only measure the machine's load).
    it(`times out waiting for headers ${how} in mode slow`, async () => {
      server.setMode('slow');
      expect(await summarize({ stream, timeoutMs: SHORT_MS })).toEqual({ ok: false, failure: 'timeout', reason: `no response from ${url} within 300 ms (the response headers never arrived)` });
    });

    it(`times out on a body that stalls ${how} in mode stall`, async () => {
      server.setMode('stall');
      const seen: string[] = [];
      expect(await summarize({ stream, timeoutMs: SHORT_MS }, (t) => seen.push(t))).toEqual({ ok: false, failure: 'timeout', reason: `the response from ${url} did not finish within 300 ms (it stalled mid-body)` });
      expect(seen).toEqual(stream ? ['## Conversation'] : []);
    });

    it(`reports HTTP 500 ${how} in mode 500`, async () => {
      server.setMode('500');
      expect(await summarize({ stream })).toEqual({ ok: false, failure: 'http', reason: `HTTP 500 Internal Server Error from ${url}: the model crashed (test server)` });
    });

    it(`keeps the key out of the reason when a 401 echoes it, ${how}`, async () => {
      server.setMode('401');
      expect(await summarize({ stream })).toEqual({ ok: false, failure: 'http', reason: `HTTP 401 Unauthorized from ${url}: Invalid credentials: Bearer [redacted key] (check the API key)` });
    });

    it(`reports non-schema output ${how} in mode non-schema`, async () => {
      server.setMode('non-schema');
      expect(await summarize({ stream })).toEqual({ ok: false, failure: 'not-schema', reason: `the output does not start with "## Conversation Summary"; it starts with "${NON_SCHEMA_TEXT.slice(0, 60)}…"` });
    });

    it(`stops a 20 MB body at the 1 MB cap ${how} in mode huge`, async () => {
      server.setMode('huge');
      // The cap, not the timeout, ends it: the reason says so.
      expect(await summarize({ stream })).toEqual({ ok: false, failure: 'garbage', reason: `the response from ${url} is larger than 1 MB; stopped reading` });
    });
  }

  it('reports broken SSE framing as garbage in mode garbage', async () => {
    server.setMode('garbage');
    expect(await summarize({ stream: true })).toEqual({ ok: false, failure: 'garbage', reason: `invalid SSE framing: unexpected line "<html><body>Bad gateway</body></html>" (from ${url})` });
  });

  it('reports a non-JSON body as garbage in mode garbage', async () => {
    server.setMode('garbage');
    expect(await summarize({ stream: false })).toEqual({ ok: false, failure: 'garbage', reason: `the response from ${url} is not JSON (application/json): <html><body>Bad gateway</body></html>` });
  });

  it('reports a stream cut off before [DONE] as garbage in mode cut', async () => {
    server.setMode('cut');
    expect(await summarize({ stream: true })).toEqual({ ok: false, failure: 'garbage', reason: `the stream from ${url} was cut off before [DONE] (after 41 characters)` });
  });

  it('reports half a JSON body as garbage in mode cut', async () => {
    server.setMode('cut');
    expect(await summarize({ stream: false })).toEqual({
      ok: false,
      failure: 'garbage',
      reason: `the response from ${url} is not JSON (application/json): {"id":"chatcmpl-test","choices":[{"message":{"content":"## Conversation Summ`,
    });
  });

  it('gets the summary in mode no-cors, since Node enforces no CORS (the browser case is in e2e/endpoint-server.spec.ts)', async () => {
    server.setMode('no-cors');
    expect(await summarize()).toEqual({ ok: true, text: OK_SUMMARY, model: 'test-model' });
  });

  it('reports a refused connection as a network failure', async () => {
    const gone = await startOpenAIServer();
    await gone.close();
    expect(await summarize({ baseUrl: gone.url })).toEqual({
      ok: false,
      failure: 'network',
      reason: `could not reach ${gone.origin}/v1/chat/completions: connection refused — is the server running, and is the port right? (ECONNREFUSED)`,
    });
  });

  it('sends one POST to the configured origin with the key only in the Authorization header', async () => {
    await summarize({ stream: true });
    expect(server.requests).toHaveLength(1);
    const [r] = server.requests;
    expect(r!.method).toBe('POST');
    expect(r!.path).toBe('/v1/chat/completions');
    expect(r!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r!.headers['content-type']).toBe('application/json');
    expect(r!.headers.cookie).toBeUndefined();
    expect(r!.headers.referer).toBeUndefined();
    expect(r!.body).toEqual({ model: 'test-model', messages: MESSAGES, temperature: 0.2, max_tokens: 512, stream: true });
    expect(Object.entries(r!.headers).filter(([k, v]) => k !== 'authorization' && String(v).includes(KEY))).toEqual([]);
  });

  it('leaves the request usable for other callers: requestChatCompletion returns the finish reason', async () => {
    expect(await requestChatCompletion({ baseUrl: server.origin, apiKey: null, model: 'm', messages: MESSAGES })).toEqual({
      ok: true,
      text: OK_SUMMARY,
      model: 'test-model',
      finishReason: 'stop',
    });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('startOpenAIServer', () => {
  it('offers every mode the client must survive', () => {
    expect(SERVER_MODES).toEqual(['ok', 'slow', 'stall', '500', '401', 'garbage', 'non-schema', 'huge', 'cut', 'no-cors']);
  });

  it('answers the CORS preflight for Content-Type and Authorization from any origin', async () => {
    const res = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:4173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type', 'Access-Control-Request-Private-Network': 'true' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(res.headers.get('access-control-allow-private-network')).toBe('true');
    expect(server.requests.map((r) => [r.method, r.path, r.mode])).toEqual([['OPTIONS', '/v1/chat/completions', 'ok']]);
  });

  it('sends no CORS header at all in mode no-cors', async () => {
    server.setMode('no-cors');
    const pre = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1:4173', 'Access-Control-Request-Method': 'POST' } });
    const post = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"stream":false}' });
    expect([...pre.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect([...post.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect(await post.json()).toMatchObject({ choices: [{ message: { content: OK_SUMMARY } }] });
  });

  it('answers 405 to other methods on the completions path and 404 elsewhere, with CORS headers', async () => {
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${server.origin}/v1/models`)).status).toBe(404);
  });

  it('serves a full /chat/completions path at any prefix', async () => {
    expect(await summarize({ baseUrl: `${server.origin}/proxy/openai/v1` })).toEqual({ ok: true, text: OK_SUMMARY, model: 'test-model' });
    expect(server.requests[0]!.path).toBe('/proxy/openai/v1/chat/completions');
  });

  it('closes promptly while a connection is stalled and while a request waits', async () => {
    const s = await startOpenAIServer({ mode: 'stall', stallMs: 60_000, slowMs: 60_000 });
    const stalled = await fetch(`${s.url}/chat/completions`, { method: 'POST', body: '{"stream":true}' });
    const reader = stalled.body!.getReader();
    await reader.read();
    s.setMode('slow');
    const waiting = fetch(`${s.url}/chat/completions`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    // Both would hold for 60 s: close() returning within the test's timeout, with the stalled body cut and the
    // waiting request failed, is what "promptly" means here (no wall-clock budget on a shared machine).
    await s.close();
    await expect(reader.read()).rejects.toThrow();
    expect(await waiting).toBeInstanceOf(TypeError);
    expect(s.requests.map((r) => [r.method, r.mode])).toEqual([
      ['POST', 'stall'],
      ['POST', 'slow'],
    ]);
  });
});
