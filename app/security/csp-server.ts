// A Vite plugin that sends the app's Content-Security-Policy header from `vite` (npm start) and `vite preview`,
// so what users run is what the built app and the e2e tests run under. The dev server writes one inline
// script of its own into the page (React Refresh's preamble); its hash is added to script-src for that page.
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

/**
 * Middleware that sets the header on every response (a worker takes its policy from its own script's
 * response). For an HTML page the header waits for the body, to hash the inline scripts the dev server put in.
 */
export function cspMiddleware(): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  return (_req, res, next) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.setHeader('Content-Security-Policy', serverCsp());
    res.setHeader('X-Frame-Options', 'DENY');
    res.end = ((...args: unknown[]) => {
      const chunk = args[0];
      const type = String(res.getHeader('Content-Type') ?? '');
      if (!res.headersSent && type.includes('text/html') && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
        const html = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        res.setHeader('Content-Security-Policy', serverCsp({ scriptHashes: inlineScriptHashes(html) }));
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
