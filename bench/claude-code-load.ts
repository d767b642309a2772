// Loading a long Claude Code session: a realistic chain of tool calls (bench/generators/claude-code-session,
// no compaction, ~850 bytes a record as in the 25 MB / 30k-record session of issue 20) at 10k, 30k and 100k
// records, each written to a temp file and opened (1) in process with loadFiles, as the app's load worker
// does, and (2) by the built CLI, `compaction-inspector inspect FILE --no-cache`, as a user first opens it (a fresh Node each time,
// so its start-up is in the figure). Budgets: the CLI opens 30k records in under 3 s, and the time per
// record at 100k is at most twice the one at 10k (linear growth; the old parent walk was quadratic).
// Run alone: `node --expose-gc --import tsx bench/claude-code-load.ts`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadFiles } from '../src/load/loader';
import { claudeCodeLines } from './generators/claude-code-session';

export interface ClaudeCodeLoadRow {
  records: number;
  bytes: number;
  items: number;
  /** In-process loadFiles, best of the passes. */
  loadMs: number;
  /** `compaction-inspector inspect FILE --no-cache`, wall time of the whole process, best of the passes. */
  cliMs: number;
  /** loadMs per 1,000 records. */
  loadMsPer1k: number;
}

export interface ClaudeCodeLoadBench {
  rows: ClaudeCodeLoadRow[];
  /** loadMs per record at the largest size over the one at the smallest: ~1 is linear, ~10 quadratic. */
  growth: number;
  cli30kMs: number | null;
  ok: boolean;
}

export const CLAUDE_CODE_LOAD_SIZES = [10_000, 30_000, 100_000];
const BYTES_PER_RECORD = 850;
// The CLI as a package ships it (dist-cli/, plain JavaScript): a checkout's bin runs the TypeScript through tsx,
// whose compile would be measured instead of the CLI.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const cliScript = (args: string[]) =>
  `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist-cli', 'main.mjs')).href)}); process.exitCode = await m.run(${JSON.stringify(args)});`;

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
  const dir = mkdtempSync(join(tmpdir(), 'cc-load-bench-'));
  const rows: ClaudeCodeLoadRow[] = [];
  try {
    for (const records of sizes) {
      const file = join(dir, `session-${records}.jsonl`);
      let text = '';
      for (const line of claudeCodeLines({ seed: 20, records, bytes: records * BYTES_PER_RECORD, compactions: 0 })) text += `${line}\n`;
      writeFileSync(file, text);
      text = '';
      const bytes = new Uint8Array(readFileSync(file));
      let items = 0;
      const passes = records > 50_000 ? 2 : 3;
      const loadMs = best(passes, () => {
        const loaded = loadFiles([{ name: 'session.jsonl', bytes }]);
        if (loaded.issues.some((i) => i.severity === 'error')) throw new Error(`the generated session did not load: ${loaded.issues[0]!.message}`);
        items = loaded.sessions[0]!.items.length;
      });
      // --no-cache: a first open analyses the session; without it every pass after the first read the result back.
      const cliMs = best(passes, () => execFileSync(process.execPath, ['--input-type=module', '-e', cliScript(['inspect', file, '--no-cache'])], { stdio: 'ignore' }));
      rows.push({ records, bytes: bytes.length, items, loadMs, cliMs, loadMsPer1k: +((loadMs / records) * 1000).toFixed(2) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const growth = +(last.loadMsPer1k / first.loadMsPer1k).toFixed(2);
  const cli30kMs = rows.find((r) => r.records === 30_000)?.cliMs ?? null;
  const ok = growth <= 2 && (cli30kMs === null || cli30kMs < 3000);
  console.log(`\n## Claude Code load: a generated chain of tool calls, no compaction (issue 20)\n`);
  console.log('| records | MB | items | loadFiles ms | ms / 1k records | CLI `inspect` ms |\n|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.records.toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(1)} | ${r.items.toLocaleString('en-US')} | ${r.loadMs} | ${r.loadMsPer1k} | ${r.cliMs} |`);
  console.log(`\nGrowth (ms per record at ${last.records.toLocaleString('en-US')} ÷ at ${first.records.toLocaleString('en-US')}): ${growth}× (budget ≤ 2×, linear ≈ 1); CLI at 30k: ${cli30kMs ?? '—'} ms (budget < 3000). ${ok ? 'ok' : 'MISSED'}`);
  return { rows, growth, cli30kMs, ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchClaudeCodeLoad();
