// Re-runs compaction off the main thread: one rerun or a sweep at a time per run id, with progress, streaming
// summary text and cancel. The endpoint summarizer's fetch runs here. Comlink cannot transfer an AbortSignal,
// so the page cancels by run id. Nothing here logs: the endpoint config carries the API key.
import * as Comlink from 'comlink';
import { createEndpointSummarizer, requestChatCompletion } from '../../src/client';
import { judgeProbe, type Probe, type ProbeJudgement, type ProbeMaterial, type ProbeStore } from '../../src/probes';
import { comparePolicies, offlineSummarizer, originalBaseline, rerunSession, sweepSession, type OriginalBaseline, type GridValue, type PolicyComparison, type RerunProgress, type RerunResult, type StrategyId, type Summarizer, type SweepRow, type Trigger } from '../../src/compaction';
import type { ProviderRule } from '../../src/cache';
import type { Item, Session } from '../../src/model/types';
import { createTokenCounter, estimateTokens, pickEncoding, TokenMemo } from '../../src/tokens';
import { installFetchedRankTables } from './fetched-rank-tables';

installFetchedRankTables();

export interface EndpointRequest {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
}

export interface RunRequest {
  strategy: StrategyId;
  params: Record<string, unknown>;
  trigger: Trigger;
  /** null: the offline summarizer (no network at all). */
  endpoint: EndpointRequest | null;
  rule: ProviderRule | 'auto';
  /** The harness preset the form replays, for the result's label. */
  policy?: { id: string; label: string; triggerExplained: string } | null;
  /** When the replayed harness measures its context (rerun.ts `measureAt`). */
  measureAt?: 'prompt' | 'last-response';
}

export interface SweepRequest extends Omit<RunRequest, 'trigger'> {
  grid: Record<string, GridValue[]>;
  triggers: Trigger[];
}

/** A rerun with the token count of every item of every call's context (same order), for the side-by-side view. */
export interface RunOutput {
  result: RerunResult;
  tokens: number[][];
  /** Token count of every item the original sent at each call, in `originalIds` order (same counter as `tokens`). */
  originalTokens: number[][];
  /** Set when exact counting was unavailable and estimates stand in. */
  countNote: string | null;
}

export interface SweepOutput {
  status: 'done' | 'cancelled';
  rows: SweepRow[];
  runs: RunOutput[];
}

export type RunProgress =
  | (RerunProgress & { kind: 'run' })
  | { kind: 'sweep'; run: number; runs: number; callIndex: number; calls: number };

const sessions = new Map<string, Session>();
const running = new Map<number, AbortController>();

type Count = { count: (text: string) => number; note: string | null };
const counts = new Map<string, Promise<Count>>();

/** The session's tokenizer, memoized by content; estimates if the rank tables cannot load. */
function counterFor(model: string | null): Promise<Count> {
  const choice = pickEncoding(model);
  let c = counts.get(choice.encoding);
  if (!c) {
    const memo = new TokenMemo();
    c = createTokenCounter(choice.encoding).then(
      (counter): Count => ({ count: (t) => memo.count(t, (x) => counter.count(x)).tokens, note: null }),
      (): Count => ({ count: (t) => estimateTokens(t, choice.encoding), note: 'exact token counts were unavailable; figures use estimates' }),
    );
    counts.set(choice.encoding, c);
  }
  return c;
}

function summarizerOf(endpoint: EndpointRequest | null): Summarizer {
  if (!endpoint || endpoint.baseUrl.trim() === '') return offlineSummarizer;
  return createEndpointSummarizer({
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    model: endpoint.model,
    temperature: endpoint.temperature,
    maxTokens: endpoint.maxTokens,
    timeoutMs: endpoint.timeoutMs,
    stream: true,
  });
}

/** The original side, computed once per session, rule and counter: every run and sweep row reuses it. */
const baselines = new Map<string, { session: Session; baseline: OriginalBaseline }>();
function baselineOf(key: string, session: Session, rule: ProviderRule | 'auto', count: Count): OriginalBaseline {
  const id = `${key}|${rule}|${count.note ?? 'exact'}`;
  const hit = baselines.get(id);
  if (hit && hit.session === session) return hit.baseline;
  const baseline = originalBaseline(session, { count: count.count, rule });
  baselines.set(id, { session, baseline });
  return baseline;
}

/** Says when the summarizer is asked, before any text arrives (a slow endpoint sends nothing for a while). */
function announcing(s: Summarizer, onStart: () => void): Summarizer {
  return {
    name: s.name,
    summarize: (req) => {
      onStart();
      return s.summarize(req);
    },
  };
}

function withTokens(result: RerunResult, count: Count, baseline: OriginalBaseline): RunOutput {
  // Most items are the same object in every call's context: each is counted once.
  const seen = new Map<Item, number>();
  const tokensOf = (it: Item) => {
    let n = seen.get(it);
    if (n === undefined) {
      n = count.count(it.text);
      seen.set(it, n);
    }
    return n;
  };
  const originalTokens = result.calls.map((_, k) => (baseline.contexts.calls[k]?.entries ?? []).map((e) => tokensOf(e.item)));
  return { result, tokens: result.calls.map((c) => c.context.map(tokensOf)), originalTokens, countNote: count.note };
}

/** Text progress at most every 50 ms (the last piece always goes), so a fast stream does not flood the page. */
function throttled(onProgress: ((p: RunProgress) => void) | undefined): (p: RunProgress) => void {
  let last = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let latest: RunProgress | null = null;
  return (p) => {
    if (!onProgress) return;
    if (p.kind === 'run' && p.phase === 'summarizing') {
      latest = p;
      const wait = 50 - (performance.now() - last);
      if (wait <= 0) {
        last = performance.now();
        onProgress(p);
      } else if (!pending) {
        pending = setTimeout(() => {
          pending = null;
          last = performance.now();
          if (latest) onProgress(latest);
        }, wait);
      }
      return;
    }
    if (pending) {
      clearTimeout(pending);
      pending = null;
      if (latest) onProgress(latest);
    }
    latest = null;
    onProgress(p);
  };
}

function sessionOf(key: string): Session {
  const s = sessions.get(key);
  if (!s) throw new Error(`session ${key} is not loaded in the rerun worker`);
  return s;
}

const api = {
  setSession(key: string, session: Session): void {
    sessions.set(key, session);
  },
  dropSession(key: string): void {
    sessions.delete(key);
    for (const id of [...baselines.keys()]) if (id.startsWith(`${key}|`)) baselines.delete(id);
  },
  async run(runId: number, key: string, req: RunRequest, onProgress?: (p: RunProgress) => void): Promise<RunOutput> {
    const session = sessionOf(key);
    const ctrl = new AbortController();
    running.set(runId, ctrl);
    try {
      const count = await counterFor(session.model);
      const progress = throttled(onProgress);
      let at = { callIndex: 0, calls: 0 };
      const summarizer = announcing(summarizerOf(req.endpoint), () => progress({ kind: 'run', phase: 'summarizing', ...at, text: '' }));
      const baseline = baselineOf(key, session, req.rule, count);
      const result = await rerunSession(session, {
        baseline,
        strategy: req.strategy,
        params: req.params,
        trigger: req.trigger,
        summarizer,
        count: count.count,
        signal: ctrl.signal,
        rule: req.rule,
        policy: req.policy ?? null,
        measureAt: req.measureAt ?? 'prompt',
        onProgress: (p) => {
          at = { callIndex: p.callIndex, calls: p.calls };
          progress({ ...p, kind: 'run' });
        },
      });
      return withTokens(result, count, baseline);
    } finally {
      running.delete(runId);
    }
  },
  async sweep(runId: number, key: string, req: SweepRequest, onProgress?: (p: RunProgress) => void): Promise<SweepOutput> {
    const session = sessionOf(key);
    const ctrl = new AbortController();
    running.set(runId, ctrl);
    try {
      const count = await counterFor(session.model);
      const summarizer = summarizerOf(req.endpoint);
      let last = 0;
      const out = await sweepSession(session, {
        strategy: req.strategy,
        params: req.params,
        grid: req.grid,
        triggers: req.triggers,
        summarizer,
        count: count.count,
        signal: ctrl.signal,
        rule: req.rule,
        policy: req.policy ?? null,
        measureAt: req.measureAt ?? 'prompt',
        onProgress: (p) => {
          const now = performance.now();
          if (now - last < 50 && p.callIndex + 1 < p.calls) return;
          last = now;
          onProgress?.({ kind: 'sweep', ...p });
        },
      });
      const baseline = baselineOf(key, session, req.rule, count);
      return { status: out.status, rows: out.rows, runs: out.results.map((r) => withTokens(r, count, baseline)) };
    } finally {
      running.delete(runId);
    }
  },
  /** Every policy replayed on the session, the recorded run first (policy-compare.ts); the offline summarizer. */
  async compare(runId: number, key: string, req: { policies: string[]; rule: ProviderRule | 'auto' }, onProgress?: (p: CompareProgress) => void): Promise<PolicyComparison> {
    const session = sessionOf(key);
    const ctrl = new AbortController();
    running.set(runId, ctrl);
    try {
      const count = await counterFor(session.model);
      const baseline = baselineOf(key, session, req.rule, count);
      let last = 0;
      return await comparePolicies(session, {
        policies: req.policies,
        count: count.count,
        rule: req.rule,
        baseline,
        signal: ctrl.signal,
        onProgress: (p) => {
          const now = performance.now();
          if (now - last < 80 && p.callIndex + 1 < p.calls) return;
          last = now;
          onProgress?.(p);
        },
      });
    } finally {
      running.delete(runId);
    }
  },
  /** Each probe asked twice at the endpoint and judged 0–5 (src/probes/judge.ts); cached by request hash. */
  askProbes(runId: number, jobs: ProbeJob[], endpoint: EndpointRequest, onProgress?: (p: ProbeProgress) => void) {
    return askProbes(runId, jobs, endpoint, onProgress);
  },
  cancel(runId: number): void {
    running.get(runId)?.abort();
  },
};

export interface CompareProgress {
  policy: number;
  policies: number;
  id: string;
  callIndex: number;
  calls: number;
}

export type RerunWorkerApi = typeof api;

/** One probe to ask: `key` names it on the page (side, compaction, probe). */
export interface ProbeJob {
  key: string;
  probe: Probe;
  material: ProbeMaterial;
}

export interface ProbeProgress {
  done: number;
  total: number;
  /** Requests sent so far, and answered from the cache. */
  sent: number;
  cached: number;
}

/** Completions by request hash for the life of the tab: asking the same probe again sends nothing. */
const probeCompletions = new Map<string, string>();
const probeStore: ProbeStore = { get: async (k) => probeCompletions.get(k), set: async (k, v) => void probeCompletions.set(k, v) };

async function askProbes(runId: number, jobs: ProbeJob[], endpoint: EndpointRequest, onProgress?: (p: ProbeProgress) => void): Promise<{ status: 'done' | 'cancelled'; results: (ProbeJudgement & { key: string })[] }> {
  const ctrl = new AbortController();
  running.set(runId, ctrl);
  const results: (ProbeJudgement & { key: string })[] = [];
  let sent = 0;
  let cached = 0;
  try {
    const complete = async (messages: { role: string; content: string }[], signal?: AbortSignal) => {
      const r = await requestChatCompletion({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, model: endpoint.model, messages, temperature: 0, maxTokens: Math.max(200, Math.min(endpoint.maxTokens, 600)), timeoutMs: endpoint.timeoutMs, stream: false, ...(signal ? { signal } : {}) });
      return r.ok ? { ok: true as const, text: r.text } : { ok: false as const, reason: `${r.failure}: ${r.reason}` };
    };
    onProgress?.({ done: 0, total: jobs.length, sent, cached });
    for (const job of jobs) {
      if (ctrl.signal.aborted) return { status: 'cancelled', results };
      const j = await judgeProbe(job.probe, job.material, { complete, store: probeStore, model: endpoint.model, signal: ctrl.signal });
      sent += j.sent;
      cached += j.cached;
      if (ctrl.signal.aborted && j.error) return { status: 'cancelled', results };
      results.push({ key: job.key, ...j });
      onProgress?.({ done: results.length, total: jobs.length, sent, cached });
    }
    return { status: 'done', results };
  } finally {
    running.delete(runId);
  }
}
Comlink.expose(api);
