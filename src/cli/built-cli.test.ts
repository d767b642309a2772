// The CLI as a package ships it: built to plain JavaScript (dist-cli/) with no TypeScript at run time.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = 'src/formats/__fixtures__/claude-code-session.jsonl';

function runBuilt(args: string[]): { code: number; out: string } {
  const script = `const m = await import('./dist-cli/main.mjs'); process.exitCode = await m.run(${JSON.stringify(args)});`;
  try {
    return { code: 0, out: execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: err.stdout };
  }
}

function runSource(args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, ['bin/compaction-inspector.mjs', ...args], { cwd: ROOT, encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: err.stdout };
  }
}

beforeAll(() => {
  execFileSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT });
});

describe('the built CLI', () => {
  it('imports no TypeScript loader, only the runtime packages it declares', () => {
    const code = readFileSync(`${ROOT}dist-cli/main.mjs`, 'utf8');
    expect(code).not.toMatch(/from ["']tsx|import\(["']tsx/);
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
    const imported = [...code.matchAll(/(?:from |import\()["']([^.'"][^'"]*)["']/g)].map((m) => m[1]!).filter((s) => !s.startsWith('node:'));
    for (const spec of imported) expect(Object.keys(pkg.dependencies), spec).toContain(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
  });

  it('gives the same version and check report as the source', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
    expect(runBuilt(['--version']).out.trim()).toBe(pkg.version);
    const args = ['check', FIXTURE, '--max-lost-needed', '0', '--format', 'markdown'];
    const built = runBuilt(args);
    expect(built.code).toBe(1);
    expect(built).toEqual(runSource(args));
  });
});
