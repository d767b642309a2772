// The page's Content-Security-Policy, in one place: the built app installs it as a meta tag, and
// `compaction-inspector serve` sends it as a header (adding frame-ancestors, which only a header can set).

export interface CspInput {
  /** Extra origins the page may fetch from: the ?src= hosts and the configured endpoint. */
  connectOrigins: string[];
}

export function buildCsp({ connectOrigins }: CspInput): string {
  const connect = ["'self'", ...new Set(connectOrigins.filter((o) => /^https?:\/\/[^\s;,']+$/.test(o)))];
  return [
    "default-src 'self'",
    "script-src 'self'",
    // React sets style attributes and Mermaid's SVG carries an inline <style>; no script can ride on either.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
