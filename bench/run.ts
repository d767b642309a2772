// `npm run bench`: the tokenizer and memo benches, printed as tables and written to bench/results.json.
// Then the scale budgets of issue 9 in headless Chromium (bench/browser), as a budget table (bench/report.ts).
// BENCH_ONLY=node|browser runs one half, BENCH_ONLY=cli only the installed package's rows (its size, the CLI against
// ccusage; results.json gets those and keeps the rest), BENCH_ONLY=typical only the typical 3 MB session row, real
// only the real shared sample's rows (built app and dev server), long only the long-session rows (CLI and app), large
// only the main-thread rows on large inputs (a 100 MB bundle, one 100 MB line, 3,000 compactions), serve only the
// served table's page on 1,000 sessions (bench/browser/serve-page.ts); BENCH_SCALE=1,0.05
// (the default) lists the fractions of the sizes to run; BENCH_TIMEOUT_S bounds each wait in the app (default 90).
import { availableParallelism, cpus, loadavg } from 'node:os';
import { benchBrowser, type BrowserBench, type LargeMeasure, type LongAppMeasure, type RealMeasure, type TypicalMeasure } from './browser/run-browser';
import { benchCachePrefix, type CachePrefixBench } from './cache-prefix';
import { benchClaudeCodeLoad, type ClaudeCodeLoadBench } from './claude-code-load';
import { readFileSync } from 'node:fs';
import { benchCliVsCcusage, printCliVsCcusage } from './cli-vs-ccusage';
import { benchCorpusMode } from './corpus-mode';
import { benchCorpusThroughput } from './corpus-throughput';
import { benchLinearInputs, printLinearRows } from './linear-inputs';
import { benchMemo } from './memo';
import { benchServeListing, serveListingLine } from './serve-listing';
import type { ServePageMeasure } from './browser/serve-page';
import { budgetRows, largeRows, longRows, machineInfo, printTable, realRows, serveRows, typicalRows, writeResults } from './report';
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

const only = process.env['BENCH_ONLY'];
if (only === 'cli') {
  const cliVsCcusage = benchCliVsCcusage();
  printCliVsCcusage(cliVsCcusage);
  const last = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  console.log(`\nWrote ${writeResults({ ...last, cliVsCcusage, cliMachine: machine })}`);
  process.exit(0);
}
const partial = only === 'typical' || only === 'large' || only === 'real' || only === 'long' || only === 'serve';
const timeoutS = Number(process.env['BENCH_TIMEOUT_S'] ?? 90);
let node: Record<string, unknown> = {};
let cachePrefix: CachePrefixBench | null = null;
let claudeCodeLoad: ClaudeCodeLoadBench | null = null;
if (only === 'long') claudeCodeLoad = benchClaudeCodeLoad();
else if (only !== 'browser' && !partial) {
  // The memo bench first: it is the more sensitive to a heap left full by the other.
  const memo = await benchMemo();
  const tokenizers = await benchTokenizers();
  const corpusMode = await benchCorpusMode();
  const corpusThroughput = await benchCorpusThroughput();
  cachePrefix = benchCachePrefix();
  console.log(`\n## Cache prefix (Node): ${cachePrefix.calls} calls of ~${cachePrefix.avgTokens} tokens: ${cachePrefix.fastMs.toFixed(1)} ms vs naive ${cachePrefix.naiveMs.toFixed(1)} ms (${cachePrefix.ratio.toFixed(1)}×), agree: ${cachePrefix.agree}`);
  const linearInputs = benchLinearInputs();
  printLinearRows(linearInputs);
  claudeCodeLoad = benchClaudeCodeLoad();
  const cliVsCcusage = benchCliVsCcusage();
  printCliVsCcusage(cliVsCcusage);
  const serveListing = await benchServeListing();
  console.log(serveListingLine(serveListing));
  node = { tokenizers, memo, corpusMode, corpusThroughput, cachePrefix, linearInputs, claudeCodeLoad, cliVsCcusage, serveListing };
}
let browser: BrowserBench[] = [];
let typical: TypicalMeasure | null = null;
let large: LargeMeasure[] = [];
let real: RealMeasure | null = null;
let long: LongAppMeasure[] = [];
let servePage: ServePageMeasure | null = null;
if (only !== 'node') {
  console.log('\n## Scale benches in headless Chromium');
  // The sizes, then 5% of them: where the full size misses, the small run shows how far off it is.
  const scales = partial ? [] : (process.env['BENCH_SCALE'] ?? '1,0.05').split(',').map(Number);
  const parts = { typical: !partial || only === 'typical', large: !partial || only === 'large', real: !partial || only === 'real', long: !partial || only === 'long', serve: !partial || only === 'serve' };
  ({ results: browser, typical, large, real, long, serve: servePage } = await benchBrowser({ timeoutS, steps: 200, stride: 8 }, scales, parts));
}
const extra = [...realRows(real, timeoutS), ...longRows(claudeCodeLoad, long), ...serveRows(servePage)];
const budgets = browser.map((b, i) => ({ scale: b.scale, rows: [...budgetRows(b, cachePrefix, timeoutS), ...(i === 0 ? [...extra, ...largeRows(large)] : [])] }));
for (const b of budgets) printTable(b.rows, b.scale);
if (budgets.length === 0) printTable([...(typical ? typicalRows(typical, timeoutS) : []), ...extra, ...largeRows(large)]);
// A partial run (the typical, real, long, large or serve rows alone) leaves the last full run's results.json as it was.
if (!partial) {
  const out = writeResults({ machine: { ...machine, ...machineInfo(browser[0]?.chromium ?? null) }, budgets, browser, typical, real, long, large, servePage, ...node });
  console.log(`\nWrote ${out}`);
}
