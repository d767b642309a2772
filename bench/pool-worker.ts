// Worker-thread entry for bench/node-pool.ts: answers count requests with the engine's handler.
import { parentPort } from 'node:worker_threads';
import type { CountRequest } from '../src/tokens/pool';
import { createCountHandler } from '../src/tokens/worker-handler';

const handle = createCountHandler();
parentPort?.ref();
parentPort?.on('message', (request: CountRequest) => {
  void handle(request).then((reply) => parentPort?.postMessage(reply));
});
