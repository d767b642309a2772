// One analysis worker for the tab; results cached per session and provider rule.
import * as Comlink from 'comlink';
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import type { ProviderRule } from '../../src/cache';
import type { ShownAudit } from '../../src/audit/trim-audit';
import type { PriceOverrides } from '../../src/cost/prices';
import type { Session } from '../../src/model/types';
import type { AnalysisResult, AnalysisWorkerApi, CountProgress } from '../workers/analysis.worker';
import { forgetStatic, unpackResult, unpark, type PackedResult } from './analysis-wire';
import { useApp } from '../store';
import type { AddedInstructionFile } from '../store/session-slice';
import { progressSource, type ProgressSource } from './count-progress';
import { describeAnalysisFailure } from '../../src/analysis/analysis-failure';

export { useCountProgress, type ProgressSource } from './count-progress';

export type { AnalysisResult, CountProgress };

let worker: Comlink.Remote<AnalysisWorkerApi> | null = null;
const sent = new Map<string, Promise<void>>();

function api(): Comlink.Remote<AnalysisWorkerApi> {
  if (!worker) worker = Comlink.wrap<AnalysisWorkerApi>(new Worker(new URL('../workers/analysis.worker.ts', import.meta.url), { type: 'module', name: 'analysis' }));
  return worker;
}

/** Starts the analysis worker ahead of the first session, so fetching and compiling it is off the drop's path. */
export function warmAnalysisWorker(): void {
  void api().warm();
}

let countingWarmed = false;
/** Fetches the tokenizer ranks the exact counts need, once: when the user starts to open something, not before. */
export function warmCounting(): void {
  if (countingWarmed) return;
  countingWarmed = true;
  void api().warmCounting();
}

/** Sessions the load worker sent straight to the analysis worker, by the id it sent them under. */
const handOffs = new WeakMap<Session, string>();

/** One end of a channel to the analysis worker, for the load worker to send it the sessions it parses. */
export function sessionPort(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  // The first session's estimate is worked out as it arrives, priced as the views will ask for it.
  void api().acceptSessions(Comlink.transfer(port2, [port2]), useApp.getState().prices);
  return port1;
}

export function handedOff(session: Session, id: string): void {
  handOffs.set(session, id);
}

function ensureSent(key: string, session: Session): Promise<void> {
  let p = sent.get(key);
  if (!p) {
    const id = handOffs.get(session);
    p = id ? api().adopt(key, id) : api().setSession(key, session);
    sent.set(key, p);
  }
  return p;
}

export function forgetSession(key: string): void {
  sent.delete(key);
  for (const k of [...pipelines.keys()]) if (k.startsWith(`${key}|`)) pipelines.delete(k);
  auditResults.delete(key);
  for (const k of [...auditsRead.keys()]) if (k.startsWith(`${key}|`)) auditsRead.delete(k);
  forgetStatic(key);
  void worker?.dropSession(key);
}

export type AnalysisState =
  /** `progress`: the exact count's, when the pipeline went straight to it (exactFirst). */
  | { status: 'loading'; progress?: ProgressSource }
  | { status: 'ready'; result: AnalysisResult; progress: ProgressSource }
  /** `message` says what happened and what to do; `detail` is the error as thrown, for a report. */
  | { status: 'error'; message: string; detail: string };

/** The summary audits of a session, asked for once: they do not depend on the rule or the counts. */
const auditResults = new Map<string, Promise<ShownAudit[]>>();
function auditsOf(key: string): Promise<ShownAudit[]> {
  let p = auditResults.get(key);
  if (!p) {
    p = api().audits(key);
    auditResults.set(key, p);
    p.catch(() => auditResults.delete(key));
  }
  return p;
}

/** The summary audits read with the user's instruction files, by session key and the files' ids. */
const auditsRead = new Map<string, Promise<ShownAudit[]>>();
const filesId = (key: string, files: readonly AddedInstructionFile[]) => `${key}|${files.map((f) => f.id).join(',')}`;
function auditsWith(key: string, session: Session, files: readonly AddedInstructionFile[]): Promise<ShownAudit[]> {
  const id = filesId(key, files);
  let p = auditsRead.get(id);
  if (!p) {
    // The worker gets each file's path and text, no more.
    const given = files.map(({ path, text }) => ({ path, text }));
    p = ensureSent(key, session).then(() => api().audits(key, given));
    auditsRead.set(id, p);
    p.catch(() => auditsRead.delete(id));
  }
  return p;
}

/**
 * The state with its summary audits read with the user's instruction files (while they are worked out, the audit
 * panel says so); every other figure is the session's own. A failure keeps the audits without them, and says so.
 */
function useReadWith(key: string, session: Session, files: readonly AddedInstructionFile[] | undefined, state: AnalysisState): AnalysisState {
  const id = files?.length ? filesId(key, files) : null;
  const [read, setRead] = useState<{ id: string; audits: ShownAudit[] | null } | null>(null);
  useEffect(() => {
    if (!id || !files) return;
    let live = true;
    auditsWith(key, session, files).then(
      (audits) => live && setRead({ id, audits }),
      (e: unknown) => {
        if (!live) return;
        setRead({ id, audits: null });
        useApp.getState().pushNotice({ id: `instructions-failed-${key}`, tone: 'warn', text: `The summary audit could not read the instruction files, and shows what it found without them: ${e instanceof Error ? e.message : String(e)}` });
      },
    );
    return () => {
      live = false;
    };
    // `files` is named by `id` (the files' ids).
  }, [key, session, id]);
  return useMemo(() => {
    if (!id || state.status !== 'ready') return state;
    const audits = read?.id === id ? read.audits : undefined;
    if (audits === null) return state;
    const view = state.result.view;
    const pending = view.pending.filter((p) => p !== 'audits');
    return { ...state, result: { ...state.result, view: { ...view, audits: audits ?? [], pending: audits ? pending : [...pending, 'audits'] } } };
  }, [id, state, read]);
}

function withAudits(result: AnalysisResult, audits: ShownAudit[] | null): AnalysisResult {
  if (!audits || !result.view.pending.includes('audits')) return result;
  return { ...result, view: { ...result.view, audits, pending: result.view.pending.filter((p) => p !== 'audits') } };
}

/**
 * A view unpacked in a task of its own: the message it came in was unpacked (structured clone) in the task that
 * resolved the call, and doing both in one made one long main-thread task of a big session's view.
 */
async function unpacked(call: Promise<PackedResult>, session: Session): Promise<AnalysisResult> {
  let packed = await call;
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A big view's cache reports and lints come in a second message, read in a task of its own.
  if (packed.parked) {
    packed = unpark(packed, await api().takeParked(packed.key));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return unpackResult(packed, session);
}

/** One analysis of a session under a rule, with whoever shows it listening: every view of it shares one run. */
interface Pipeline {
  state: AnalysisState;
  listeners: Set<() => void>;
  /** Called once a view of the ready state has been committed (see useAnalysis). */
  shown: () => void;
}

/**
 * Until the first view is on screen: resolves in the frame after a view of the estimate was committed, at once when
 * nobody shows the analysis (a session opened in the background), and after `FIRST_VIEW_WAIT_MS` at the latest.
 */
function firstViewPainted(p: Pipeline): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, FIRST_VIEW_WAIT_MS);
    if (p.listeners.size === 0) return finish();
    p.shown = () => {
      p.shown = () => undefined;
      // The commit is on screen after the next frame is drawn.
      requestAnimationFrame(() => setTimeout(finish, 0));
    };
  });
}

/** The longest the exact phase waits for the first view to be drawn. */
const FIRST_VIEW_WAIT_MS = 5000;
const pipelines = new Map<string, Pipeline>();

/**
 * Estimates first (at once), then exact counts with progress, then (for big sessions apart) the cache prefix and lints, then the
 * summary audits (asked for once per session, whatever the rule). `exactFirst`: nobody reads the estimate (a full
 * session behind its preview is shown once exact), so the pipeline starts at the exact count; at 30k records the
 * estimate view was ~2.8 s of the analysis worker's time in front of it.
 */
function pipelineFor(key: string, session: Session, rule: ProviderRule | 'auto', prices: PriceOverrides, exactFirst = false): Pipeline {
  const priced = Object.keys(prices).length ? JSON.stringify(prices) : '';
  const id = `${key}|${rule}|${priced}`;
  const running = pipelines.get(id);
  if (running) return running;
  const progress = progressSource();
  const p: Pipeline = { state: { status: 'loading' }, listeners: new Set(), shown: () => undefined };
  pipelines.set(id, p);
  const set = (state: AnalysisState) => {
    p.state = state;
    for (const l of p.listeners) l();
  };
  let audits: ShownAudit[] | null = null;
  const show = (result: AnalysisResult, counting: CountProgress | null) => {
    // Exact counts keep the last tick: cleared here, the status would read 0 % until the exact view renders.
    if (counting) progress.set(counting);
    set({ status: 'ready', result: withAudits(result, audits), progress });
  };
  const fail = (e: unknown) => {
    if (pipelines.get(id) === p) pipelines.delete(id); // a later view tries again
    const failure = describeAnalysisFailure(e, 'app');
    set({ status: 'error', message: failure.message, detail: failure.detail });
  };
  void (async () => {
    try {
      await ensureSent(key, session);
      if (exactFirst) set({ status: 'loading', progress });
      else {
        const estimate = await unpacked(api().analyze(key, rule, 'estimate', undefined, prices), session);
        // The first view needs none of the exact counts: the count (and the ranks it may still be loading) starts once
        // that view is drawn, instead of taking a core from its rendering.
        const painted = firstViewPainted(p);
        show(estimate, { done: 0, total: 1 });
        await painted;
      }
      const onProgress = (counted: CountProgress) => {
        if (!(p.state.status === 'ready' && p.state.result.exact)) progress.set(counted);
      };
      const exact = await unpacked(api().analyze(key, rule, 'exact', Comlink.proxy(onProgress), prices), session);
      show(exact, null);
      // A small session's exact phase did the cache prefix and lints as well.
      if (exact.view.pending.some((part) => part !== 'audits')) show(await unpacked(api().analyze(key, rule, 'complete', undefined, prices), session), null);
      // Last: the audit worker started it with the exact count (audit-offload.ts); here the views wait for nothing.
      audits = await auditsOf(key);
      if (p.state.status === 'ready') set({ ...p.state, result: withAudits(p.state.result, audits) });
    } catch (e) {
      fail(e);
    }
  })();
  return p;
}

/** The analysis of `session` as it comes in: loading, then ready (estimate → exact → complete), or error. */
export function useAnalysis(key: string, session: Session, rule: ProviderRule | 'auto', opts: { exactFirst?: boolean; instructionFiles?: readonly AddedInstructionFile[] } = {}): AnalysisState {
  // The user's prices price the cache misses; every view of the session reads the same ones from the store.
  const prices = useApp((s) => s.prices);
  const exactFirst = opts.exactFirst === true;
  const p = useMemo(() => pipelineFor(key, session, rule, prices, exactFirst), [key, session, rule, prices, exactFirst]);
  const [shown, setShown] = useState<{ p: Pipeline; state: AnalysisState }>({ p, state: p.state });
  useEffect(() => {
    // A new view re-renders the whole inspector: as a transition, React renders it in slices and a key press
    // (the next step) goes first, instead of one long main-thread task per arrival.
    const onChange = () => startTransition(() => setShown({ p, state: p.state }));
    p.listeners.add(onChange);
    onChange();
    return () => {
      p.listeners.delete(onChange);
    };
  }, [p]);
  const state = shown.p === p ? shown.state : p.state;
  // A view of the ready state is committed: the pipeline may go on to the exact counts.
  useEffect(() => {
    if (state.status === 'ready') p.shown();
  }, [p, state.status]);
  // Under another rule the same session keeps its last view until the new one's first arrives (no loading screen).
  const last = useRef<{ key: string; state: AnalysisState } | null>(null);
  if (state.status === 'ready') last.current = { key, state };
  const current = state.status === 'loading' && last.current?.key === key ? last.current.state : state;
  return useReadWith(key, session, opts.instructionFiles, current);
}
