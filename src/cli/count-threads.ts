// Token counting on worker threads for one long session: `inspect` starts them while it reads and parses the
// files (each loads its rank table then, ~0.5 s of CPU the main thread no longer spends), hands them the session's
// distinct texts in one share each, and works out the contexts, audits and lints meanwhile, which need no counts.
// The analysis then reads every count from the memo they fill (session-pool.ts).
import type { Worker } from 'node:worker_threads';
import type { EncodingName } from '../tokens/encoding';
import { spawnCliWorker } from './worker-spawn';

export interface CountThreadRequest {
  id: number;
  encoding: EncodingName;
  texts: string[];
}

export type CountThreadReply = { id: number; tokens: Float64Array } | { id: number; error: string };

export interface CountThreads {
  readonly size: number;
  /** Loads the encoding's rank table in every thread now. */
  warm(encoding: EncodingName): void;
  /** Exact counts of `texts`, in order: a contiguous share per thread, split by characters. */
  count(texts: readonly string[], encoding: EncodingName): Promise<Float64Array>;
  close(): Promise<void>;
}

/**
 * Inputs from this size on start the threads while they are read: a session below it counts in about a second or
 * less on this thread (each distinct split piece merged once: ~0.5 s of CPU for the 27 MB, 30k-record bench
 * session), less than two threads cost in start-up, rank tables and copying the texts to them (~1 s of CPU there).
 */
export const COUNT_THREADS_MIN_BYTES = 64_000_000;

export function startCountThreads(size: number, spawn: () => Worker = () => spawnCliWorker('count-worker')): CountThreads {
  const workers = Array.from({ length: Math.max(1, Math.floor(size)) }, spawn);
  let next = 1;
  let closing = false;
  const pending = new Map<number, { resolve: (t: Float64Array) => void; reject: (e: Error) => void }>();
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  for (const w of workers) {
    w.on('message', (m: CountThreadReply | { type: 'fatal'; message: string }) => {
      if ('type' in m) return failAll(new Error(m.message));
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m.tokens);
    });
    w.on('error', (e) => failAll(e));
    w.on('exit', (code) => code !== 0 && failAll(new Error(`a counting thread exited with code ${code}`)));
    // Idle threads must not keep the process alive.
    w.unref();
  }
  const ask = (w: Worker, encoding: EncodingName, texts: string[]) =>
    new Promise<Float64Array>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      w.ref();
      w.postMessage({ id, encoding, texts } satisfies CountThreadRequest);
    }).finally(() => {
      if (pending.size === 0 && !closing) for (const x of workers) x.unref();
    });
  return {
    size: workers.length,
    warm(encoding) {
      for (const w of workers) void ask(w, encoding, []).catch(() => undefined);
    },
    async count(texts, encoding) {
      // Shares of about equal characters, each a run of neighbouring texts (a call's header and its result's share
      // their id part, which a thread counts once).
      let total = 0;
      for (const t of texts) total += t.length + 16;
      const shares: string[][] = [];
      let from = 0;
      let chars = 0;
      let k = 1;
      for (let i = 0; i < texts.length; i++) {
        chars += texts[i]!.length + 16;
        if (chars >= (total * k) / workers.length && k < workers.length) {
          shares.push(texts.slice(from, i + 1));
          from = i + 1;
          k++;
        }
      }
      shares.push(texts.slice(from));
      const parts = await Promise.all(shares.map((s, i) => (s.length > 0 ? ask(workers[i]!, encoding, s) : Promise.resolve(new Float64Array(0)))));
      const out = new Float64Array(texts.length);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    },
    async close() {
      // Held while they stop (the requests failed here must not unref them): an unref'd thread's terminate() left
      // Node nothing to wait on, and it exited with the CLI's run unsettled (exit code 13, not the report's).
      closing = true;
      for (const w of workers) w.ref();
      failAll(new Error('the counting threads were closed'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
