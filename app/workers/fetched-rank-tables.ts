// Workers that count load gpt-tokenizer's rank tables as the JSON the build emits (see app/build/rank-tables.ts).
import rankTableUrls from 'virtual:rank-table-urls';
import { setRankTableSource, type RankTable } from '../../src/tokens/rank-tables';

export function installFetchedRankTables(): void {
  setRankTableSource(async (encoding) => {
    const url = rankTableUrls[encoding];
    const res = await fetch(url, { credentials: 'omit' });
    if (!res.ok) throw new Error(`the ${encoding} rank table could not be loaded from ${url}: HTTP ${res.status}`);
    return (await res.json()) as RankTable;
  });
}
