// A file dragged over the page is about to be opened, and its exact count will need a rank table (~1 MB). Its
// bytes are fetched into the HTTP cache then, so a slow link does not hold the count back; the token worker's own
// fetch (fetched-rank-tables.ts, the same request) finds them there. Only the bytes: parsed at the drag, the table
// competed with the first view when the drop came soon after (+40–50 ms on 2 cores).
import type { EncodingName } from '../../src/tokens/encoding';
import { rankTableRequest } from './rank-table-request';

const asked = new Set<EncodingName>();

export function prefetchRankTable(encoding: EncodingName = 'o200k_base'): void {
  if (asked.has(encoding)) return;
  asked.add(encoding);
  const { url, init } = rankTableRequest(encoding);
  fetch(url, { ...init, priority: 'low' })
    .then((res) => res.arrayBuffer())
    .catch(() => asked.delete(encoding));
}
