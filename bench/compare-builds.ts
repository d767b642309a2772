// Two builds of the app side by side in one sitting: a build kept from before a change (a copy of
// bench/results/app) against the one `npm run bench` (or `trace-drop.ts --build`) made last, or another kept build,
// each opening the real shared sample after a 300 ms drag, alternated run by run, so the machine's load moves between
// pairs, not within one. `node --import tsx bench/compare-builds.ts BEFORE_DIR [runs] [AFTER_DIR]`; BENCH_TRACE=dir
// traces each run (thread CPU per window: `bench/trace-drop.ts --profile`); COMPARE_PANELS=0 leaves out the walk
// through every panel.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { APP_OUT, startPreview } from './browser/build';
import { measureOpen, REAL_TYPICAL } from './browser/run-browser';

const [before, runsArg, afterArg] = process.argv.slice(2);
if (!before || !existsSync(before)) throw new Error('usage: compare-builds.ts BEFORE_DIR [runs]  (BEFORE_DIR: a kept copy of bench/results/app)');
if (!existsSync(REAL_TYPICAL)) throw new Error('no ../shared/samples beside the repo');
const runs = Number(runsArg ?? 4);
const name = 'claude-code-compacted.jsonl';
for (const dir of [before, afterArg ?? APP_OUT]) {
  mkdirSync(`${dir}/bench-data`, { recursive: true });
  copyFileSync(REAL_TYPICAL, `${dir}/bench-data/${name}`);
}
const servers = { before: await startPreview(before), after: await startPreview(afterArg ?? APP_OUT) };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const rows = { before: [] as number[][], after: [] as number[][] };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (let r = 0; r < runs; r++) {
    const order: ('before' | 'after')[] = r % 2 ? ['after', 'before'] : ['before', 'after'];
    for (const which of order) {
      const input = { name, path: REAL_TYPICAL, bytes: statSync(REAL_TYPICAL).size, spec: {}, generatedSeconds: 0 };
      const m = await measureOpen(browser, servers[which].url, input, { timeoutS: 120, baseline: true, allPanels: process.env.COMPARE_PANELS !== '0', dragMs: 300 });
      rows[which].push([m.firstViewMs ?? NaN, m.exactMs ?? NaN, m.allPanelsMs ?? NaN, m.baseline?.splitParseMs ?? NaN, m.contextViewMs ?? NaN]);
      console.log(`${which}, run ${r + 1}: first view ${m.firstViewMs} ms, context ${m.contextViewMs ?? '?'} ms, exact ${m.exactMs} ms, every panel final ${m.allPanelsMs} ms, split + parse ${m.baseline?.splitParseMs} ms${m.error ? ` (${m.error})` : ''}`);
    }
  }
} finally {
  await browser.close();
  await servers.before.server.close();
  await servers.after.server.close();
}
for (const which of ['before', 'after'] as const) {
  const col = (i: number) => median(rows[which].map((x) => x[i]!));
  console.log(`${which}: first view ${col(0)} ms, context ${col(4)} ms, exact ${col(1)} ms, every panel final ${col(2)} ms, split + parse ${col(3)} ms (medians of ${runs})`);
}
