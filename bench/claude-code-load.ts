// A long Claude Code session of realistic shape (issue 33; CLAUDE_CODE_LONG: 30k records, ~26 MB, ~8.5k model
// calls, no compaction, tools in the real mix with outputs of their real spreads), opened (1) in process with
// loadFiles, as the app's load worker does, at its first 10k records, all 30k, and the same shape generated at 100k;
// and (2) by the built CLI, `compaction-inspector inspect FILE --json --no-cache`, at 10k and 30k records, as a user
// first opens it: a fresh Node each time (its start-up is in the figure), the result cache off and pointed at an
// empty folder, so a read-back can never stand in for the analysis. Budgets: the CLI analyses 30k records in at most
// 3 s, its time per record at 30k is within 1.5× the one at 10k, and loadFiles' time per record at 100k is within 2×
// the one at 10k (linear growth; the old parent walk was quadratic). Each CLI figure is the best of its passes, wall
// time and the process's CPU time (all threads) beside it: on a shared machine the wall time moves with the load.
// Run alone: `node --expose-gc --import tsx bench/claude-code-load.ts`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadFiles } from '../src/load/loader';
import { ensureLong } from './browser/data';

export interface ClaudeCodeLoadRow {
  records: number;
  bytes: number;
  items: number;
  /** In-process loadFiles, best of the passes. */
  loadMs: number;
  /** loadMs per 1,000 records. */
  loadMsPer1k: number;
  /** `inspect FILE --json --no-cache`, wall time of the whole process, best of the passes; null where not run. */
  cliMs: number | null;
  /** The same pass's CPU time (user + system, every thread of the process). */
  cliCpuMs: number | null;
  /** Model calls of the session (from the CLI's report). */
  calls: number | null;
}

export interface ClaudeCodeLoadBench {
  rows: ClaudeCodeLoadRow[];
  /** loadMs per record at the largest size over the one at the smallest: ~1 is linear, ~10 quadratic. */
  growth: number;
  cli30kMs: number | null;
  cli30kCpuMs: number | null;
  /** The CLI's time per record at 30k over the one at 10k. */
  cliGrowth: number | null;
  ok: boolean;
}

export const CLAUDE_CODE_LOAD_SIZES = [10_000, 30_000, 100_000];
const CLI_SIZES = new Set([10_000, 30_000]);
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The CLI as a package ships it (dist-cli/, plain JavaScript), reporting its own CPU time on exit to `cpuFile`. */
const cliScript = (args: string[], cpuFile: string) =>
  `import { writeFileSync } from 'node:fs';
const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist-cli', 'main.mjs')).href)});
process.exitCode = await m.run(${JSON.stringify(args)});
const u = process.cpuUsage();
writeFileSync(${JSON.stringify(cpuFile)}, String(Math.round((u.user + u.system) / 1000)));`;

function best(passes: number, run: () => void): number {
  let min = Infinity;
  for (let i = 0; i < passes; i++) {
    // Start each pass from a collected heap (when node runs with --expose-gc): the previous size's garbage is not this one's cost.
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    run();
    min = Math.min(min, performance.now() - t0);
  }
  return Math.round(min);
}

export function benchClaudeCodeLoad(sizes = CLAUDE_CODE_LOAD_SIZES): ClaudeCodeLoadBench {
  execFileSync(process.execPath, [join(ROOT, 'bin', 'build-cli.mjs')], { cwd: ROOT });
  const files = ensureLong(sizes);
  const dir = mkdtempSync(join(tmpdir(), 'cc-load-bench-'));
  const rows: ClaudeCodeLoadRow[] = [];
  try {
    for (const records of sizes) {
      const input = files.get(records)!;
      const bytes = new Uint8Array(readFileSync(input.path));
      let items = 0;
      const loadMs = best(records > 50_000 ? 2 : 3, () => {
        const loaded = loadFiles([{ name: 'session.jsonl', bytes }]);
        if (loaded.issues.some((i) => i.severity === 'error')) throw new Error(`the generated session did not load: ${loaded.issues[0]!.message}`);
        items = loaded.sessions[0]!.items.length;
      });
      let cliMs: number | null = null;
      let cliCpuMs: number | null = null;
      let calls: number | null = null;
      if (CLI_SIZES.has(records)) {
        const cpuFile = join(dir, 'cpu');
        const env = { ...process.env, COMPACTION_INSPECTOR_CACHE_DIR: join(dir, 'cache') };
        for (let pass = 0; pass < (records > 20_000 ? 2 : 3); pass++) {
          (globalThis as { gc?: () => void }).gc?.();
          const t0 = performance.now();
          const out = execFileSync(process.execPath, ['--input-type=module', '-e', cliScript(['inspect', input.path, '--json', '--no-cache'], cpuFile)], { env, maxBuffer: 1 << 30 });
          const ms = Math.round(performance.now() - t0);
          if (cliMs === null || ms < cliMs) {
            cliMs = ms;
            cliCpuMs = Number(readFileSync(cpuFile, 'utf8'));
          }
          calls ??= (JSON.parse(out.toString('utf8')) as { sessions: { facts: { calls: number } }[] }).sessions[0]!.facts.calls;
        }
      }
      rows.push({ records, bytes: bytes.length, items, loadMs, loadMsPer1k: +((loadMs / records) * 1000).toFixed(2), cliMs, cliCpuMs, calls });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const growth = +(last.loadMsPer1k / first.loadMsPer1k).toFixed(2);
  const at = (n: number) => rows.find((r) => r.records === n && r.cliMs !== null) ?? null;
  const r10 = at(10_000);
  const r30 = at(30_000);
  const cliGrowth = r10 && r30 ? +((r30.cliMs! / 30_000) / (r10.cliMs! / 10_000)).toFixed(2) : null;
  const cli30kMs = r30?.cliMs ?? null;
  const ok = growth <= 2 && (cli30kMs === null || cli30kMs <= 3000) && (cliGrowth === null || cliGrowth <= 1.5);
  console.log(`\n## A long Claude Code session of realistic shape (issue 33): loadFiles, and inspect --json --no-cache\n`);
  console.log('| records | MB | calls | items | loadFiles ms | ms / 1k records | CLI `inspect --json --no-cache` ms | its CPU ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.records.toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(1)} | ${r.calls?.toLocaleString('en-US') ?? '—'} | ${r.items.toLocaleString('en-US')} | ${r.loadMs} | ${r.loadMsPer1k} | ${r.cliMs ?? '—'} | ${r.cliCpuMs ?? '—'} |`);
  console.log(
    `\nloadFiles growth (ms per record at ${last.records.toLocaleString('en-US')} ÷ at ${first.records.toLocaleString('en-US')}): ${growth}× (budget ≤ 2×); ` +
      `CLI at 30k: ${cli30kMs ?? '—'} ms (budget ≤ 3000; CPU ${r30?.cliCpuMs ?? '—'} ms), per record at 30k ÷ at 10k: ${cliGrowth ?? '—'}× (budget ≤ 1.5×). ${ok ? 'ok' : 'MISSED'}`,
  );
  return { rows, growth, cli30kMs, cli30kCpuMs: r30?.cliCpuMs ?? null, cliGrowth, ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchClaudeCodeLoad();
