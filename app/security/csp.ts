import { decodeShareFragment, hasShareFragment } from '../../src/share';
import { acceptedOrigins } from '../data/fetch-consent';
import { ENDPOINT_ORIGIN_KEY } from '../store/settings-slice';
export { buildCsp, type CspInput } from '../../src/security/page-policy';

// The page's Content-Security-Policy: nothing runs but the app's own scripts, and the only network peers are
// the app's origin, the link sources the user agreed to open, and the endpoint the user configured.

export { ENDPOINT_ORIGIN_KEY };

/** An origin for connect-src, or null for anything that is not plain http(s). */
export function originOf(url: string, base?: string): string | null {
  try {
    const u = new URL(url, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * The origins this page load may contact, read before anything else runs: of a link's sources (`?src=`, a share
 * link's source URLs) only those the user accepted in this tab (data/fetch-consent.ts), and the endpoint.
 */
export function startupOrigins(location: Location, storage: Pick<Storage, 'getItem'> | null, tabStorage: Pick<Storage, 'getItem'> | null = null): string[] {
  const sources = new URLSearchParams(location.search).getAll('src');
  if (hasShareFragment(location.hash)) {
    const link = decodeShareFragment(location.hash);
    if (link.ok) sources.push(...link.value.value.sourceUrls);
  }
  const origins = acceptedOrigins(sources, location.href, tabStorage);
  // A remembered endpoint (localStorage), or one set in this tab before a reload (sessionStorage).
  for (const endpoint of [storage?.getItem(ENDPOINT_ORIGIN_KEY), tabStorage?.getItem(ENDPOINT_ORIGIN_KEY)]) {
    const o = endpoint ? originOf(endpoint) : null;
    if (o && !origins.includes(o)) origins.push(o);
  }
  return origins;
}

/** Adds the policy as a meta tag; it applies to everything the page loads or fetches from then on. */
export function installCsp(doc: Document, policy: string): void {
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = policy;
  doc.head.prepend(meta);
}

/** The origins the installed policy lets the page connect to (besides its own). */
export function allowedConnectOrigins(doc: Document): string[] {
  const policy = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
  const connect = /connect-src ([^;]*)/.exec(policy)?.[1] ?? '';
  return connect.split(/\s+/).filter((t) => /^https?:\/\//.test(t));
}

/** Whether a policy is installed at all (main.tsx installs it; a unit test's document has none). */
export function policyInstalled(doc: Document): boolean {
  return doc.querySelector('meta[http-equiv="Content-Security-Policy"]') !== null;
}
