// Where gpt-tokenizer's rank tables come from. Node imports the package's modules. A browser worker fetches the
// JSON copy the build emits (app/build/rank-tables.ts): parsing 2 MB of JSON takes a tenth of the time the
// browser spends compiling the same table written as a JavaScript array literal. The built CLI reads them packed
// (rank-lookup.ts, bin/build-cli.mjs).
import type { EncodingName } from './encoding';
// With its extension: the app's Vite config reads this module (app/build/rank-tables.ts), and Node's own loader does
// not add one.
import { isPackedRanks, unpackRanks, type PackedRanks, type RankTable } from './rank-lookup.ts';

export type { RankTable };

export type RankTableSource = (encoding: EncodingName) => Promise<RankTable | PackedRanks>;

async function importRankTable(encoding: EncodingName): Promise<RankTable | PackedRanks> {
  // Literal specifiers, so a bundler splits each table into its own chunk (the CLI's build swaps in packed JSON).
  const mod = encoding === 'o200k_base' ? await import('gpt-tokenizer/bpeRanks/o200k_base') : await import('gpt-tokenizer/bpeRanks/cl100k_base');
  return mod.default as RankTable | PackedRanks;
}

let source: RankTableSource = importRankTable;

/** Loads tables from elsewhere from now on (a worker: the build's JSON copies). Counters already built keep theirs. */
export function setRankTableSource(next: RankTableSource): void {
  source = next;
}

/** The table as gpt-tokenizer's modules write it. */
export async function loadRankTable(encoding: EncodingName): Promise<RankTable> {
  const data = await source(encoding);
  return isPackedRanks(data) ? unpackRanks(data) : data;
}

/** The table in whichever form its source holds it (the counter reads both). */
export function loadRankData(encoding: EncodingName): Promise<RankTable | PackedRanks> {
  return source(encoding);
}
