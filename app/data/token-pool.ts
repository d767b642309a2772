// The app's token pool: Web Workers running app/workers/tokens.worker.ts, one per spare core.
import * as Comlink from 'comlink';
import { createTokenPool, type PoolWorker, type PoolWorkerHooks, type TokenPool } from '../../src/tokens/pool';
import type { TokensWorkerApi } from '../workers/tokens.worker';

/** One worker per core, leaving one for the page; at least 1, at most 8 (rank tables cost ~30 MB each). */
export function tokenPoolSize(cores: number | undefined = navigator.hardwareConcurrency): number {
  return Math.min(8, Math.max(1, (cores || 2) - 1));
}

function spawnTokenWorker(index: number, hooks: PoolWorkerHooks): PoolWorker {
  const worker = new Worker(new URL('../workers/tokens.worker.ts', import.meta.url), { type: 'module', name: `tokens-${index + 1}` });
  const api = Comlink.wrap<TokensWorkerApi>(worker);
  let alive = true;
  const die = (message: string) => {
    if (!alive) return;
    alive = false;
    hooks.died(new Error(message));
  };
  // A worker that fails to load or throws outside a request never answers again: the pool must know.
  worker.addEventListener('error', (e) => die(e.message || 'the worker script failed'));
  worker.addEventListener('messageerror', () => die('a message could not be read'));
  return {
    post(request) {
      api.count(request).then(
        (reply) => alive && hooks.reply(reply),
        (e: unknown) => alive && hooks.reply({ id: request.id, error: e instanceof Error ? e.message : String(e) }),
      );
    },
    terminate() {
      alive = false;
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** Gives the page a turn between slices of main-thread work: a message-channel task, not a 4 ms clamped timer. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

let shared: TokenPool | null = null;

/** The app-wide pool, created on first use so no worker starts before there is something to count. */
export function getTokenPool(): TokenPool {
  shared ??= createTokenPool({ size: tokenPoolSize(), spawn: spawnTokenWorker, yieldToHost: yieldToPage });
  return shared;
}

export function disposeTokenPool(): void {
  shared?.terminate();
  shared = null;
}
