// Where a configured base URL sends chat completions. Users paste base URLs in every shape
// (`http://localhost:11434`, `…/v1`, `…/api/v1/`, the full `…/chat/completions`), so one rule turns them into the URL.

export type EndpointUrl = { ok: true; url: string; shown: string } | { ok: false; reason: string };

const COMPLETIONS = '/chat/completions';

/**
 * The rule:
 * - a URL whose path already ends in `/chat/completions` is used as given;
 * - a URL with no path (`http://127.0.0.1:8080`, `http://127.0.0.1:8080/`) gets `/v1/chat/completions`;
 * - any other path (`/v1`, `/api/v1`, `/openai/v1/`) gets `/chat/completions` appended.
 * Trailing slashes are ignored, the fragment is dropped, a query (e.g. `?api-version=…`) is kept.
 * Only http(s) is accepted, and a user name or password in the URL is refused (it would travel with every request).
 * `shown` is origin + path, the form used in messages: never the query, which may hold tokens.
 */
export function chatCompletionsUrl(baseUrl: string): EndpointUrl {
  const raw = baseUrl.trim();
  if (raw === '') return { ok: false, reason: 'no base URL is set' };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: 'the base URL is not a valid URL (expected e.g. http://127.0.0.1:11434/v1)' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    const got = raw.includes('://') ? ` (got ${u.protocol}//)` : '';
    return { ok: false, reason: `the base URL must start with http:// or https://${got}` };
  }
  if (u.username !== '' || u.password !== '') {
    return { ok: false, reason: 'the base URL must not contain a user name or password; put the key in the API key field' };
  }
  const path = u.pathname.replace(/\/+$/, '');
  u.pathname = path.endsWith(COMPLETIONS) ? path : path === '' ? `/v1${COMPLETIONS}` : `${path}${COMPLETIONS}`;
  u.hash = '';
  return { ok: true, url: u.href, shown: `${u.origin}${u.pathname}` };
}
