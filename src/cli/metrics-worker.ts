// A worker thread of `inspect` and `check`: analyses the sessions the main thread hands it, one at a time.
import { parentPort } from 'node:worker_threads';
import { counters } from './cli-io';
import { metricsFor, type MetricsJob, type MetricsReply } from './session-pool';

const port = parentPort;
if (!port) throw new Error('metrics-worker.ts runs as a worker thread');
const counterFor = counters();

let queue = Promise.resolve();
port.on('message', (job: MetricsJob) => {
  queue = queue.then(async () => {
    const outcome = await metricsFor(job.session, counterFor, job.request);
    port.postMessage({ type: 'done', id: job.id, outcome } satisfies MetricsReply);
  });
});
