// Corpus throughput: `corpus --stdin --jsonl` (the path a cluster engine pipes each partition through) over generated
// JSONL corpora of 1k, 10k and 100k trajectories, in this process on one core, with --estimate and with exact
// o200k_base counting, against the floor of splitting the same file into lines and JSON.parse-ing each. Rows per
// second per core are rows over the process's CPU seconds (user + system), so a busy machine's waits do not count.
// Memory: peak RSS while each pass runs, sampled on a timer and every 1,000 rows; rows are streamed and never kept, so
// it should stay flat as the corpus grows. The largest size is scaled by the first BENCH_SCALE fraction (default 1).
// Run alone: `node --expose-gc --import tsx bench/corpus-throughput.ts`.
import { createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCorpus } from '../src/cli/corpus';
import { ByteLineSplitter, isBlankLine } from '../src/corpus/line-splitter';
import { seededRandom, syntheticLines } from '../src/corpus/synthetic';

export interface ThroughputPass {
  trajectories: number;
  mode: 'JSON.parse floor' | 'estimate' | 'o200k_base';
  rows: number;
  cpuMs: number;
  wallMs: number;
  /** Rows per CPU second: what one core gets through. */
  rowsPerCoreSecond: number;
  /** CPU microseconds per row. */
  usPerRow: number;
  /** RSS when the pass started (after a GC) and the most it reached while it ran, MB. */
  startRssMB: number;
  peakRssMB: number;
}

export interface ThroughputBench {
  sizes: { trajectories: number; bytes: number }[];
  passes: ThroughputPass[];
  /** Per size and counter: the corpus's CPU per row over the floor's. */
  overFloor: { trajectories: number; mode: string; ratio: number }[];
  /** The size the growth figures compare the largest with: 10k (1k is still warming the JIT and the heap up). */
  base: number;
  /** Per counter: CPU per row at the largest size over CPU per row at `base` (1 = linear time). */
  growth: { mode: string; ratio: number }[];
  /** Per counter: peak RSS at the largest size minus at `base`, MB (flat memory: near 0). */
  rssGrowthMB: { mode: string; mb: number }[];
}

const mb = (n: number) => Math.round((n / (1 << 20)) * 10) / 10;
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** An OpenAI chat trajectory with tool calls: the single-document shape most datasets hold. */
function chatLine(rnd: () => number, i: number): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent. Use the tools.' },
    { role: 'user', content: `Issue ${i}: the retry loop in client_${i}.py never stops after 3 attempts.` },
  ];
  const steps = 2 + Math.floor(rnd() * 8);
  for (let s = 0; s < steps; s++) {
    const id = `call_${i}_${s}`;
    messages.push({ role: 'assistant', content: `Step ${s}: look at line ${10 * s}.`, tool_calls: [{ id, type: 'function', function: { name: 'execute_bash', arguments: JSON.stringify({ command: `sed -n ${10 * s},${10 * s + 20}p client_${i}.py` }) } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: `${10 * s}: for attempt in range(MAX_RETRIES + 1):\n${10 * s + 1}:     time.sleep(${(rnd() * 3).toFixed(2)})` });
  }
  messages.push({ role: 'assistant', content: 'Fixed: the loop stops after 3 attempts.' });
  return JSON.stringify({ messages, metadata: { session_id: `chat_${i}` } });
}

/** Writes `count` generated trajectories, one per line (three research styles and OpenAI chat), line by line. */
function writeCorpus(path: string, count: number, seed: number): number {
  const fd = openSync(path, 'w');
  const rnd = seededRandom(seed + 1);
  let batch: string[] = [];
  let i = 0;
  const flush = () => {
    writeSync(fd, `${batch.join('\n')}\n`);
    batch = [];
  };
  for (const line of syntheticLines(count, seed)) {
    batch.push(i % 4 === 3 ? chatLine(rnd, i) : line);
    i++;
    if (batch.length === 1000) flush();
  }
  if (batch.length) flush();
  closeSync(fd);
  return statSync(path).size;
}

async function measured(trajectories: number, mode: ThroughputPass['mode'], work: (tick: () => void) => Promise<number>): Promise<ThroughputPass> {
  (globalThis as { gc?: () => void }).gc?.();
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 25);
  const w0 = performance.now();
  const c0 = cpuNow();
  const rows = await work(sample);
  const cpuMs = cpuNow() - c0;
  const wallMs = performance.now() - w0;
  clearInterval(timer);
  sample();
  return { trajectories, mode, rows, cpuMs: Math.round(cpuMs), wallMs: Math.round(wallMs), rowsPerCoreSecond: Math.round(rows / (cpuMs / 1000)), usPerRow: Math.round((cpuMs * 1000) / rows), startRssMB: mb(startRss), peakRssMB: mb(peakRss) };
}

/** The floor: the same bytes split into lines and each line JSON.parse-d, nothing else. */
function floor(path: string, trajectories: number): Promise<ThroughputPass> {
  return measured(trajectories, 'JSON.parse floor', async (tick) => {
    let n = 0;
    const decoder = new TextDecoder();
    const splitter = new ByteLineSplitter((l) => {
      if (isBlankLine(l.bytes)) return;
      JSON.parse(decoder.decode(l.bytes));
      if (++n % 1000 === 0) tick();
    });
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) splitter.push(chunk as Uint8Array);
    splitter.finish();
    return n;
  });
}

/** `corpus --stdin --jsonl [--estimate]` in this process, its stdout counted and dropped. */
function corpus(path: string, trajectories: number, estimate: boolean): Promise<ThroughputPass> {
  return measured(trajectories, estimate ? 'estimate' : 'o200k_base', async (tick) => {
    let n = 0;
    const args = ['--stdin', '--jsonl', ...(estimate ? ['--estimate'] : [])];
    const code = await runCorpus(args, {
      out: () => {
        if (++n % 1000 === 0) tick();
      },
      err: (t) => {
        throw new Error(`corpus reported a problem on generated input: ${t}`);
      },
      stdin: createReadStream(path, { highWaterMark: 1 << 20 }),
    });
    if (code !== 0) throw new Error(`corpus --stdin exited ${code}`);
    return n;
  });
}

export async function benchCorpusThroughput(scale = Number((process.env['BENCH_SCALE'] ?? '1').split(',')[0]) || 1, seed = 7): Promise<ThroughputBench> {
  const sizes = [...new Set([1_000, 10_000, Math.max(1_000, Math.round(100_000 * scale))])].sort((a, b) => a - b);
  const dir = mkdtempSync(join(tmpdir(), 'corpus-throughput-'));
  const passes: ThroughputPass[] = [];
  const files: { trajectories: number; bytes: number }[] = [];
  console.log(`\n## Corpus throughput: corpus --stdin --jsonl on one core, ${sizes.map((s) => s.toLocaleString('en-US')).join(' / ')} generated trajectories`);
  try {
    // Warm up: the modules and the exact encoder's rank table load, and the JIT settles, outside every pass (a 200-row
    // warm-up left the 1k passes at half the speed of the later ones).
    const warm = join(dir, 'warm.jsonl');
    writeCorpus(warm, 2000, seed + 100);
    await corpus(warm, 2000, false);
    await corpus(warm, 2000, true);
    for (const n of sizes) {
      const path = join(dir, `corpus-${n}.jsonl`);
      files.push({ trajectories: n, bytes: writeCorpus(path, n, seed) });
      for (const run of [() => floor(path, n), () => corpus(path, n, true), () => corpus(path, n, false)]) {
        const p = await run();
        passes.push(p);
        // Each pass as it ends: the 100k passes take minutes.
        console.log(`  ${n.toLocaleString('en-US')} ${p.mode}: ${p.rowsPerCoreSecond.toLocaleString('en-US')} rows / s / core, peak RSS ${p.peakRssMB} MB`);
      }
      rmSync(path);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const get = (n: number, mode: string) => passes.find((p) => p.trajectories === n && p.mode === mode)!;
  const overFloor = sizes.flatMap((n) => (['estimate', 'o200k_base'] as const).map((mode) => ({ trajectories: n, mode, ratio: +(get(n, mode).usPerRow / Math.max(1, get(n, 'JSON.parse floor').usPerRow)).toFixed(1) })));
  const modes = ['JSON.parse floor', 'estimate', 'o200k_base'];
  // 1k rows still include the JIT's and the heap's growing to their steady size: compare the largest with 10k.
  const first = sizes.length > 2 ? sizes[1]! : sizes[0]!;
  const last = sizes.at(-1)!;
  const growth = modes.map((mode) => ({ mode, ratio: +(get(last, mode).usPerRow / Math.max(1, get(first, mode).usPerRow)).toFixed(2) }));
  const rssGrowthMB = modes.map((mode) => ({ mode, mb: +(get(last, mode).peakRssMB - get(first, mode).peakRssMB).toFixed(1) }));

  console.log('\n| trajectories | MB | pass | rows | CPU ms | wall ms | rows / s / core | µs CPU / row | × floor | RSS at start → peak, MB |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of passes) {
    const bytes = files.find((f) => f.trajectories === p.trajectories)!.bytes;
    const ratio = overFloor.find((o) => o.trajectories === p.trajectories && o.mode === p.mode)?.ratio;
    console.log(`| ${p.trajectories.toLocaleString('en-US')} | ${mb(bytes)} | ${p.mode} | ${p.rows} | ${p.cpuMs} | ${p.wallMs} | ${p.rowsPerCoreSecond.toLocaleString('en-US')} | ${p.usPerRow} | ${ratio === undefined ? '1' : ratio} | ${p.startRssMB} → ${p.peakRssMB} |`);
  }
  console.log(`\nTime per row, ${last.toLocaleString('en-US')} against ${first.toLocaleString('en-US')} trajectories (1 = linear): ${growth.map((g) => `${g.mode} ${g.ratio}×`).join(', ')}.`);
  console.log(`Peak RSS, ${last.toLocaleString('en-US')} against ${first.toLocaleString('en-US')} trajectories: ${rssGrowthMB.map((g) => `${g.mode} ${g.mb >= 0 ? '+' : ''}${g.mb} MB`).join(', ')}.`);
  return { sizes: files, passes, overFloor, base: first, growth, rssGrowthMB };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCorpusThroughput();
