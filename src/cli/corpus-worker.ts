// A worker thread of `compaction-inspector corpus`: measures the files the main thread hands it, one at a
// time, streaming each from disk, and posts back rows and issues. It never holds more than one file's
// trajectory (one line of a JSONL corpus) at once.
import { parentPort } from 'node:worker_threads';
import { measureCorpusFile, type WorkerReply, type WorkerRequest } from './corpus';

const port = parentPort;
if (!port) throw new Error('corpus-worker.ts runs as a worker thread');

// One file at a time, in the order they come.
let queue = Promise.resolve();
port.on('message', (req: WorkerRequest) => {
  queue = queue.then(async () => {
    const post = (m: WorkerReply) => port.postMessage(m);
    await measureCorpusFile(req, post);
  });
});
port.postMessage({ type: 'ready' } satisfies WorkerReply);
