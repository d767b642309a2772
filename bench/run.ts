// `npm run bench`: the tokenizer and memo benches, printed as tables and written to bench/results.json.
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { benchCorpusMode } from './corpus-mode';
import { benchMemo } from './memo';
import { benchTokenizers } from './tokenizers';

const machine = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  // Timings are best-of/median of several passes, but a busy machine still skews them: record how busy it was.
  loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
};
console.log(`# Token meter benches — ${machine.node}, ${machine.cores} × ${machine.cpu}, load ${machine.loadAverage.join(' ')}`);

// The memo bench first: it is the more sensitive to a heap left full by the other.
const memo = await benchMemo();
const tokenizers = await benchTokenizers();
const corpusMode = await benchCorpusMode();
const out = new URL('./results.json', import.meta.url);
writeFileSync(out, `${JSON.stringify({ machine, tokenizers, memo, corpusMode }, null, 2)}\n`);
console.log(`\nWrote ${out.pathname}`);
