// The CLI as shipped (dist-cli/, plain JavaScript) against ccusage on the same files: process start plus
// `inspect --json` on four ~3 MB Claude Code sessions, against `ccusage session --json --offline` reading the same
// four from a Claude config folder. Budget (issue 19): at most 1.5× ccusage. Medians of alternated runs.
// Two rows: the sessions seen before (read back from the result cache, as a second `inspect` of a folder is) and
// seen for the first time (`--no-cache`: every session analysed).
// ccusage is found as a package (`npm i -D ccusage`) or at CCUSAGE_BIN; without it the row says so.
// Run alone: `node --import tsx bench/cli-vs-ccusage.ts`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { claudeCodeSession } from './generators/claude-code-session';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface CliVsCcusageBench {
  files: number;
  bytesEach: number;
  runs: number;
  /** Sessions analysed before: read back from the result cache. */
  cliMs: number;
  /** Sessions never analysed before (`--no-cache`). */
  coldMs: number;
  ccusage: { version: string; ms: number } | null;
  /** cliMs / ccusage ms; null without ccusage. */
  ratio: number | null;
  /** coldMs / ccusage ms; null without ccusage. */
  coldRatio: number | null;
  note: string | null;
}

function ccusageBin(): { bin: string; version: string } | null {
  const fromEnv = process.env['CCUSAGE_BIN'];
  const resolvePkg = (): string | null => {
    if (fromEnv) return join(dirname(fromEnv), '..', 'package.json');
    try {
      return createRequire(import.meta.url).resolve('ccusage/package.json');
    } catch {
      return null;
    }
  };
  const pkgPath = resolvePkg();
  if (!pkgPath) return null;
  try {
    const pkg = JSON.parse(execFileSync(process.execPath, ['-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(pkgPath)}, 'utf8'))`], { encoding: 'utf8' }));
    const bin = fromEnv ?? join(dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.ccusage);
    return { bin, version: pkg.version };
  } catch {
    return null;
  }
}

function timed(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr.toString().slice(0, 400)}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export function benchCliVsCcusage(runs = 5): CliVsCcusageBench {
  const dir = mkdtempSync(join(tmpdir(), 'cli-vs-ccusage-'));
  try {
    const project = join(dir, 'projects', '-bench-project');
    mkdirSync(project, { recursive: true });
    const bytesEach = 3_000_000;
    const files: string[] = [];
    for (let i = 0; i < 4; i++) {
      const f = join(project, `0000000${i}-0000-4000-8000-00000000000${i}.jsonl`);
      writeFileSync(f, claudeCodeSession({ seed: 100 + i, records: 600, bytes: bytesEach, compactions: 1 }));
      files.push(f);
    }
    execFileSync(process.execPath, [join(ROOT, 'bin', 'build-cli.mjs')], { cwd: ROOT });
    const main = pathToFileURL(join(ROOT, 'dist-cli', 'main.mjs')).href;
    const cliRun = (flags: string[]) => ['--input-type=module', '-e', `const m = await import(${JSON.stringify(main)}); process.exitCode = await m.run(${JSON.stringify(['inspect', '--json', ...flags, ...files])});`];
    const cliArgs = cliRun([]);
    const coldArgs = cliRun(['--no-cache']);
    const cliEnv = { ...process.env, COMPACTION_INSPECTOR_CACHE_DIR: join(dir, 'cache') };
    const cc = ccusageBin();
    const ccArgs = cc ? [cc.bin, 'session', '--json', '--offline'] : [];
    const ccEnv = { ...process.env, CLAUDE_CONFIG_DIR: dir };
    // One warm-up each (file cache, compile cache), then alternated runs.
    // The cached run's warm-up is also the run that fills the cache.
    timed(cliArgs, cliEnv);
    timed(coldArgs, cliEnv);
    if (cc) timed(ccArgs, ccEnv);
    const ours: number[] = [];
    const cold: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < runs; i++) {
      ours.push(timed(cliArgs, cliEnv));
      cold.push(timed(coldArgs, cliEnv));
      if (cc) theirs.push(timed(ccArgs, ccEnv));
    }
    const cliMs = median(ours);
    const coldMs = median(cold);
    const ccMs = cc ? median(theirs) : null;
    return {
      files: files.length,
      bytesEach,
      runs,
      cliMs: Math.round(cliMs),
      coldMs: Math.round(coldMs),
      ccusage: cc && ccMs !== null ? { version: cc.version, ms: Math.round(ccMs) } : null,
      ratio: ccMs ? Math.round((cliMs / ccMs) * 100) / 100 : null,
      coldRatio: ccMs ? Math.round((coldMs / ccMs) * 100) / 100 : null,
      note: cc ? null : 'ccusage not installed (npm i -D ccusage, or CCUSAGE_BIN=…/dist/index.js): its side was not measured',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const b = benchCliVsCcusage();
  console.log(JSON.stringify(b, null, 2));
}
