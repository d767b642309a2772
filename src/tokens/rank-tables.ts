// Where gpt-tokenizer's rank tables come from. Node imports the package's modules. A browser worker fetches the
// JSON copy the build emits (app/build/rank-tables.ts): parsing 2 MB of JSON takes a tenth of the time the
// browser spends compiling the same table written as a JavaScript array literal.
import type { EncodingName } from './encoding';

/** gpt-tokenizer's mergeable ranks: each token's text, or its bytes when they are not valid UTF-8. */
export type RankTable = (string | number[])[];
export type RankTableSource = (encoding: EncodingName) => Promise<RankTable>;

async function importRankTable(encoding: EncodingName): Promise<RankTable> {
  // Literal specifiers, so a bundler splits each table into its own chunk.
  const mod = encoding === 'o200k_base' ? await import('gpt-tokenizer/bpeRanks/o200k_base') : await import('gpt-tokenizer/bpeRanks/cl100k_base');
  return mod.default as RankTable;
}

let source: RankTableSource = importRankTable;

/** Loads tables from elsewhere from now on (a worker: the build's JSON copies). Counters already built keep theirs. */
export function setRankTableSource(next: RankTableSource): void {
  source = next;
}

export function loadRankTable(encoding: EncodingName): Promise<RankTable> {
  return source(encoding);
}
