// What a token worker does with a request, shared by the browser worker (app/workers/tokens.worker.ts),
// worker threads in the bench, and the inline workers that Node and the tests use.
import { createTokenCounter, type TokenCounter } from './counter';
import type { CountReply, CountRequest, PoolWorker, SpawnWorker } from './pool';

export type CountHandler = (request: CountRequest) => Promise<CountReply>;

export interface HandlerOptions {
  /** Longest run encoded in one piece; see split-runs. */
  maxRun?: number;
}

/** Counts requests with a counter per (encoder, encoding), loaded on first use. Errors become error replies. */
export function createCountHandler(options: HandlerOptions = {}): CountHandler {
  const counters = new Map<string, Promise<TokenCounter>>();
  return async (request) => {
    try {
      const key = `${request.encoder}/${request.encoding}`;
      let counter = counters.get(key);
      if (!counter) {
        counter = createTokenCounter(request.encoding, { encoder: request.encoder, maxRun: options.maxRun });
        counters.set(key, counter);
      }
      const c = await counter;
      return { id: request.id, counts: request.texts.map((t) => c.count(t)) };
    } catch (e) {
      return { id: request.id, error: e instanceof Error ? e.message : String(e) };
    }
  };
}

/**
 * Workers that run on the calling thread, one macrotask per job: for Node (the CLI) and tests. They give
 * no parallelism, only the pool's memo, ordering and progress.
 */
export function spawnInline(handler: CountHandler = createCountHandler()): SpawnWorker {
  return (_index, hooks): PoolWorker => {
    let alive = true;
    return {
      post(request) {
        setTimeout(() => {
          if (!alive) return;
          handler(request).then(
            (reply) => alive && hooks.reply(reply),
            (e: unknown) => alive && hooks.died(e instanceof Error ? e : new Error(String(e))),
          );
        }, 0);
      },
      terminate() {
        alive = false;
      },
    };
  };
}
