// A Vite plugin that sends the app's Content-Security-Policy header from `vite` (npm start) and `vite preview`,
// so what users run is what the built app and the e2e tests run under. The dev server writes one inline
// script of its own into the page (React Refresh's preamble); its hash is added to script-src for that page.
//
// A page is never answered 304: a revalidated page keeps its cached body but takes the 304's headers, and a 304
// has no body to hash, so the page would run under a policy without its preamble's hash and stay blank. So HTML
// is sent uncached, without an ETag, and a request for a page has its conditional headers removed.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { serverCsp } from './csp-policy.ts';

/** `sha256-…` of each inline <script> in an HTML page, as CSP writes hashes. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (m[1]!.trim() === '') continue;
    hashes.push(`sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}`);
  }
  return hashes;
}

type Next = (err?: unknown) => void;

/** A navigation or anything else that asks for a page (modules, workers and fetches ask for other types). */
export function wantsHtml(req: Pick<IncomingMessage, 'headers'>): boolean {
  const dest = req.headers['sec-fetch-dest'];
  if (dest === 'document' || dest === 'iframe') return true;
  return String(req.headers.accept ?? '').includes('text/html');
}

/**
 * Middleware that sets the header on every response (a worker takes its policy from its own script's
 * response). For an HTML page the header waits for the body, to hash the inline scripts the dev server put in.
 */
export function cspMiddleware(): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  // The hashes of the page last sent: a 304 that still reaches a page request (no other middleware should
  // send one) carries them too, so no answer to a page ever lacks them.
  let lastPageHashes: string[] = [];
  return (req, res, next) => {
    const page = wantsHtml(req);
    if (page) {
      delete req.headers['if-none-match'];
      delete req.headers['if-modified-since'];
    }
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.setHeader('Content-Security-Policy', serverCsp());
    res.setHeader('X-Frame-Options', 'DENY');
    res.end = ((...args: unknown[]) => {
      const chunk = args[0];
      const type = String(res.getHeader('Content-Type') ?? '');
      if (!res.headersSent && type.includes('text/html') && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
        const html = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        lastPageHashes = inlineScriptHashes(html);
        res.setHeader('Content-Security-Policy', serverCsp({ scriptHashes: lastPageHashes }));
        res.removeHeader('ETag');
        res.removeHeader('Last-Modified');
        res.setHeader('Cache-Control', 'no-store');
      } else if (!res.headersSent && page && res.statusCode === 304) {
        res.setHeader('Content-Security-Policy', serverCsp({ scriptHashes: lastPageHashes }));
      }
      return end(...args);
    }) as ServerResponse['end'];
    next();
  };
}

export function cspHeaders(): Plugin {
  return {
    name: 'compaction-inspector:csp-headers',
    configureServer(server) {
      server.middlewares.use(cspMiddleware());
    },
    configurePreviewServer(server) {
      server.middlewares.use(cspMiddleware());
    },
  };
}
