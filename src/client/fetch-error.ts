// What a rejected fetch() means. Node's fetch names the cause (ECONNREFUSED, ENOTFOUND, …); a browser only
// says "TypeError: Failed to fetch" for a refused connection, a DNS failure, a CSP block and a CORS refusal alike,
// and hides the difference from scripts on purpose.
//
// Heuristic for the browser case: send one probe to the same URL with mode 'no-cors' (a plain GET with no
// headers, no body, no key, no cookies, redirects followed: the only redirect mode no-cors allows). A no-cors request is not subject to CORS, so if the probe gets any
// answer (an opaque response) the server is reachable and the real request was most likely refused by CORS;
// if the probe fails too, nothing answered. Both reasons start with "network error or CORS refusal", because
// the probe can be wrong (e.g. a server that answers GET but resets POST), and the user should see both options.

export type FetchErrorClass =
  | { failure: 'network'; reason: string }
  | { failure: 'cors'; reason: string };

const CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused — is the server running, and is the port right?',
  ENOTFOUND: 'host not found — check the host name',
  EAI_AGAIN: 'host name lookup failed — check the host name and the network',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed by the server',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate could not be verified',
};

/** The error code Node's fetch puts on `cause` (or on the first of an AggregateError's errors), if any. */
export function causeCode(e: unknown): string | null {
  const cause = e instanceof Error ? (e as { cause?: unknown }).cause : undefined;
  const direct = codeOf(cause);
  if (direct) return direct;
  const errors = typeof cause === 'object' && cause !== null ? (cause as { errors?: unknown }).errors : undefined;
  if (Array.isArray(errors)) for (const inner of errors) if (codeOf(inner)) return codeOf(inner);
  return null;
}

function codeOf(v: unknown): string | null {
  const code = typeof v === 'object' && v !== null ? (v as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code !== '' ? code : null;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Node-side classification: a cause code means the request never got an answer. */
export function nodeNetworkReason(shown: string, code: string): string {
  return `could not reach ${shown}: ${CODES[code] ?? 'network error'} (${code})`;
}

export function probedReason(shown: string, answered: boolean, e: unknown): FetchErrorClass {
  if (answered) {
    return {
      failure: 'cors',
      reason:
        `network error or CORS refusal: ${shown} answers, but the browser refused this page the response — ` +
        `most likely a CORS refusal: the server must answer the preflight (OPTIONS) and the request with ` +
        `Access-Control-Allow-Origin for this page and allow the Content-Type and Authorization headers`,
    };
  }
  return {
    failure: 'network',
    reason:
      `network error or CORS refusal: could not reach ${shown} — wrong URL, server not running, ` +
      `or the request was blocked (CORS, mixed http/https content, or the page's connect policy) [${messageOf(e)}]`,
  };
}
