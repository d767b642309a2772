// The page's Content-Security-Policy is fixed when the page loads: an endpoint origin it does not list can only be
// admitted by a reload. Base URL and model survive it (session storage); the key never leaves memory.
import type { ReactNode } from 'react';
import { allowedConnectOrigins, ENDPOINT_ORIGIN_KEY, policyInstalled } from '../security/csp';
import { PENDING_ENDPOINT_KEY } from '../store/settings-slice';

/** True when the page's policy would refuse requests to `origin`. */
export function endpointBlocked(origin: string): boolean {
  return typeof document !== 'undefined' && policyInstalled(document) && !allowedConnectOrigins(document).includes(origin);
}

/** The notice and its "Allow this endpoint and reload" button, or nothing when the origin is allowed. `lost` says what the reload drops. */
export function EndpointPolicyNotice({ origin, baseUrl, model, className, lost }: { origin: string; baseUrl: string; model: string; className: string; lost: ReactNode }) {
  if (!endpointBlocked(origin)) return null;
  const allow = () => {
    try {
      sessionStorage.setItem(ENDPOINT_ORIGIN_KEY, origin);
      sessionStorage.setItem(PENDING_ENDPOINT_KEY, JSON.stringify({ baseUrl, model }));
    } catch {
      // Without session storage the origin cannot be carried over; the reload then changes nothing.
    }
    location.reload();
  };
  return (
    <p className={`small ${className}`} role="note">
      This page may only connect to the endpoints allowed when it loaded (Content-Security-Policy), so requests to {origin} are refused until the page reloads
      with it allowed. {lost}{' '}
      <button type="button" onClick={allow}>
        Allow this endpoint and reload
      </button>
    </p>
  );
}
