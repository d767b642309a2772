// Where a rank table is fetched from, and how: one request for the token workers' load (fetched-rank-tables.ts) and
// the page's prefetch during a drag (rank-prefetch.ts), so the prefetched response is the one the worker asks for.
import rankTableUrls from 'virtual:rank-table-urls';
import type { EncodingName } from '../../src/tokens/encoding';

export function rankTableRequest(encoding: EncodingName): { url: string; init: RequestInit } {
  // Resolved against this module's own address: a worker started from a blob: URL (policed-worker.ts) has no base
  // that a path like /assets/… resolves against.
  return { url: new URL(rankTableUrls[encoding], import.meta.url).href, init: { credentials: 'omit' } };
}
