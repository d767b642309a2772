// The summary audit's CPU on a cold process, as `inspect --json --no-cache` runs it (the bin's V8 settings, sessions
// one after the other on one thread): the four generated 3 MB sessions of bench/cli-vs-ccusage.ts, each audited once
// in a fresh Node, `process.cpuUsage()` around `auditContexts`. Given another checkout's src/ (a commit's copy made
// with `git archive`), runs of the two alternate, so a shared machine's load falls on both alike.
//
//   npx tsx bench/audit-cpu.ts [--runs 9] [--against /tmp/base]…   (/tmp/base: a copy of the repository to compare)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from './generators/claude-code-session';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The bin's settings (bin/compaction-inspector.mjs). */
const V8_FLAGS = ['--interrupt-budget=1000000', '--no-turbo-inlining', '--regexp-tier-up-ticks=0'];

interface ChildResult {
  /** CPU of each session's audit, ms. */
  sessions: number[];
  total: number;
}

async function child(root: string, files: string[]): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { loadText } = (await import(pathToFileURL(join(root, 'src/load/loader.ts')).href)) as typeof import('../src/load/loader');
  const { auditContexts } = (await import(pathToFileURL(join(root, 'src/analysis/audit-contexts.ts')).href)) as typeof import('../src/analysis/audit-contexts');
  const sessions = files.map((f) => loadText(f, readFileSync(f, 'utf8')).sessions);
  const out: number[] = [];
  for (const list of sessions) {
    const t = process.cpuUsage();
    for (const s of list) auditContexts(s);
    const d = process.cpuUsage(t);
    out.push((d.user + d.system) / 1000);
  }
  const result: ChildResult = { sessions: out, total: out.reduce((a, b) => a + b, 0) };
  process.stdout.write(JSON.stringify(result));
}

function generated(): string[] {
  const dir = '/tmp/audit-cpu-sessions';
  mkdirSync(dir, { recursive: true });
  return [0, 1, 2, 3].map((i) => {
    const f = join(dir, `typical-${100 + i}.jsonl`);
    if (!existsSync(f)) writeFileSync(f, claudeCodeSession({ ...CLAUDE_CODE_TYPICAL, seed: 100 + i }));
    return f;
  });
}

function runOnce(root: string, files: string[]): ChildResult {
  const out = execFileSync(process.execPath, [...V8_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, ...files], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out) as ChildResult;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function main(): void {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const runs = Number(arg('--runs') ?? 9);
  const against = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--against' ? [resolve(a)] : []));
  const roots = [ROOT, ...against];
  const files = generated();
  for (const r of roots) runOnce(r, files); // warm the file cache and tsx's
  const results = roots.map(() => [] as ChildResult[]);
  for (let i = 0; i < runs; i++) roots.forEach((r, k) => results[k]!.push(runOnce(r, files)));
  roots.forEach((r, k) => {
    const rs = results[k]!;
    const per = files.map((_, j) => median(rs.map((x) => x.sessions[j]!)).toFixed(0));
    console.log(`${r === ROOT ? 'this checkout' : r}: audit of the 4 sessions ${median(rs.map((x) => x.total)).toFixed(0)} ms CPU (median of ${runs}; per session ${per.join(', ')}; runs ${rs.map((x) => x.total.toFixed(0)).join(' ')})`);
  });
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv.slice(4));
else main();
