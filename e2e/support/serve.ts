// Starts `compaction-inspector serve` on a folder, on any free port, and waits for the address it prints with its
// token. Needs the built app (npx vite build). Its result cache, and so its per-file index, stays under the test's
// own cache folder (COMPACTION_INSPECTOR_CACHE_DIR, set by the caller's environment or given here).
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export async function startServe(folder: string, opts: { port?: number; cacheDir?: string; home?: string } = {}): Promise<{ server: ChildProcess; address: string }> {
  // `home`: the user's home the server sees (where it finds ~/.claude/CLAUDE.md), so no test reads the machine's own.
  const env = { ...process.env, ...(opts.cacheDir ? { COMPACTION_INSPECTOR_CACHE_DIR: opts.cacheDir } : {}), ...(opts.home ? { HOME: opts.home } : {}) };
  const server = spawn(process.execPath, [join(ROOT, 'bin', 'compaction-inspector.mjs'), 'serve', folder, '--port', String(opts.port ?? 0)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    // A hang guard, not a budget: from the checkout the bin runs the TypeScript through tsx, which took over 30 s to
    // start on a fresh clone beside CPU burners.
    const timer = setTimeout(() => reject(new Error(`serve did not print its address: ${out}${err}`)), 150_000);
    server.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
  return { server, address };
}

/**
 * Stops a server started by `startServe` and removes its folder once it has exited: a server still writing its
 * index when the folder went (SIGTERM, then an immediate rm) failed a CI run with ENOTEMPTY.
 */
export async function stopServe(server: ChildProcess | undefined, folder: string | undefined): Promise<void> {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  if (folder) rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
