// Starts one of the CLI's worker threads. Built (dist-cli/), the worker is plain JavaScript beside the bundle; run
// from source, a bootstrap registers tsx first (worker threads do not inherit the main thread's module hooks).
// Errors while loading are posted back as `{ type: 'fatal' }` instead of crashing silently.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** The ESM entry of tsx's register API, so a worker thread can load a TypeScript module. */
function tsxApiUrl(): string {
  const req = createRequire(import.meta.url);
  return pathToFileURL(req.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
}

/** `name` is the worker module's name in src/cli/ and dist-cli/, without extension. */
export function spawnCliWorker(name: 'corpus-worker' | 'metrics-worker' | 'glance-worker' | 'count-worker'): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, import.meta.url));
  const workerUrl = new URL(`./${name}.ts`, import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApiUrl())})
  .then((m) => { m.register(); return import(${JSON.stringify(workerUrl)}); })
  .catch((e) => { require('node:worker_threads').parentPort.postMessage({ type: 'fatal', message: String((e && e.stack) || e) }); });`;
  return new Worker(code, { eval: true });
}
