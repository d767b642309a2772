// The CLI as a user gets it against ccusage on the same files. The package is packed (`npm pack`) and installed
// from its tarball into an empty folder, offline, as `npx compaction-inspector` would; its installed size is a row
// of its own. Then process start plus `inspect --json` on four 3 MB Claude Code sessions (shaped like the shared
// real sample, CLAUDE_CODE_TYPICAL, one seed each), against `ccusage session --json --offline` reading the same
// four from a Claude config folder, in alternated runs (medians). Budget (issue 34): at most 1.5× ccusage cold.
// Two rows: sessions never seen (`--no-cache`: every session analysed) and seen before (read back from the result
// cache, as a second `inspect` of a folder is). When ../shared/samples is beside the repo, the real 3 MB sample is
// measured too, read in place, and so are the session files BENCH_CLI_SESSIONS names. Each run's CPU time (all
// threads) is recorded beside its wall time.
// ccusage is a dev dependency (or CCUSAGE_BIN); without it the row says so. Run alone: `BENCH_ONLY=cli npm run bench`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from './generators/claude-code-session';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const REAL_SAMPLE = join(ROOT, '..', 'shared', 'samples', 'claude-code-compacted.jsonl');

export interface Timing {
  /** Median wall time of the runs, ms. */
  ms: number;
  /** Median CPU time of the runs (user + system, every thread), ms. */
  cpuMs: number;
}

export interface CliRow {
  sessions: string;
  files: number;
  cold: Timing;
  /** Read back from the result cache; null where not measured. */
  cached: Timing | null;
  ccusage: Timing | null;
  /** cold.ms / ccusage.ms; null without ccusage. */
  coldRatio: number | null;
  cachedRatio: number | null;
  /** The same, in CPU time. */
  coldCpuRatio: number | null;
}

export interface CliVsCcusageBench {
  runs: number;
  /** What `npm install` of the tarball leaves in node_modules, in bytes, and how many packages. */
  installed: { bytes: number; packages: number; tarballBytes: number };
  ccusageVersion: string | null;
  rows: CliRow[];
  note: string | null;
}

function ccusageBin(): { bin: string; version: string } | null {
  const fromEnv = process.env['CCUSAGE_BIN'];
  let pkgPath: string;
  try {
    pkgPath = fromEnv ? join(dirname(fromEnv), '..', 'package.json') : createRequire(import.meta.url).resolve('ccusage/package.json');
    const pkg = JSON.parse(execFileSync(process.execPath, ['-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(pkgPath)}, 'utf8'))`], { encoding: 'utf8' })) as { version: string; bin: string | Record<string, string> };
    return { bin: fromEnv ?? join(dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['ccusage']!), version: pkg.version };
  } catch {
    return null;
  }
}

function bytesUnder(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + bytesUnder(join(path, f)), 0) : s.size;
}

/** Packs the checkout and installs the tarball into `dir`/project, offline; returns the installed bin. */
export function installPacked(dir: string): { bin: string; installed: CliVsCcusageBench['installed'] } {
  execFileSync(process.execPath, [join(ROOT, 'bin', 'build-cli.mjs')], { cwd: ROOT });
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT });
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
  const tarball = join(dir, info!.filename);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "bench", "private": true }\n');
  execFileSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--cache', join(dir, 'npm-cache')], { cwd: project });
  const modules = join(project, 'node_modules');
  const packages = readdirSync(modules).filter((f) => !f.startsWith('.')).length;
  return { bin: join(modules, 'compaction-inspector', 'bin', 'compaction-inspector.mjs'), installed: { bytes: bytesUnder(modules), packages, tarballBytes: statSync(tarball).size } };
}

/** Runs a Node script and returns its wall and CPU time; the CPU time is read by a preload at exit. */
function timed(preload: string, args: string[], env: NodeJS.ProcessEnv): Timing {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(preload).href, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr.toString().slice(0, 400)}`);
  const cpu = /CPU_US=(\d+)/.exec(r.stderr.toString());
  return { ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const medianOf = (ts: Timing[]): Timing => ({ ms: Math.round(median(ts.map((t) => t.ms))), cpuMs: Math.round(median(ts.map((t) => t.cpuMs))) });
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export function benchCliVsCcusage(runs = 5): CliVsCcusageBench {
  const dir = mkdtempSync(join(tmpdir(), 'cli-vs-ccusage-'));
  try {
    const preload = join(dir, 'cpu.mjs');
    writeFileSync(preload, "import { writeSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.cpuUsage(); writeSync(2, `\\nCPU_US=${u.user + u.system}\\n`); });\n");
    const { bin, installed } = installPacked(dir);
    const cc = ccusageBin();
    const sets: { sessions: string; claudeDir: string; files: string[]; cached: boolean }[] = [];
    const generated = join(dir, 'generated');
    const project = join(generated, 'projects', '-bench-project');
    mkdirSync(project, { recursive: true });
    const files = [0, 1, 2, 3].map((i) => {
      const f = join(project, `0000000${i}-0000-4000-8000-00000000000${i}.jsonl`);
      writeFileSync(f, claudeCodeSession({ ...CLAUDE_CODE_TYPICAL, seed: 100 + i }));
      return f;
    });
    sets.push({ sessions: `4 generated 3 MB Claude Code sessions`, claudeDir: generated, files, cached: true });
    if (existsSync(REAL_SAMPLE)) {
      // ccusage reads a Claude config folder: the sample is linked in, never copied.
      const real = join(dir, 'real', 'projects', '-sample');
      mkdirSync(real, { recursive: true });
      execFileSync('ln', ['-s', REAL_SAMPLE, join(real, 'claude-code-compacted.jsonl')]);
      sets.push({ sessions: 'the real 3 MB Claude Code sample', claudeDir: join(dir, 'real'), files: [REAL_SAMPLE], cached: false });
    }
    // BENCH_CLI_SESSIONS: real Claude Code session files of the user's choice (comma-separated), the issue's "four
    // real 3 MB sessions": linked into a config folder for ccusage, read in place by the CLI.
    const chosen = (process.env['BENCH_CLI_SESSIONS'] ?? '').split(',').filter(Boolean);
    if (chosen.length > 0) {
      const folder = join(dir, 'chosen', 'projects', '-chosen');
      mkdirSync(folder, { recursive: true });
      chosen.forEach((f, i) => execFileSync('ln', ['-s', f, join(folder, `${i}-${f.split('/').pop()}`)]));
      sets.push({ sessions: `${chosen.length} real Claude Code sessions of BENCH_CLI_SESSIONS`, claudeDir: join(dir, 'chosen'), files: chosen, cached: false });
    }
    const rows: CliRow[] = [];
    for (const set of sets) {
      const cliEnv = { ...process.env, COMPACTION_INSPECTOR_CACHE_DIR: join(dir, 'cache') };
      const cold = [bin, 'inspect', '--json', '--no-cache', ...set.files];
      const warm = [bin, 'inspect', '--json', ...set.files];
      const ccArgs = cc ? [cc.bin, 'session', '--json', '--offline'] : null;
      const ccEnv = { ...process.env, CLAUDE_CONFIG_DIR: set.claudeDir };
      // One warm-up each (file cache); the cached run's warm-up is the run that fills the cache. Then alternated runs.
      timed(preload, cold, cliEnv);
      if (set.cached) timed(preload, warm, cliEnv);
      if (ccArgs) timed(preload, ccArgs, ccEnv);
      const c: Timing[] = [];
      const w: Timing[] = [];
      const theirs: Timing[] = [];
      for (let i = 0; i < runs; i++) {
        c.push(timed(preload, cold, cliEnv));
        if (set.cached) w.push(timed(preload, warm, cliEnv));
        if (ccArgs) theirs.push(timed(preload, ccArgs, ccEnv));
      }
      const coldT = medianOf(c);
      const cachedT = set.cached ? medianOf(w) : null;
      const ccT = ccArgs ? medianOf(theirs) : null;
      rows.push({
        sessions: set.sessions,
        files: set.files.length,
        cold: coldT,
        cached: cachedT,
        ccusage: ccT,
        coldRatio: ccT ? ratio(coldT.ms, ccT.ms) : null,
        cachedRatio: ccT && cachedT ? ratio(cachedT.ms, ccT.ms) : null,
        coldCpuRatio: ccT ? ratio(coldT.cpuMs, ccT.cpuMs) : null,
      });
    }
    return { runs, installed, ccusageVersion: cc?.version ?? null, rows, note: cc ? null : 'ccusage not installed (npm i -D ccusage, or CCUSAGE_BIN=…/dist/index.js): its side was not measured' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printCliVsCcusage(b: CliVsCcusageBench): void {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(`\n## The installed package: ${b.installed.packages} package, ${mb(b.installed.bytes)} MiB installed (budget ≤ 40 MB: ${b.installed.bytes <= 40 * 1024 * 1024 ? 'ok' : 'MISSED'}), tarball ${mb(b.installed.tarballBytes)} MiB`);
  console.log(`\n## CLI (installed) vs ccusage${b.ccusageVersion ? ` ${b.ccusageVersion}` : ` (${b.note})`}: start + inspect --json, medians of ${b.runs} alternated runs`);
  // The user waits wall time; on a loaded machine the CPU ratio is the steadier one. The budget holds when both do.
  const verdict = (wall: number | null, cpu: number | null) =>
    wall === null || cpu === null ? '' : ` = ${wall}× wall, ${cpu}× CPU (budget ≤ 1.5× in both: ${wall <= 1.5 && cpu <= 1.5 ? 'ok' : 'MISSED'})`;
  for (const r of b.rows) {
    const cc = r.ccusage ? ` vs ccusage ${r.ccusage.ms} ms (CPU ${r.ccusage.cpuMs} ms)` : '';
    console.log(`  ${r.sessions}, never seen (--no-cache): ${r.cold.ms} ms (CPU ${r.cold.cpuMs} ms)${cc}${verdict(r.coldRatio, r.coldCpuRatio)}`);
    if (r.cached) console.log(`  ${r.sessions}, seen before (result cache): ${r.cached.ms} ms (CPU ${r.cached.cpuMs} ms)${r.cachedRatio !== null ? ` = ${r.cachedRatio}×` : ''}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printCliVsCcusage(benchCliVsCcusage());
