// What `npm pack` ships runs with Node alone: the tarball's bin starts the built CLI (no TypeScript, no src/),
// and answers as the checkout does. Dependencies come from this checkout's node_modules, as npm would install them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'src/formats/__fixtures__/claude-code-session.jsonl');
let dir = '';
let pkg = '';

beforeAll(() => {
  execFileSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT });
  if (!existsSync(join(ROOT, 'dist/index.html'))) execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'packed-cli-'));
  // --ignore-scripts: the builds above are prepack's; running them again would only cost time.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
  execFileSync('tar', ['-xzf', join(dir, info!.filename), '-C', dir]);
  pkg = join(dir, 'package');
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(cwd: string, args: string[]): string {
  const r = spawnSync(process.execPath, [join(cwd, 'bin/compaction-inspector.mjs'), ...args], { cwd: tmpdir(), encoding: 'utf8' });
  // Exit 1 is an answer (the file has issues); anything else is a crash.
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return `exit ${r.status}\n${r.stdout}`;
}
const json = (out: string) => JSON.parse(out.slice(out.indexOf('\n') + 1));

describe('the packed package', () => {
  it('holds the built CLI and app, and no TypeScript source', () => {
    expect(readdirSync(pkg).sort()).toEqual(expect.arrayContaining(['bin', 'dist', 'dist-cli', 'package.json', 'README.md']));
    expect(existsSync(join(pkg, 'src'))).toBe(false);
    expect(existsSync(join(pkg, 'dist-cli/main.mjs'))).toBe(true);
    expect(existsSync(join(pkg, 'dist-cli/corpus-worker.mjs'))).toBe(true);
    expect(existsSync(join(pkg, 'dist-cli/metrics-worker.mjs'))).toBe(true);
  });

  it('runs its bin with Node alone and answers as the checkout does', () => {
    expect(run(pkg, ['--version'])).toBe(run(ROOT, ['--version']));
    expect(run(pkg, ['--help'])).toMatch(/^exit 0\n[\s\S]*inspect/);
    const packed = run(pkg, ['inspect', '--json', FIXTURE]);
    expect(packed.split('\n')[0]).toBe(run(ROOT, ['inspect', '--json', FIXTURE]).split('\n')[0]);
    expect(json(packed)).toEqual(json(run(ROOT, ['inspect', '--json', FIXTURE])));
    expect(json(packed).sessions.length).toBeGreaterThan(0);
    // Two sessions go to the worker threads, which the package must carry too.
    const two = ['inspect', '--json', '--threads', '2', FIXTURE, join(ROOT, 'src/formats/__fixtures__/codex-rollout.jsonl')];
    const packedTwo = json(run(pkg, two));
    expect(packedTwo.sessions).toHaveLength(2);
    expect(packedTwo).toEqual(json(run(ROOT, two)));
  }, 60_000);
});
