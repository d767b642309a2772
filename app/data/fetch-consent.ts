// Links that fetch only with consent. A `?src=` URL or a share link's source URLs make the page contact the
// origins they name; a link can come from anyone, so a source on another origin is fetched only once the user
// said yes to the prompt that lists where from ("Open 1 file from example.com?"). The app's own origin (demos,
// files served beside the app) opens at once. The page's Content-Security-Policy cannot grow after it is
// installed, so consent is kept for this tab (sessionStorage) and the page reloads: at start-up the policy
// admits exactly the origins of the accepted URLs (security/csp.ts startupOrigins), and the fetch runs.
// Pure apart from the Storage it is given.

/** Where the URLs the user accepted wait across the reload that admits their origins. */
export const FETCH_CONSENT_KEY = 'compaction-inspector.fetch-consent';

/** A link's source opens at most this many bytes; a bigger file is refused with a message (docs/security.md). */
export const MAX_SOURCE_BYTES = 200 * 1024 * 1024;

export type SourceCheck =
  | { url: string; kind: 'first-party' | 'remote'; origin: string }
  | { url: string; kind: 'refused'; reason: string };

const SCHEME_REASONS = new Map<string, string>([
  ['javascript:', 'a javascript: URL is code, not a file; links never run it'],
  ['data:', 'a data: URL carries its content in the link itself; save the content as a file and drop it on the page'],
  ['file:', 'a file: URL names a file on your own computer, which a web page may not read; drop the file on the page instead'],
  ['blob:', 'a blob: URL only lives in the tab that made it; drop the file on the page instead'],
]);

/** Whether a source may be fetched, and from which origin; `url` comes back absolute. */
export function checkSource(url: string, pageHref: string): SourceCheck {
  let u: URL;
  try {
    u = new URL(url, pageHref);
  } catch {
    return { url, kind: 'refused', reason: 'this is not a URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { url, kind: 'refused', reason: SCHEME_REASONS.get(u.protocol) ?? `${u.protocol} URLs cannot be opened; only http(s) links can` };
  }
  const page = new URL(pageHref);
  return { url: u.href, kind: u.origin === page.origin ? 'first-party' : 'remote', origin: u.origin };
}

export interface FetchPlan {
  /** Absolute URLs to fetch now. */
  open: string[];
  /** URLs that wait for the user's yes (all of the link's fetchable sources, so files that belong together load together). */
  ask: { urls: string[]; origins: string[] } | null;
  refused: { url: string; reason: string }[];
}

/**
 * What a link's sources do: all open at once when each is on the app's origin or was accepted in this tab;
 * otherwise none opens and the user is asked once, for all of them.
 */
export function planFetch(urls: readonly string[], pageHref: string, accepted: readonly string[]): FetchPlan {
  const checks = urls.map((u) => checkSource(u, pageHref));
  const refused = checks.flatMap((c) => (c.kind === 'refused' ? [{ url: c.url, reason: c.reason }] : []));
  const fetchable = checks.filter((c): c is Extract<SourceCheck, { origin: string }> => c.kind !== 'refused');
  const ok = new Set(accepted);
  if (fetchable.every((c) => c.kind === 'first-party' || ok.has(c.url))) return { open: fetchable.map((c) => c.url), ask: null, refused };
  const origins = [...new Set(fetchable.filter((c) => c.kind === 'remote').map((c) => c.origin))];
  return { open: [], ask: { urls: fetchable.map((c) => c.url), origins }, refused };
}

/** The URLs accepted in this tab (absolute), empty when none or unreadable. */
export function acceptedUrls(storage: Pick<Storage, 'getItem'> | null): string[] {
  try {
    const raw: unknown = JSON.parse(storage?.getItem(FETCH_CONSENT_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
}

/** Records the user's yes for these URLs (kept with any accepted before in this tab). */
export function acceptUrls(storage: Pick<Storage, 'getItem' | 'setItem'>, urls: readonly string[]): void {
  storage.setItem(FETCH_CONSENT_KEY, JSON.stringify([...new Set([...acceptedUrls(storage), ...urls])]));
}

/** Origins the page may connect to at start-up for a link's sources: the accepted ones among them, only. */
export function acceptedOrigins(urls: readonly string[], pageHref: string, storage: Pick<Storage, 'getItem'> | null): string[] {
  const ok = new Set(acceptedUrls(storage));
  const origins: string[] = [];
  for (const url of urls) {
    const c = checkSource(url, pageHref);
    if (c.kind === 'remote' && ok.has(c.url) && !origins.includes(c.origin)) origins.push(c.origin);
  }
  return origins;
}

/** "1 file from example.com", "3 files from a.example and b.example", "4 files from a, b and 2 other sites". */
export function describeFetch(ask: { urls: readonly string[]; origins: readonly string[] }): string {
  const n = ask.urls.length;
  const hosts = ask.origins.map((o) => new URL(o).host);
  const where = hosts.length <= 2 ? hosts.join(' and ') : `${hosts.slice(0, 2).join(', ')} and ${hosts.length - 2} other site${hosts.length === 3 ? '' : 's'}`;
  return `${n} file${n === 1 ? '' : 's'} from ${where}`;
}
