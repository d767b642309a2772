// The analysis of several sessions at once: this thread and a worker thread per further core, each taking the next
// session, results in input order. One session (or one core, or a little text) is analysed in this thread alone. A
// session whose analysis fails gets an error outcome and the others are still reported; a session whose worker died
// is analysed again in this thread.
import { availableParallelism, loadavg } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { describeAnalysisFailure } from '../analysis/analysis-failure';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens/encoding';
import { counters } from './cli-io';
import { sessionKey, type ResultCache } from './result-cache';
import { sessionMetrics, type MetricsOptions, type SessionMetrics } from './session-metrics';
import { auditContexts, contextItems } from '../analysis/audit-contexts';
import { countedTexts, prefixPartTexts } from '../analysis/counted-texts';
import { sessionContexts } from '../analysis/session-analysis';
import { lintSession } from '../lints/lint-session';
import type { EncodingName } from '../tokens/encoding';
import { TokenMemo } from '../tokens/memo';
import type { CountThreads } from './count-threads';
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

/**
 * One session's metrics with the counter its model calls for; a failure is an outcome, never a throw. With counting
 * threads and a long session, the threads count while this thread works out what needs no counts.
 */
export async function metricsFor(session: Session, counterFor: ReturnType<typeof counters>, request: MetricsRequest, threads: CountThreads | null = null, threadedChars = THREADED_CHARS): Promise<MetricsOutcome> {
  const choice = pickEncoding(session.model);
  const encoding = { name: choice.encoding, approximate: choice.approximate };
  if (threads && textChars(session) >= threadedChars) {
    // A thread that fails, or an analysis that throws, is left to the path below (which reports what throws).
    const metrics = await metricsOnThreads(session, threads, { ...request, encoding }).catch(() => null);
    if (metrics) return { ok: true, metrics };
  }
  const count = await counterFor(choice.encoding);
  try {
    return { ok: true, metrics: sessionMetrics(session, count, { ...request, encoding }) };
  } catch (e) {
    const f = describeAnalysisFailure(e, 'cli');
    return { ok: false, message: f.message, detail: f.detail };
  }
}

/**
 * Characters of item text from which a session is counted on threads, when count threads run at all (inputs of
 * COUNT_THREADS_MIN_BYTES and up: with each distinct piece merged once, smaller ones count faster on this thread).
 */
const THREADED_CHARS = 2_000_000;

function textChars(session: Session): number {
  let n = 0;
  for (const it of session.items) n += it.text.length;
  for (const r of session.requests) for (const it of r.items) n += it.text.length;
  return n;
}

/**
 * The metrics of one session counted on threads: they count its distinct texts (countedTexts, as the app's
 * analysis worker hands them to its token pool) while this thread replays the contexts, audits the summaries and
 * runs the lints; the analysis then reads every count from their memo. Null when a thread fails (the caller counts
 * here instead). A text the memo lacks is counted by the threads and the analysis run again, so the figures are
 * the serial path's.
 */
async function metricsOnThreads(session: Session, threads: CountThreads, opts: MetricsOptions): Promise<SessionMetrics | null> {
  const encoding = opts.encoding!.name as EncodingName;
  const memo = new TokenMemo();
  const counted = (texts: readonly string[]) =>
    threads.count(texts, encoding).then((tokens) => {
      texts.forEach((t, i) => memo.store(t, { tokens: tokens[i]!, approximate: false }));
    });
  // The lints count the summaries: asked first, they come back long before the rest.
  const summaries = [...new Set([...session.items, ...session.requests.flatMap((r) => [...r.items, ...r.output])].filter((it) => it.kind === 'summary').map((it) => it.text))];
  const summariesCounted = counted(summaries);
  const texts = countedTexts(session);
  const all = counted(texts);
  all.catch(() => undefined);
  const contexts = sessionContexts(session);
  const parts = counted(prefixPartTexts(contexts, texts));
  parts.catch(() => undefined);
  const audits = opts.defer?.includes('audits') ? undefined : auditContexts(session, contexts);
  const missed = new Set<string>();
  const count = (t: string) => {
    const c = memo.lookup(t);
    if (c) return c.tokens;
    missed.add(t);
    return 0;
  };
  await summariesCounted;
  const items = contextItems(session, contexts);
  const lintCandidates = opts.defer?.includes('lints') ? undefined : lintSession({ format: session.format, usagePerTurn: session.meta['usageScope'] === 'turn', items, calls: contexts.calls, timeline: contexts.timeline, compactions: contexts.compactions, removals: contexts.removals, count, candidates: true });
  await all;
  await parts;
  const run = () => sessionMetrics(session, count, { ...opts, contexts, precomputed: { ...(audits ? { audits } : {}), ...(lintCandidates ? { lintCandidates } : {}) } });
  let metrics = run();
  if (missed.size > 0) {
    // Counted here too (with the lints, whose summaries were all asked for), then everything again.
    await counted([...missed]);
    missed.clear();
    const again = { ...opts, contexts, precomputed: audits ? { audits } : {} };
    metrics = sessionMetrics(session, count, again);
    if (missed.size > 0) return null;
  }
  return metrics;
}

export function defaultThreads(): number {
  return availableParallelism();
}

/**
 * Below this many characters of text in the sessions to analyse, the default (no `--threads`) starts no worker: a
 * worker loads the modules and a rank table and warms its own JIT (~0.5 s of CPU, ~0.3 s before it helps), more
 * than the half of ~1.5 s of analysis it would take over.
 */
export const WORKER_MIN_CHARS = 1_000_000;

/**
 * Every session's metrics, in input order. With a cache, a session analysed before by this engine with this
 * request is read back instead, and each new analysis that succeeded is kept. `threads` analyse side by side (this
 * one among them); left out, the idle cores, when the sessions hold WORKER_MIN_CHARS of text or more (threadsFor).
 */
export async function metricsOfSessions(sessions: readonly Session[], request: MetricsRequest, threads?: number, cache: ResultCache | null = null, counting: CountThreads | null = null): Promise<MetricsOutcome[]> {
  if (!cache) return analyse(sessions, request, threads, counting);
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
  const fresh = await analyse(todo.map((i) => sessions[i]!), request, threads, counting);
  todo.forEach((i, k) => {
    const o = fresh[k]!;
    out[i] = o;
    const key = keys[i];
    if (o.ok && key) cache.put(key, o.metrics);
  });
  cache.prune();
  return out;
}

/**
 * The threads to analyse `sessions` on: as asked, or by default the cores other processes leave idle (by the load
 * average of the last minute; this one among them), when there is enough text to share. A worker on a core that
 * is already busy finishes no sooner than this thread would, and costs the CPU of a second cold start: 4 sessions
 * of 3 MB took ~1.5 s more CPU on two threads than on one (6.1 s against 4.6 s, 2 cores at load 10–15), in the
 * same wall time.
 */
export function threadsFor(sessions: readonly Session[], threads: number | undefined, load: number = loadavg()[0] ?? 0): number {
  if (threads !== undefined) return threads;
  if (sessions.length < 2) return 1;
  let chars = 0;
  for (const s of sessions) chars += textChars(s);
  if (chars < WORKER_MIN_CHARS) return 1;
  const cores = defaultThreads();
  return Math.max(1, Math.min(cores, Math.round(cores - load)));
}

/** Jobs a worker holds at once: the next one waits in its queue, so it never idles while this thread analyses. */
const WORKER_DEPTH = 2;

async function analyse(sessions: readonly Session[], request: MetricsRequest, threadsAsked: number | undefined, counting: CountThreads | null): Promise<MetricsOutcome[]> {
  if (sessions.length === 0) return [];
  const n = Math.min(Math.max(1, Math.floor(threadsFor(sessions, threadsAsked))), sessions.length);
  const out: MetricsOutcome[] = new Array(sessions.length);
  const counterFor = counters();
  if (n <= 1) {
    // One session on this thread: counting threads, when started, count it (sessions side by side have a thread each).
    for (let i = 0; i < sessions.length; i++) out[i] = await metricsFor(sessions[i]!, counterFor, request, counting);
    return out;
  }
  // This thread is one of the n: a worker more would load the modules and a rank table and warm its JIT again
  // (~0.5 s of CPU) while this one waited.
  let next = 0;
  const take = () => (next < sessions.length ? next++ : -1);
  const lost: number[] = [];
  const runWorker = async () => {
    const worker = spawnCliWorker('metrics-worker');
    try {
      lost.push(...(await serve(worker, sessions, request, take, out)));
    } finally {
      await worker.terminate();
    }
  };
  const runHere = async () => {
    for (let id = take(); id >= 0; id = take()) {
      out[id] = await metricsFor(sessions[id]!, counterFor, request);
      // Lets the workers' answers in, so each is handed its next session before this thread takes one.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all([runHere(), ...Array.from({ length: n - 1 }, runWorker)]);
  if (lost.length > 0 || out.some((o) => o === undefined)) {
    // A worker is gone (it could not start, or ran out of memory): this thread analyses what it held.
    for (let i = 0; i < sessions.length; i++) if (out[i] === undefined) out[i] = await metricsFor(sessions[i]!, counterFor, request);
  }
  return out;
}

/**
 * Hands a worker sessions from `take` (WORKER_DEPTH at a time) until none is left, writing each answer into `out`;
 * resolves with the sessions it held when it failed to load or died (none when it finished).
 */
function serve(worker: Worker, sessions: readonly Session[], request: MetricsRequest, take: () => number, out: MetricsOutcome[]): Promise<number[]> {
  return new Promise((resolve) => {
    const held = new Set<number>();
    const done = (lost: number[]) => {
      worker.off('message', onMessage);
      worker.off('error', onGone);
      worker.off('exit', onGone);
      resolve(lost);
    };
    const feed = () => {
      while (held.size < WORKER_DEPTH) {
        const id = take();
        if (id < 0) break;
        held.add(id);
        worker.postMessage({ id, session: sessions[id]!, request } satisfies MetricsJob);
      }
      if (held.size === 0) done([]);
    };
    const onMessage = (m: MetricsReply) => {
      if (m.type === 'fatal') return onGone();
      if (!held.delete(m.id)) return;
      out[m.id] = m.outcome;
      feed();
    };
    const onGone = () => done([...held]);
    worker.on('message', onMessage);
    worker.on('error', onGone);
    worker.on('exit', onGone);
    feed();
  });
}
