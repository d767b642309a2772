import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildCsp, serverCsp } from './csp-policy';
import { cspMiddleware, inlineScriptHashes } from './csp-server';

/** A response that records its headers, as node's http server would send them. */
function fakeResponse() {
  const headers = new Map<string, string>();
  let sent: { headers: Map<string, string>; body: unknown } | null = null;
  const res = {
    headersSent: false,
    setHeader(name: string, value: string) {
      if (this.headersSent) throw new Error('headers already sent');
      headers.set(name.toLowerCase(), value);
    },
    statusCode: 200,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
    end(body?: unknown) {
      this.headersSent = true;
      sent = { headers: new Map(headers), body };
      return this;
    },
  };
  return { res: res as unknown as ServerResponse, sent: () => sent };
}

function serve(contentType: string, body: string, middleware = cspMiddleware(), reqHeaders: Record<string, string> = {}) {
  const { res, sent } = fakeResponse();
  let nexted = false;
  const req = { headers: { ...reqHeaders } } as unknown as IncomingMessage;
  middleware(req, res, () => (nexted = true));
  expect(nexted).toBe(true);
  // What Vite's `send` does next: a 304 when the request's ETag matches (no body, no type), else the type,
  // the ETag and the body.
  if (req.headers['if-none-match'] === 'W/"1"') {
    res.statusCode = 304;
    res.end();
    return sent()!.headers;
  }
  res.setHeader('Content-Type', contentType);
  res.setHeader('Etag', 'W/"1"');
  res.end(body);
  return sent()!.headers;
}

const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.slice(d.indexOf(' ') + 1)]));

describe('inlineScriptHashes', () => {
  it('hashes inline scripts as CSP does, and skips scripts loaded by src', () => {
    const html = '<script type="module">alert(1)</script><script type="module" src="/@vite/client"></script><script></script>';
    // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
    expect(inlineScriptHashes(html)).toEqual(['sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=']);
  });
});

describe('cspMiddleware', () => {
  it("sends the server policy with frame-ancestors 'none' on every response", () => {
    const headers = serve('text/javascript', 'export {}');
    expect(headers.get('content-security-policy')).toBe(serverCsp());
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('x-frame-options')).toBe('DENY');
  });

  it("admits the dev server's own inline script on its HTML page, and no other", () => {
    const headers = serve('text/html', '<html><head><script type="module">alert(1)</script></head></html>');
    const script = directives(headers.get('content-security-policy')!).get('script-src');
    expect(script).toBe("'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });
});

describe('a page revalidated by the browser (issue 33: blank page on reload under npm start)', () => {
  const page = '<html><head><script type="module">alert(1)</script></head></html>';
  const hash = "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='";

  it('is sent uncached and without an ETag, so the browser has nothing to revalidate', () => {
    const headers = serve('text/html', page);
    expect(headers.get('etag')).toBeUndefined();
    expect(headers.get('cache-control')).toBe('no-store');
    // Other files keep their validators.
    expect(serve('text/javascript', 'export {}').get('etag')).toBe('W/"1"');
  });

  it('gets its whole body, with the hash, even when the browser sends a validator it kept', () => {
    const headers = serve('text/html', page, cspMiddleware(), { accept: 'text/html,application/xhtml+xml', 'if-none-match': 'W/"1"' });
    expect(directives(headers.get('content-security-policy')!).get('script-src')).toBe(`'self' ${hash}`);
  });

  it('a 304 that still answers a page carries the hashes of the page last sent', () => {
    const mw = cspMiddleware();
    serve('text/html', page, mw);
    // A middleware other than Vite's page handler could answer 304 from its own validator.
    const { res, sent } = fakeResponse();
    mw({ headers: { 'sec-fetch-dest': 'document' } } as unknown as IncomingMessage, res, () => {});
    res.statusCode = 304;
    res.end();
    expect(directives(sent()!.headers.get('content-security-policy')!).get('script-src')).toBe(`'self' ${hash}`);
  });

  it('a module request keeps its validators (a 304 there is fine: scripts carry no hash)', () => {
    const headers = serve('text/javascript', 'export {}', cspMiddleware(), { accept: '*/*', 'if-none-match': 'W/"1"' });
    expect(headers.get('content-security-policy')).toBe(serverCsp());
  });
});

describe('serverCsp', () => {
  it('carries every directive of the page policy unchanged, except connect-src, which it widens', () => {
    const header = directives(serverCsp());
    const page = directives(buildCsp({ connectOrigins: ['https://logs.example.com'] }));
    for (const [name, value] of page) if (name !== 'connect-src') expect(header.get(name), name).toBe(value);
    expect(header.get('script-src')).toBe("'self'");
    expect(header.get('object-src')).toBe("'none'");
    // The meta policy narrows connections; the header must admit whatever it may list (browsers intersect them).
    expect(header.get('connect-src')!.split(' ')).toEqual(expect.arrayContaining(["'self'", 'http:', 'https:']));
    expect(page.get('connect-src')).toBe("'self' https://logs.example.com");
  });
});
