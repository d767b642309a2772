// A worker thread of `inspect` and `check` on a long session: counts the texts the main thread hands it with the
// engine's counter (its rank table loaded once, when the first message names the encoding), while the main thread
// works out what needs no counts (count-threads.ts).
import { parentPort } from 'node:worker_threads';
import { createTokenCounter, type TokenCounter } from '../tokens/counter';
import type { EncodingName } from '../tokens/encoding';
import type { CountThreadReply, CountThreadRequest } from './count-threads';

const port = parentPort;
if (!port) throw new Error('count-worker.ts runs as a worker thread');
const counters = new Map<EncodingName, Promise<TokenCounter>>();
const counterFor = (encoding: EncodingName) => {
  let c = counters.get(encoding);
  if (!c) counters.set(encoding, (c = createTokenCounter(encoding)));
  return c;
};

// One message at a time, in the order they come: a warm-up, then the texts.
let queue = Promise.resolve();
port.on('message', (req: CountThreadRequest) => {
  queue = queue.then(async () => {
    let reply: CountThreadReply;
    try {
      const counter = await counterFor(req.encoding);
      const tokens = new Float64Array(req.texts.length);
      for (let i = 0; i < req.texts.length; i++) tokens[i] = counter.count(req.texts[i]!).tokens;
      reply = { id: req.id, tokens };
    } catch (e) {
      reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply, 'tokens' in reply ? [reply.tokens.buffer as ArrayBuffer] : []);
  });
});
