// The analysis of several sessions at once: one worker thread per core, each taking the next session, results in
// input order. One session (or one core) is analysed in this thread. A session whose analysis fails gets an error
// outcome and the others are still reported; a session whose worker died is analysed again in this thread.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { describeAnalysisFailure } from '../analysis/analysis-failure';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens/encoding';
import { counters } from './cli-io';
import { sessionKey, type ResultCache } from './result-cache';
import { sessionMetrics, type MetricsOptions, type SessionMetrics } from './session-metrics';
import { spawnCliWorker } from './worker-spawn';

/** What a session's analysis needs besides the session: plain data, so it crosses to a worker. */
export type MetricsRequest = Omit<MetricsOptions, 'encoding'>;

export type MetricsOutcome = { ok: true; metrics: SessionMetrics } | { ok: false; message: string; detail: string };

export interface MetricsJob {
  id: number;
  session: Session;
  request: MetricsRequest;
}

export type MetricsReply = { type: 'done'; id: number; outcome: MetricsOutcome } | { type: 'fatal'; message: string };

/** One session's metrics with the counter its model calls for; a failure is an outcome, never a throw. */
export async function metricsFor(session: Session, counterFor: ReturnType<typeof counters>, request: MetricsRequest): Promise<MetricsOutcome> {
  const choice = pickEncoding(session.model);
  const count = await counterFor(choice.encoding);
  try {
    return { ok: true, metrics: sessionMetrics(session, count, { ...request, encoding: { name: choice.encoding, approximate: choice.approximate } }) };
  } catch (e) {
    const f = describeAnalysisFailure(e, 'cli');
    return { ok: false, message: f.message, detail: f.detail };
  }
}

export function defaultThreads(): number {
  return availableParallelism();
}

/**
 * Every session's metrics, in input order. With a cache, a session analysed before by this engine with this
 * request is read back instead, and each new analysis that succeeded is kept.
 */
export async function metricsOfSessions(sessions: readonly Session[], request: MetricsRequest, threads = defaultThreads(), cache: ResultCache | null = null): Promise<MetricsOutcome[]> {
  if (!cache) return analyse(sessions, request, threads);
  const keys = sessions.map((s) => {
    try {
      return sessionKey(s, request);
    } catch {
      // A session the serializer cannot write (it never should) is analysed every time.
      return null;
    }
  });
  const out: MetricsOutcome[] = new Array(sessions.length);
  const todo: number[] = [];
  keys.forEach((key, i) => {
    const metrics = key ? cache.get(key) : null;
    if (metrics) out[i] = { ok: true, metrics };
    else todo.push(i);
  });
  const fresh = await analyse(todo.map((i) => sessions[i]!), request, threads);
  todo.forEach((i, k) => {
    const o = fresh[k]!;
    out[i] = o;
    const key = keys[i];
    if (o.ok && key) cache.put(key, o.metrics);
  });
  cache.prune();
  return out;
}

async function analyse(sessions: readonly Session[], request: MetricsRequest, threads: number): Promise<MetricsOutcome[]> {
  if (sessions.length === 0) return [];
  const n = Math.min(Math.max(1, Math.floor(threads)), sessions.length);
  const out: MetricsOutcome[] = new Array(sessions.length);
  if (n <= 1) {
    const counterFor = counters();
    for (let i = 0; i < sessions.length; i++) out[i] = await metricsFor(sessions[i]!, counterFor, request);
    return out;
  }
  let next = 0;
  const lost: number[] = [];
  const runWorker = async () => {
    const worker = spawnCliWorker('metrics-worker');
    try {
      while (next < sessions.length) {
        const id = next++;
        const answer = await ask(worker, { id, session: sessions[id]!, request });
        if (answer.alive) out[id] = answer.outcome;
        else {
          // The worker is gone (it could not start, or ran out of memory): this thread analyses what it held.
          lost.push(id);
          return;
        }
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: n }, runWorker));
  if (lost.length > 0 || out.some((o) => o === undefined)) {
    const counterFor = counters();
    for (let i = 0; i < sessions.length; i++) if (out[i] === undefined) out[i] = await metricsFor(sessions[i]!, counterFor, request);
  }
  return out;
}

/** Sends one job and waits for its answer, or for the worker to fail to load or die. */
function ask(worker: Worker, job: MetricsJob): Promise<{ alive: true; outcome: MetricsOutcome } | { alive: false }> {
  return new Promise((resolve) => {
    const done = (answer: { alive: true; outcome: MetricsOutcome } | { alive: false }) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(answer);
    };
    const onMessage = (m: MetricsReply) => {
      if (m.type === 'fatal') done({ alive: false });
      else if (m.id === job.id) done({ alive: true, outcome: m.outcome });
    };
    const onError = () => done({ alive: false });
    const onExit = () => done({ alive: false });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}
