// What `npm pack` ships installs and runs with Node alone: installed from the tarball into an empty folder, offline
// (it has no dependencies to fetch), it holds the built CLI and app and no TypeScript, stays within its size, answers
// as the checkout does, and `npx compaction-inspector serve` from another empty folder serves the app.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'src/formats/__fixtures__');
const FIXTURE = join(FIXTURES, 'claude-code-session.jsonl');
/** The installed package's budget (issue 34): what `npx compaction-inspector` downloads and unpacks. */
const MAX_INSTALLED_BYTES = 40 * 1024 * 1024;
let dir = '';
let tarball = '';
let installed = '';

/** npm with its cache in the test's folder, and never the network. */
const npm = (args: string[], cwd: string) => execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--cache', join(dir, 'npm-cache')], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

beforeAll(() => {
  execFileSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT });
  if (!existsSync(join(ROOT, 'dist/index.html'))) execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'packed-cli-'));
  // --ignore-scripts: the builds above are prepack's; running them again would only cost time.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[];
  tarball = join(dir, info!.filename);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "trying-it", "private": true }\n');
  npm(['install', tarball], project);
  installed = join(project, 'node_modules');
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function bytesUnder(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + bytesUnder(join(path, f)), 0) : s.size;
}

function run(bin: string, args: string[]): string {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: tmpdir(), encoding: 'utf8' });
  // Exit 1 is an answer (the file has issues); anything else is a crash.
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return `exit ${r.status}\n${r.stdout}`;
}
const json = (out: string) => JSON.parse(out.slice(out.indexOf('\n') + 1));
const packed = () => join(installed, 'compaction-inspector/bin/compaction-inspector.mjs');
const checkout = join(ROOT, 'bin/compaction-inspector.mjs');

describe('the packed package', () => {
  it('installs alone, offline: the built CLI and app, no TypeScript, no dependency, within its size', () => {
    expect(readdirSync(installed).filter((f) => !f.startsWith('.')).sort()).toEqual(['compaction-inspector']);
    const pkg = join(installed, 'compaction-inspector');
    expect(readdirSync(pkg).sort()).toEqual(expect.arrayContaining(['bin', 'dist', 'dist-cli', 'package.json', 'README.md']));
    expect(existsSync(join(pkg, 'src'))).toBe(false);
    expect(existsSync(join(pkg, 'node_modules'))).toBe(false);
    for (const f of ['main.mjs', 'corpus-worker.mjs', 'metrics-worker.mjs']) expect(existsSync(join(pkg, 'dist-cli', f))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(bytesUnder(installed)).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
  });

  it('runs its bin with Node alone and answers as the checkout does', () => {
    expect(run(packed(), ['--version'])).toBe(`exit 0\n${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    expect(run(packed(), ['--help'])).toMatch(/^exit 0\n[\s\S]*inspect/);
    const out = run(packed(), ['inspect', '--json', '--no-cache', FIXTURE]);
    const fromCheckout = run(checkout, ['inspect', '--json', '--no-cache', FIXTURE]);
    expect(out.split('\n')[0]).toBe(fromCheckout.split('\n')[0]);
    expect(json(out)).toEqual(json(fromCheckout));
    expect(json(out).sessions.length).toBeGreaterThan(0);
    // Two sessions go to the worker threads, which the package must carry too.
    const two = ['inspect', '--json', '--no-cache', '--threads', '2', FIXTURE, join(FIXTURES, 'codex-rollout.jsonl')];
    const packedTwo = json(run(packed(), two));
    expect(packedTwo.sessions).toHaveLength(2);
    expect(packedTwo).toEqual(json(run(checkout, two)));
  }, 120_000);

  it('serves the app with `npx compaction-inspector serve` from an empty folder', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const child = spawn('npx', ['--yes', '--offline', '--cache', join(dir, 'npm-cache'), '--package', tarball, 'compaction-inspector', 'serve', FIXTURES, '--port', '0'], { cwd: empty, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Compaction Inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      // npx starts the bin in a child of its own: end the whole group this test started.
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  }, 120_000);
});
