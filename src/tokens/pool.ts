// Counts batches of texts on a pool of workers. The workers come from a factory: real Web Workers in the
// app, an inline handler in Node and tests. The pool looks every text up in a content memo first (a request
// log repeats its prefix on every call), sends each distinct uncounted text once, in jobs of bounded size
// handed to whichever worker is free, matches replies to jobs by id, streams counts and progress back, and
// rejects every unfinished batch if a worker dies, so no caller waits forever.
import { DEFAULT_ENCODER, type EncoderId, type TokenCount } from './counter';
import type { EncodingName } from './encoding';
import { ContentMap, TokenMemo } from './memo';
import { splitAtSeams } from './seams';

/** One job for a worker: count each text. */
export interface CountRequest {
  id: number;
  encoding: EncodingName;
  encoder: EncoderId;
  texts: string[];
}

export type CountReply = { id: number; counts: TokenCount[] } | { id: number; error: string };

/** What the pool tells a worker it spawned. */
export interface PoolWorkerHooks {
  reply(reply: CountReply): void;
  /** The worker is gone (crashed, failed to load, out of memory). */
  died(error: Error): void;
}

export interface PoolWorker {
  post(request: CountRequest): void;
  terminate(): void;
}

export type SpawnWorker = (index: number, hooks: PoolWorkerHooks) => PoolWorker;

export interface PoolOptions {
  size: number;
  spawn: SpawnWorker;
  /** Characters per job: small enough for steady progress, large enough to keep messages few. */
  jobChars?: number;
  /** Texts per job. */
  jobTexts?: number;
  /** Main-thread work between yields while looking texts up, in ms. */
  sliceMs?: number;
  /** Gives the host a turn (rendering, input); setTimeout(0) unless the app supplies something better. */
  yieldToHost?: () => Promise<void>;
}

export interface CountProgress {
  /** Texts of the batch whose exact count is known. */
  done: number;
  total: number;
  /** Texts answered without counting them: found in the memo, or repeating an earlier text of the batch. */
  reused: number;
}

export interface CountOptions {
  encoding: EncodingName;
  encoder?: EncoderId;
  /**
   * Optional content keys, one per text: equal keys promise equal texts (a request log's content-based item
   * ids). Repeats of a key are then matched without reading the text; without keys, repeats are found by
   * comparing texts, which costs a pass over every repeated character.
   */
  keys?: readonly (string | null | undefined)[];
  /** Called as exact counts arrive: memo hits first, then each finished job. */
  onCounts?: (indices: number[], counts: TokenCount[]) => void;
  onProgress?: (progress: CountProgress) => void;
  signal?: AbortSignal;
}

export interface TokenPool {
  readonly size: number;
  /** Starts every worker now (their code, no rank table), so a first count waits only for its ranks. */
  start(): void;
  /** Exact counts in the order of `texts`. */
  count(texts: readonly string[], options: CountOptions): Promise<TokenCount[]>;
  /** The memo behind one encoding/encoder pair. */
  memo(encoding: EncodingName, encoder?: EncoderId): TokenMemo;
  /** Stops the workers and rejects unfinished batches. */
  terminate(): void;
}

export const DEFAULT_JOB_CHARS = 64 * 1024;
const DEFAULT_JOB_TEXTS = 512;
/** Jobs a worker holds at once: the one it counts and the next. */
const JOBS_PER_WORKER = 2;

/** A distinct text of a batch, possibly split at seams into several parts counted separately. */
interface Unit {
  text: string;
  /** The count, once known: from the memo, or when its last part was counted. */
  known: TokenCount | null;
  indices: number[];
  pending: number;
  tokens: number;
  approximate: boolean;
}

interface Batch {
  options: CountOptions;
  memo: TokenMemo;
  results: TokenCount[];
  progress: CountProgress;
  unitsLeft: number;
  jobsLeft: number;
  /** Still looking texts up; more jobs may come. */
  scanning: boolean;
  settled: boolean;
  resolve: (counts: TokenCount[]) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

interface Job {
  batch: Batch;
  request: CountRequest;
  /** For each text of the request, the unit it is a part of. */
  units: Unit[];
}

interface Slot {
  index: number;
  worker: PoolWorker;
  /** Jobs posted to it and not answered yet; a job whose batch failed counts until it answers. */
  posted: number;
  dead: boolean;
}

function defaultYield(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function abortError(): Error {
  const e = new Error('token counting was cancelled');
  e.name = 'AbortError';
  return e;
}

export function createTokenPool(options: PoolOptions): TokenPool {
  const size = Math.max(1, Math.floor(options.size));
  const jobChars = options.jobChars ?? DEFAULT_JOB_CHARS;
  const jobTexts = options.jobTexts ?? DEFAULT_JOB_TEXTS;
  const sliceMs = options.sliceMs ?? 8;
  const yieldToHost = options.yieldToHost ?? defaultYield;

  const slots: (Slot | null)[] = Array.from({ length: size }, () => null);
  const queue: Job[] = [];
  const inFlight = new Map<number, { job: Job; slot: Slot }>();
  const batches = new Set<Batch>();
  const memos = new Map<string, TokenMemo>();
  let nextJobId = 1;
  let terminated = false;

  function memoFor(encoding: EncodingName, encoder: EncoderId): TokenMemo {
    const key = `${encoder}/${encoding}`;
    let m = memos.get(key);
    if (!m) {
      m = new TokenMemo();
      memos.set(key, m);
    }
    return m;
  }

  function slotAt(i: number): Slot {
    const existing = slots[i];
    if (existing && !existing.dead) return existing;
    const slot: Slot = { index: i, worker: undefined as unknown as PoolWorker, posted: 0, dead: false };
    slot.worker = options.spawn(i, {
      reply: (r) => onReply(slot, r),
      died: (e) => onDeath(slot, e),
    });
    slots[i] = slot;
    return slot;
  }

  /**
   * Gives each worker a job, then a second one: the next job waits in the worker's own queue, so it starts the
   * moment the last ends instead of a message round trip later (~2 ms a job on a loaded machine, 30 jobs for 2 MB).
   */
  function pump(): void {
    for (let depth = 1; depth <= JOBS_PER_WORKER; depth++) {
      for (let i = 0; i < size && queue.length > 0; i++) {
        const current = slots[i];
        if (current && !current.dead && current.posted >= depth) continue;
        const job = queue.shift()!;
        const slot = slotAt(i);
        if (slot.dead) {
          // The factory reported death synchronously; the batch has been failed already.
          continue;
        }
        slot.posted++;
        inFlight.set(job.request.id, { job, slot });
        slot.worker.post(job.request);
      }
    }
  }

  function settle(batch: Batch, error: Error | null): void {
    if (batch.settled) return;
    batch.settled = true;
    batches.delete(batch);
    batch.cleanup();
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.batch === batch) queue.splice(i, 1);
    if (error) batch.reject(error);
    else batch.resolve(batch.results);
  }

  function onReply(slot: Slot, reply: CountReply): void {
    const entry = inFlight.get(reply.id);
    if (!entry || entry.slot !== slot) return; // a late reply from a replaced worker
    inFlight.delete(reply.id);
    slot.posted--;
    const { job } = entry;
    const batch = job.batch;
    if (!batch.settled) {
      if ('error' in reply) {
        settle(batch, new Error(`token worker ${slot.index + 1} failed: ${reply.error}`));
      } else if (reply.counts.length !== job.units.length) {
        settle(batch, new Error(`token worker ${slot.index + 1} answered ${reply.counts.length} counts for ${job.units.length} texts`));
      } else {
        deliver(batch, job, reply.counts);
      }
    }
    pump();
  }

  function deliver(batch: Batch, job: Job, counts: TokenCount[]): void {
    const indices: number[] = [];
    const out: TokenCount[] = [];
    for (let k = 0; k < counts.length; k++) {
      const unit = job.units[k]!;
      const c = counts[k]!;
      unit.tokens += c.tokens;
      unit.approximate ||= c.approximate;
      if (--unit.pending > 0) continue;
      const count: TokenCount = { tokens: unit.tokens, approximate: unit.approximate };
      unit.known = count;
      batch.memo.store(unit.text, count);
      for (const i of unit.indices) {
        batch.results[i] = count;
        indices.push(i);
        out.push(count);
      }
      batch.unitsLeft--;
    }
    batch.jobsLeft--;
    batch.progress.done += indices.length;
    if (indices.length > 0) batch.options.onCounts?.(indices, out);
    batch.options.onProgress?.({ ...batch.progress });
    finishIfDone(batch);
  }

  function finishIfDone(batch: Batch): void {
    if (!batch.scanning && batch.unitsLeft === 0 && batch.jobsLeft === 0) settle(batch, null);
  }

  function onDeath(slot: Slot, error: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.posted = 0;
    try {
      slot.worker?.terminate();
    } catch {
      // already gone
    }
    // Its jobs are lost and whatever killed it may kill the next worker too: fail everything unfinished.
    const failure = new Error(`token worker ${slot.index + 1} stopped: ${error.message || 'unknown error'}`);
    for (const [id, entry] of inFlight) if (entry.slot === slot) inFlight.delete(id);
    for (const b of [...batches]) settle(b, failure);
    pump();
  }

  function count(texts: readonly string[], opts: CountOptions): Promise<TokenCount[]> {
    if (terminated) return Promise.reject(new Error('the token pool was terminated'));
    const encoder = opts.encoder ?? DEFAULT_ENCODER;
    let resolve!: (counts: TokenCount[]) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<TokenCount[]>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const batch: Batch = {
      options: opts,
      memo: memoFor(opts.encoding, encoder),
      results: new Array<TokenCount>(texts.length),
      progress: { done: 0, total: texts.length, reused: 0 },
      unitsLeft: 0,
      jobsLeft: 0,
      scanning: true,
      settled: false,
      resolve,
      reject,
      cleanup: () => undefined,
    };
    batches.add(batch);
    const signal = opts.signal;
    if (signal?.aborted) settle(batch, abortError());
    else if (signal) {
      const onAbort = () => settle(batch, abortError());
      signal.addEventListener('abort', onAbort, { once: true });
      batch.cleanup = () => signal.removeEventListener('abort', onAbort);
    }
    if (!batch.settled) void scan(batch, texts, encoder).catch((e: unknown) => settle(batch, e instanceof Error ? e : new Error(String(e))));
    return promise;
  }

  /**
   * Looks every text up and queues jobs for the new ones as it goes, so workers start while the scan
   * continues; yields to the host every few ms, as a 100 MB request log must not freeze the page.
   */
  async function scan(batch: Batch, texts: readonly string[], encoder: EncoderId): Promise<void> {
    const { memo, results, progress, options: opts } = batch;
    const local = new ContentMap<Unit>();
    const byKey = new Map<string, Unit>();
    const keys = opts.keys;
    let jobTextsBuf: string[] = [];
    let owners: Unit[] = [];
    let jobSize = 0;
    const flushJob = () => {
      if (jobTextsBuf.length === 0) return;
      const request: CountRequest = { id: nextJobId++, encoding: opts.encoding, encoder, texts: jobTextsBuf };
      queue.push({ batch, request, units: owners });
      batch.jobsLeft++;
      jobTextsBuf = [];
      owners = [];
      jobSize = 0;
      pump();
    };
    let hitIdx: number[] = [];
    let hitCounts: TokenCount[] = [];
    const flushHits = () => {
      if (hitIdx.length === 0) return;
      progress.done += hitIdx.length;
      opts.onCounts?.(hitIdx, hitCounts);
      opts.onProgress?.({ ...progress });
      hitIdx = [];
      hitCounts = [];
    };

    let sliceStart = performance.now();
    let sinceCheck = 0;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const key = keys?.[i];
      // Repeats inside the batch first (a request log loaded at once), then the memo (earlier batches).
      let unit = key != null ? byKey.get(key) : undefined;
      unit ??= local.get(text);
      if (unit) progress.reused++;
      else {
        const known = memo.lookup(text) ?? null;
        unit = { text, known, indices: [], pending: 0, tokens: 0, approximate: false };
        local.set(text, unit);
        if (known) progress.reused++;
        else {
          batch.unitsLeft++;
          for (const part of splitAtSeams(text, jobChars)) {
            if (jobSize + part.length > jobChars || jobTextsBuf.length >= jobTexts) flushJob();
            jobTextsBuf.push(part);
            owners.push(unit);
            unit.pending++;
            jobSize += part.length;
          }
        }
      }
      if (key != null && !byKey.has(key)) byKey.set(key, unit);
      if (unit.known) {
        // Known from the memo, or counted by a job that finished while the scan was still going.
        results[i] = unit.known;
        hitIdx.push(i);
        hitCounts.push(unit.known);
      } else unit.indices.push(i);
      // Look at the clock every 64 texts or 64 KB of text, whichever comes first.
      sinceCheck += 1 + (text.length >>> 10);
      if (sinceCheck >= 64 && performance.now() - sliceStart > sliceMs) {
        flushJob();
        flushHits();
        await yieldToHost();
        if (batch.settled) return;
        sliceStart = performance.now();
      }
      if (sinceCheck >= 64) sinceCheck = 0;
    }
    flushJob();
    flushHits();
    if (texts.length === 0) opts.onProgress?.({ ...progress });
    batch.scanning = false;
    finishIfDone(batch);
  }

  return {
    size,
    start() {
      if (terminated) return;
      for (let i = 0; i < size; i++) slotAt(i);
    },
    count,
    memo: (encoding, encoder = DEFAULT_ENCODER) => memoFor(encoding, encoder),
    terminate() {
      terminated = true;
      for (const b of [...batches]) settle(b, new Error('the token pool was terminated'));
      queue.length = 0;
      inFlight.clear();
      for (const s of slots) {
        if (s && !s.dead) {
          s.dead = true;
          s.worker.terminate();
        }
      }
    },
  };
}
