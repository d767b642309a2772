// Measures a listed session for `serve`'s table (calls, compactions, the reported hit rate) in a worker thread, so
// the server keeps answering (a page asking for a file, an event stream) while a big session loads. Sessions are
// measured one at a time; if the worker cannot start or dies, this thread measures instead.
import type { Worker } from 'node:worker_threads';
import { sessionGlance } from '../analysis/session-glance';
import { loadFiles, type InputFile } from '../load/loader';
import { estimateTokens } from '../tokens';
import type { GlanceOutcome } from './serve-index';
import { spawnCliWorker } from './worker-spawn';

/** Files bigger than this are measured only when opened: a glance must stay cheap (as the app's own limit). */
export const GLANCE_MAX_BYTES = 64 << 20;

/** Loads the files and reads the session's figures from the one analysis every surface reads, with the fast estimate. */
export function measureGlance(inputs: InputFile[]): GlanceOutcome {
  try {
    const loaded = loadFiles(inputs);
    const session = loaded.sessions[0];
    if (!session) return { ok: false, message: loaded.issues.find((i) => i.severity === 'error')?.message ?? 'no session in this file' };
    return { ok: true, glance: sessionGlance(session, estimateTokens) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

export interface GlanceJob {
  id: number;
  inputs: InputFile[];
}

export type GlanceReply = { type: 'done'; id: number; outcome: GlanceOutcome } | { type: 'fatal'; message: string };

export interface GlanceMeasurer {
  measure(inputs: InputFile[]): Promise<GlanceOutcome>;
  close(): Promise<void>;
}

/** One worker thread, started on the first job, measuring one session after another. */
export function glanceMeasurer(): GlanceMeasurer {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const pending = new Map<number, (o: GlanceOutcome | null) => void>();
  const fail = () => {
    broken = true;
    worker = null;
    for (const done of pending.values()) done(null);
    pending.clear();
  };
  const start = (): Worker | null => {
    if (broken) return null;
    if (worker) return worker;
    try {
      const w = spawnCliWorker('glance-worker');
      w.on('message', (m: GlanceReply) => {
        if (m.type === 'fatal') return fail();
        pending.get(m.id)?.(m.outcome);
        pending.delete(m.id);
      });
      w.on('error', fail);
      w.on('exit', fail);
      w.unref();
      worker = w;
      return w;
    } catch {
      broken = true;
      return null;
    }
  };
  const run = async (inputs: InputFile[]): Promise<GlanceOutcome> => {
    const w = start();
    if (w) {
      const id = nextId++;
      const answer = await new Promise<GlanceOutcome | null>((resolve) => {
        pending.set(id, resolve);
        w.postMessage({ id, inputs } satisfies GlanceJob);
      });
      if (answer) return answer;
    }
    return measureGlance(inputs);
  };
  return {
    measure(inputs) {
      const result = queue.then(() => run(inputs));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      const w = worker;
      broken = true;
      worker = null;
      if (w) {
        w.removeAllListeners('exit');
        await w.terminate();
      }
    },
  };
}
