// Workers that count load gpt-tokenizer's rank tables as the packed JSON the build emits (see app/build/rank-tables.ts):
// two strings the counter's RankLookup reads as they are, not 200k strings to parse and join again, and the lookup's
// slots worked out at build time (a cold worker took ~0.15 s to hash 200k tokens into them).
import rankTableUrls from 'virtual:packed-rank-table-urls';
import type { PackedRanks } from '../../src/tokens/rank-lookup';
import { setRankTableSource } from '../../src/tokens/rank-tables';

export function installFetchedRankTables(): void {
  setRankTableSource(async (encoding) => {
    // Resolved against this module's own address: a worker started from a blob: URL (policed-worker.ts) has no base
    // that a path like /assets/… resolves against.
    const urls = rankTableUrls[encoding];
    const get = async (path: string) => {
      const url = new URL(path, import.meta.url).href;
      const res = await fetch(url, { credentials: 'omit' });
      if (!res.ok) throw new Error(`the ${encoding} rank table could not be loaded from ${url}: HTTP ${res.status}`);
      return res;
    };
    // The slots are an optimisation: without them (a failed fetch) the lookup fills its own (RankLookup checks them).
    const [table, slots] = await Promise.all([
      get(urls.json).then((r) => r.json() as Promise<PackedRanks>),
      get(urls.slots)
        .then((r) => r.arrayBuffer())
        .then((b) => new Int32Array(b))
        .catch(() => undefined),
    ]);
    return slots ? { ...table, slots } : table;
  });
}
