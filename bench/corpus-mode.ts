// Corpus mode at scale: 10k small synthetic trajectories (Self-Sum, Agent-Omit, reasoning traces; seeded) written
// to a temp dir, then measured the way the app and the CLI do — each file streamed from disk, one row kept
// per trajectory, no text kept — until the metrics table is ready. Reports the time and the peak memory
// (heap sampled after every file and on a timer, plus RSS). Run alone: `node --import tsx bench/corpus-mode.ts`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { measureCorpus, walkCorpus } from '../src/cli/corpus';
import type { CorpusRow } from '../src/corpus/corpus-row';
import { syntheticCorpus } from '../src/corpus/synthetic';

export interface CorpusModePass {
  mode: string;
  threads: number;
  counter: string;
  ms: number;
  rows: number;
  perTrajectoryMs: number;
  /** Peak V8 heap used in the main thread, MB (workers' heaps are in RSS only). */
  peakHeapMB: number;
  peakRssMB: number;
}

export interface CorpusModeBench {
  files: number;
  bytes: number;
  seed: number;
  generateMs: number;
  /** Heap used before measuring, MB: the peak's baseline. */
  baselineHeapMB: number;
  passes: CorpusModePass[];
}

const mb = (n: number) => Math.round((n / (1 << 20)) * 10) / 10;

async function pass(dir: string, mode: string, threads: number, estimate: boolean): Promise<CorpusModePass> {
  const files = walkCorpus([dir]).files;
  let peakHeap = 0;
  let peakRss = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 20);
  const rows: CorpusRow[] = [];
  const t0 = performance.now();
  await measureCorpus(files, { threads, estimate }, { row: (r) => (rows.push(r), rows.length % 100 === 0 && sample()), issue: () => {} });
  const ms = performance.now() - t0;
  clearInterval(timer);
  sample();
  return { mode, threads, counter: rows[0]?.token_counter ?? '?', ms: Math.round(ms), rows: rows.length, perTrajectoryMs: +(ms / rows.length).toFixed(3), peakHeapMB: mb(peakHeap), peakRssMB: mb(peakRss) };
}

export async function benchCorpusMode(count = 10_000, seed = 42): Promise<CorpusModeBench> {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-bench-'));
  try {
    const t0 = performance.now();
    let bytes = 0;
    for (const f of syntheticCorpus(count, seed)) {
      writeFileSync(join(dir, f.name), f.text);
      bytes += f.text.length;
    }
    const generateMs = Math.round(performance.now() - t0);
    (globalThis as { gc?: () => void }).gc?.();
    const baselineHeapMB = mb(getHeapStatistics().used_heap_size);
    console.log(`\n## Corpus mode: ${count.toLocaleString('en-US')} synthetic trajectories (${mb(bytes)} MB, seed ${seed}), metrics table ready`);
    const threads = Math.max(1, availableParallelism() - 1);
    const passes = [await pass(dir, 'in process', 0, false), await pass(dir, 'in process', 0, true), await pass(dir, 'worker threads', threads, false)];
    console.log('\n| mode | threads | tokens | ms | rows | ms / trajectory | peak heap MB | peak RSS MB |\n|---|---:|---|---:|---:|---:|---:|---:|');
    for (const p of passes) console.log(`| ${p.mode} | ${p.threads} | ${p.counter} | ${p.ms} | ${p.rows} | ${p.perTrajectoryMs} | ${p.peakHeapMB} | ${p.peakRssMB} |`);
    console.log(`\nBaseline heap before measuring: ${baselineHeapMB} MB; generating the files took ${generateMs} ms.`);
    return { files: count, bytes, seed, generateMs, baselineHeapMB, passes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCorpusMode();
