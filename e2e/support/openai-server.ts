// A local OpenAI-compatible /chat/completions server for tests: real HTTP on 127.0.0.1, JSON and SSE answers,
// CORS preflight, and one mode per fault the endpoint client must survive. Every wait is bounded and close()
// ends open connections, so a test never hangs on it.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ServerMode =
  | 'ok' // a schema summary, JSON or SSE as the request's `stream` asks
  | 'slow' // waits `slowMs` before sending headers, then answers like 'ok'
  | 'stall' // headers and one chunk, then nothing for `stallMs`, then the connection is dropped
  | '500' // HTTP 500 with an OpenAI-style error body
  | '401' // HTTP 401 whose body echoes the bearer token, as a careless proxy would
  | 'garbage' // 200 with a non-JSON body, or an event stream with broken framing
  | 'non-schema' // a valid completion whose text doesn't start with the schema header
  | 'huge' // a 20 MB body, sent chunked without Content-Length
  | 'cut' // SSE: two deltas, then the stream ends mid-event without [DONE] (JSON: half a body)
  | 'no-cors'; // answers like 'ok' but never sends CORS headers, preflight included

export const SERVER_MODES: readonly ServerMode[] = ['ok', 'slow', 'stall', '500', '401', 'garbage', 'non-schema', 'huge', 'cut', 'no-cors'];

/** The summary every 'ok' answer carries. */
export const OK_SUMMARY = [
  '## Conversation Summary',
  '- **Decisions:** deploy to db-prod-1:5432 after the migration',
  '- **Entities:** db-prod-1:5432, FRE-512, src/db/migrate.ts',
  '- **Facts:** the migration runs in 40 s',
  '- **Open Items:** close FRE-512',
].join('\n');

export const NON_SCHEMA_TEXT = 'Sure! Here is a summary of the conversation: the user deployed to db-prod-1.';
export const HUGE_BYTES = 20 * 1024 * 1024;

export interface RecordedRequest {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Lower-cased header names, as Node reports them. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON body of a POST (undefined when there was none or it wasn't JSON). */
  body: unknown;
  /** The mode the server was in when the request arrived. */
  mode: ServerMode;
}

export interface ServerOptions {
  mode?: ServerMode;
  /** 'slow': delay before headers (default 10 s; longer than any timeout tests set). */
  slowMs?: number;
  /** 'stall': how long the stalled connection is held before it is dropped (default 10 s). */
  stallMs?: number;
  /** 'ok' SSE: pause between chunks so a UI can be seen streaming (default 15 ms). */
  chunkDelayMs?: number;
  /** 'ok' and 'slow': the answer for a request body, when it returns one (else the schema summary). */
  respond?: (body: unknown) => string | undefined;
}

export interface OpenAIServer {
  /** `http://127.0.0.1:<port>/v1` — a base URL as a user would type it. */
  url: string;
  origin: string;
  setMode(mode: ServerMode): void;
  readonly mode: ServerMode;
  /** Every request received, preflights and probes included, oldest first. */
  requests: RecordedRequest[];
  clearRequests(): void;
  close(): Promise<void>;
}

const MAX_REQUEST_BODY = 4 << 20;

export async function startOpenAIServer(options: ServerOptions = {}): Promise<OpenAIServer> {
  let mode: ServerMode = options.mode ?? 'ok';
  const slowMs = options.slowMs ?? 10_000;
  const stallMs = options.stallMs ?? 10_000;
  const chunkDelayMs = options.chunkDelayMs ?? 15;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;

  /** A bounded wait that ends early when the server closes or the client goes away. */
  const wait = (ms: number, res: ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      if (closed || res.destroyed) return resolve(false);
      const done = (alive: boolean) => {
        clearTimeout(t);
        timers.delete(t);
        res.off('close', onClose);
        resolve(alive);
      };
      const onClose = () => done(false);
      const t = setTimeout(() => done(!closed && !res.destroyed), ms);
      timers.add(t);
      res.on('close', onClose);
    });

  /** Writes with backpressure; false once the client is gone. Waits for 'drain' at most 5 s. */
  const write = async (res: ServerResponse, chunk: string | Buffer): Promise<boolean> => {
    if (closed || res.destroyed) return false;
    if (res.write(chunk)) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(t);
        timers.delete(t);
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const t = setTimeout(() => done(false), 5_000);
      timers.add(t);
      res.on('drain', onDrain);
      res.on('close', onClose);
    });
  };

  const cors = (res: ServerResponse, req: IncomingMessage, m: ServerMode) => {
    if (m === 'no-cors') return;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
    res.setHeader('Access-Control-Max-Age', '0');
    // Chrome's Private Network Access preflight, for pages served from a public origin.
    if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };

  const completion = (text: string) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 60, total_tokens: 160 },
  });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const sseHead = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  /** The text in pieces of a few words, as a model streams it. */
  const pieces = (text: string) => text.match(/\S+\s*|\s+/g) ?? [text];

  const answer = async (res: ServerResponse, text: string, stream: boolean) => {
    if (!stream) return json(res, 200, completion(text));
    sseHead(res);
    if (!(await write(res, `: test server\n\n${chunk({ role: 'assistant', content: '' })}`))) return;
    for (const p of pieces(text)) {
      if (!(await write(res, chunk({ content: p })))) return;
      if (chunkDelayMs > 0 && !(await wait(chunkDelayMs, res))) return;
    }
    if (!(await write(res, `${chunk({}, 'stop')}data: [DONE]\n\n`))) return;
    res.end();
  };

  const huge = async (res: ServerResponse, stream: boolean) => {
    const filler = 'x'.repeat(64 * 1024);
    let sent = 0;
    if (stream) {
      sseHead(res);
      while (sent < HUGE_BYTES) {
        const ev = chunk({ content: filler });
        if (!(await write(res, ev))) return;
        sent += ev.length;
      }
      if (await write(res, 'data: [DONE]\n\n')) res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const head = `{"id":"chatcmpl-test","object":"chat.completion","model":"test-model","choices":[{"index":0,"message":{"role":"assistant","content":"## Conversation Summary\\n`;
    if (!(await write(res, head))) return;
    sent = head.length;
    while (sent < HUGE_BYTES) {
      if (!(await write(res, filler))) return;
      sent += filler.length;
    }
    if (await write(res, `"},"finish_reason":"stop"}]}`)) res.end();
  };

  const completions = async (req: IncomingMessage, res: ServerResponse, m: ServerMode, body: unknown) => {
    const stream = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
    const text = options.respond?.(body) ?? OK_SUMMARY;
    switch (m) {
      case 'ok':
      case 'no-cors':
        return answer(res, text, stream);
      case 'slow':
        if (await wait(slowMs, res)) return answer(res, text, stream);
        return;
      case 'non-schema':
        return answer(res, NON_SCHEMA_TEXT, stream);
      case '500':
        return json(res, 500, { error: { message: 'the model crashed (test server)', type: 'server_error', code: null } });
      case '401': {
        const auth = req.headers.authorization ?? '';
        return json(res, 401, { error: { message: `Invalid credentials: ${auth}`, type: 'invalid_request_error' } });
      }
      case 'garbage':
        if (stream) {
          sseHead(res);
          res.end('<html><body>Bad gateway</body></html>\n\nthis is not an event stream\n');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('<html><body>Bad gateway</body></html>');
        return;
      case 'stall':
        if (stream) {
          sseHead(res);
          if (!(await write(res, chunk({ role: 'assistant', content: '## Conversation' })))) return;
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          if (!(await write(res, '{"id":"chatcmpl-test","choices":[{"message":{"content":"## Conv'))) return;
        }
        if (await wait(stallMs, res)) res.destroy();
        return;
      case 'cut':
        if (stream) {
          sseHead(res);
          if (!(await write(res, chunk({ role: 'assistant', content: '## Conversation ' }) + chunk({ content: 'Summary\n- **Decisions:** ' })))) return;
          res.end('data: {"id":"chatcmpl-test","choices":[{"delta":{"content":"dep');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"id":"chatcmpl-test","choices":[{"message":{"content":"## Conversation Summ');
        return;
      case 'huge':
        return huge(res, stream);
    }
  };

  const readRequestBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      const parts: Buffer[] = [];
      let size = 0;
      req.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= MAX_REQUEST_BODY) parts.push(b);
      });
      req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      req.on('error', () => resolve(''));
      req.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
    });

  const server = createServer((req, res) => {
    const m = mode;
    void (async () => {
      const raw = await readRequestBody(req);
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers }, body, mode: m });
      if (closed) return void res.destroy();
      cors(res, req, m);
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'Content-Length': '0' });
        res.end();
        return;
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        await completions(req, res, m, body);
        return;
      }
      if (path.endsWith('/chat/completions')) {
        res.setHeader('Allow', 'POST, OPTIONS');
        return json(res, 405, { error: { message: `${req.method} is not allowed here` } });
      }
      json(res, 404, { error: { message: `no route for ${req.method} ${path}` } });
    })().catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    setMode: (next) => {
      mode = next;
    },
    get mode() {
      return mode;
    },
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** A blank page on its own origin, so a browser test can make cross-origin requests (and preflights) to the API server. */
export async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><meta charset="utf-8"><title>page</title></head><body></body></html>');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
