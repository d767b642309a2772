// Workers that count load gpt-tokenizer's rank tables as the JSON the build emits (see app/build/rank-tables.ts).
import rankTableUrls from 'virtual:rank-table-urls';
import { setRankTableSource, type RankTable } from '../../src/tokens/rank-tables';

export function installFetchedRankTables(): void {
  setRankTableSource(async (encoding) => {
    // Resolved against this module's own address: a worker started from a blob: URL (policed-worker.ts) has no base
    // that a path like /assets/… resolves against.
    const url = new URL(rankTableUrls[encoding], import.meta.url).href;
    const res = await fetch(url, { credentials: 'omit' });
    if (!res.ok) throw new Error(`the ${encoding} rank table could not be loaded from ${url}: HTTP ${res.status}`);
    return (await res.json()) as RankTable;
  });
}
