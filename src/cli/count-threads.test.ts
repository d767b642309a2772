// The count threads in a process of their own: Node exits once nothing holds its event loop, so a thread that was
// let go too early ends the process with the CLI's run unsettled (exit code 13) instead of its own exit code.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./count-threads.ts', import.meta.url));

/** Runs `body` after starting two threads that never answer, as an ES module under tsx; returns the exit code. */
function exitCodeOf(body: string): number | null {
  const script = `import { Worker } from 'node:worker_threads';
const { startCountThreads } = await import(${JSON.stringify(MODULE)});
const threads = startCountThreads(2, () => new Worker("require('node:worker_threads').parentPort.on('message', () => {});", { eval: true }));
${body}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 }).status;
}

describe('count threads', () => {
  it('let the process end with its own exit code when closed with a count still asked', () => {
    const code = exitCodeOf(`const asked = threads.count(['a', 'b', 'c'], 'o200k_base').catch(() => 'closed');
await threads.close();
process.exitCode = (await asked) === 'closed' ? 7 : 9;`);
    expect(code).toBe(7);
  });

  it('let the process end with its own exit code when closed idle', () => {
    expect(exitCodeOf(`await threads.close();\nprocess.exitCode = 7;`)).toBe(7);
  });
});
