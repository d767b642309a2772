// A worker thread of `serve`: measures the sessions the server hands it for its table, one at a time.
import { parentPort } from 'node:worker_threads';
import { measureGlance, type GlanceJob, type GlanceReply } from './serve-glance';

const port = parentPort;
if (!port) throw new Error('glance-worker.ts runs as a worker thread');
port.on('message', (job: GlanceJob) => {
  port.postMessage({ type: 'done', id: job.id, outcome: measureGlance(job.inputs) } satisfies GlanceReply);
});
