// The text of the Content-Security-Policy, in two layers that browsers intersect:
// - the header every server of the app sends (vite dev, vite preview; static hosts are told to copy it): the
//   fixed directives, `frame-ancestors 'none'` (a meta tag cannot carry it), and a connect-src wide enough for
//   any origin the page may come to need;
// - the meta tag the page installs before it renders (main.tsx), which narrows connect-src to the app's own
//   origin, the ?src= origins the user accepted and the endpoint the user configured.
// A page fetches only where both allow, so the narrow meta list is what holds. `compaction-inspector serve` sends
// the page's policy as its header, with `frame-ancestors 'none'`.

/** The directives of both layers, with their own connect-src; `script-src` takes the dev server's inline script hashes. */
function directives(connect: string, scriptHashes: readonly string[] = []): string[] {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ')}`,
    // React sets style attributes and Mermaid's SVG carries an inline <style>; no script can ride on either.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ];
}

const ORIGIN = /^https?:\/\/[^\s;,']+$/;

/** The page's own policy (a meta tag): connections to the app and the origins given, nothing else. */
export interface CspInput {
  /** Extra origins the page may fetch from: the ?src= hosts the user accepted and the configured endpoint. */
  connectOrigins: string[];
}

export function buildCsp({ connectOrigins }: CspInput): string {
  return directives(["'self'", ...new Set(connectOrigins.filter((o) => ORIGIN.test(o)))].join(' ')).join('; ');
}

export interface ServerCspOptions {
  /** `sha256-…` of inline scripts the server itself writes into the page (Vite's dev client preamble). */
  scriptHashes?: readonly string[];
}

/**
 * The policy servers send as a header. Its connect-src admits any http(s)/ws origin because the page's meta
 * policy, installed before anything runs, narrows it; `frame-ancestors 'none'` keeps other sites from framing
 * the app (a framed copy would open its `src` in the visitor's name).
 */
export function serverCsp({ scriptHashes = [] }: ServerCspOptions = {}): string {
  return [...directives("'self' http: https: ws: wss:", scriptHashes), "frame-ancestors 'none'"].join('; ');
}
