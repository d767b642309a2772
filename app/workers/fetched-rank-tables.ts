// Workers that count load gpt-tokenizer's rank tables as the JSON the build emits (see app/build/rank-tables.ts).
import { rankTableRequest } from '../data/rank-table-request';
import { setRankTableSource, type RankTable } from '../../src/tokens/rank-tables';

export function installFetchedRankTables(): void {
  setRankTableSource(async (encoding) => {
    const { url, init } = rankTableRequest(encoding);
    const res = await fetch(url, init);
    if (!res.ok) throw new Error(`the ${encoding} rank table could not be loaded from ${url}: HTTP ${res.status}`);
    return (await res.json()) as RankTable;
  });
}
