// A token pool on Node worker threads, for the benches: the same pool the app runs on Web Workers.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createTokenPool, type CountReply, type TokenPool } from '../src/tokens/pool';

// Worker threads do not inherit `--import tsx`: register tsx inside the thread, then load the TypeScript entry.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./pool-worker.ts', import.meta.url).href)}); });`;

export function createNodeTokenPool(size: number = availableParallelism()): TokenPool {
  return createTokenPool({
    size,
    spawn(index, hooks) {
      const worker = new Worker(BOOT, { eval: true, name: `tokens-${index}` });
      worker.on('message', (reply: CountReply) => hooks.reply(reply));
      worker.on('error', (e) => hooks.died(e));
      worker.on('exit', (code) => code !== 0 && hooks.died(new Error(`exited with code ${code}`)));
      return { post: (request) => worker.postMessage(request), terminate: () => void worker.terminate() };
    },
  });
}
