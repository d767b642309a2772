// The Re-run panel's state and its worker: the form per session, the run in flight (progress, the summary as it
// streams in), the result shown, the sweep and its table. Kept outside the panel so switching tabs loses nothing.
import * as Comlink from 'comlink';
import { create } from 'zustand';
import { describeTrigger, type GridValue } from '../../src/compaction';
import type { ProviderRule } from '../../src/cache';
import type { Session } from '../../src/model/types';
import { policyInfo, resolvePolicy } from '../../src/compaction';
import { defaultForm, defaultSweep, paramsOf, sweepPlan, triggerFromForm, type RerunForm, type SessionShape, type SweepForm } from '../../src/rerun/form';
import { useApp } from '../store';
import type { EndpointSettings } from '../store/settings-slice';
import { policedWorker } from '../security/policed-worker';
import type { CompareProgress, EndpointRequest, ProbeJob, ProbeProgress, RerunWorkerApi, RunOutput, RunProgress, SweepOutput } from '../workers/rerun.worker';
import type { PolicyComparison } from '../../src/compaction';
import rerunWorkerUrl from '../workers/rerun.worker.ts?worker&url';

export type { RunOutput, RunProgress, SweepOutput };

let worker: Comlink.Remote<RerunWorkerApi> | null = null;
const sent = new Map<string, { session: Session; done: Promise<void> }>();

function api(): Comlink.Remote<RerunWorkerApi> {
  // The endpoint is fetched from this worker, so it must obey the page's connect-src.
  if (!worker) worker = Comlink.wrap<RerunWorkerApi>(policedWorker(rerunWorkerUrl, { type: 'module', name: 'rerun' }));
  return worker;
}

/** Sessions closed since they were sent: the worker lets go of them and their baselines. */
function pruneClosed(): void {
  const open = new Set(useApp.getState().sessions.map((s) => s.key));
  for (const key of [...sent.keys()]) {
    if (open.has(key)) continue;
    sent.delete(key);
    void worker?.dropSession(key);
  }
}

function ensureSent(key: string, session: Session): Promise<void> {
  pruneClosed();
  const s = sent.get(key);
  if (s && s.session === session) return s.done;
  const done = api().setSession(key, session);
  sent.set(key, { session, done });
  done.catch(() => sent.delete(key));
  return done;
}

export type RunStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface SessionRerun {
  status: RunStatus;
  mode: 'run' | 'sweep';
  runId: number;
  progress: RunProgress | null;
  /** The summary text so far while the summarizer writes (endpoint streaming or the offline extractor). */
  live: { callIndex: number; text: string } | null;
  /** The rerun in the result region. */
  shown: RunOutput | null;
  /** What the shown rerun is, when it came from a sweep row. */
  shownLabel: string | null;
  shownRow: number | null;
  sweep: SweepOutput | null;
  error: string | null;
  /** Who wrote the summaries: `offline` or the endpoint's model at its origin. */
  summarizer: string;
}

const IDLE: SessionRerun = { status: 'idle', mode: 'run', runId: 0, progress: null, live: null, shown: null, shownLabel: null, shownRow: null, sweep: null, error: null, summarizer: 'offline' };

interface RerunStore {
  forms: Record<string, RerunForm>;
  sweeps: Record<string, SweepForm>;
  runs: Record<string, SessionRerun>;
  setForm(key: string, form: RerunForm): void;
  setSweep(key: string, sweep: SweepForm): void;
  patchRun(key: string, runId: number | null, patch: Partial<SessionRerun>): void;
}

export const useRerunStore = create<RerunStore>()((set) => ({
  forms: {},
  sweeps: {},
  runs: {},
  setForm: (key, form) => set((s) => ({ forms: { ...s.forms, [key]: form } })),
  setSweep: (key, sweep) => set((s) => ({ sweeps: { ...s.sweeps, [key]: sweep } })),
  // A patch for a run id that is no longer current (a stale callback) is dropped.
  patchRun: (key, runId, patch) =>
    set((s) => {
      const cur = s.runs[key] ?? IDLE;
      if (runId !== null && cur.runId !== runId) return {};
      return { runs: { ...s.runs, [key]: { ...cur, ...patch } } };
    }),
}));

/** The form of a session: the harness preset of its format, else 80 % of its window (never a share of its peak). */
export function useRerunForm(key: string, shape: SessionShape): [RerunForm, (f: RerunForm) => void] {
  const form = useRerunStore((s) => s.forms[key]);
  const setForm = useRerunStore((s) => s.setForm);
  return [form ?? defaultForm(shape), (f) => setForm(key, f)];
}

export function useSweepForm(key: string, form: RerunForm): [SweepForm, (f: SweepForm) => void] {
  const sweep = useRerunStore((s) => s.sweeps[key]);
  const setSweep = useRerunStore((s) => s.setSweep);
  return [sweep ?? defaultSweep(form), (f) => setSweep(key, f)];
}

/** The preset a form replays, for the result's label; null for a generic strategy. */
export function policyLabel(form: RerunForm, window: number | null): { id: string; label: string; triggerExplained: string } | null {
  if (form.policy === null) return null;
  const r = resolvePolicy(form.policy, form.policyValues[form.policy] ?? {}, window);
  // A trigger typed over the preset's is the user's, not the harness's.
  const trigger = triggerFromForm(form.trigger);
  const edited = JSON.stringify(trigger) !== JSON.stringify(r.trigger);
  return { id: form.policy, label: policyInfo(form.policy).label, triggerExplained: trigger.kind === 'recorded' ? 'in place of the preset’s own trigger' : edited ? 'trigger edited from the preset' : r.triggerExplained };
}

/** When the replayed harness measures its context (Codex after each response); a generic strategy, before each call. */
export function measureAtOf(form: RerunForm, window: number | null): 'prompt' | 'last-response' {
  return form.policy === null ? 'prompt' : resolvePolicy(form.policy, form.policyValues[form.policy] ?? {}, window).measureAt;
}

export function useSessionRerun(key: string): SessionRerun {
  return useRerunStore((s) => s.runs[key] ?? IDLE);
}

let nextRunId = 1;

/** A run id unique over reruns, sweeps and comparisons (the worker cancels by it). */
export function newRunId(): number {
  return nextRunId++;
}

function endpointRequest(e: EndpointSettings): EndpointRequest | null {
  if (e.baseUrl.trim() === '') return null;
  return { baseUrl: e.baseUrl.trim(), apiKey: e.apiKey, model: e.model.trim(), temperature: e.temperature, maxTokens: e.maxTokens, timeoutMs: Math.round(e.timeoutS * 1000) };
}

export function summarizerLabel(e: EndpointSettings, origin: string | null): string {
  if (e.baseUrl.trim() === '') return 'offline';
  return `${e.model.trim() || 'endpoint'} at ${origin ?? e.baseUrl.trim()}`;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface StartArgs {
  key: string;
  session: Session;
  form: RerunForm;
  endpoint: EndpointSettings;
  origin: string | null;
  rule: ProviderRule | 'auto';
  /** The session's context window, for the preset's label. */
  window: number | null;
}

/** Runs one rerun in the worker; resolves with the output once shown (null when it failed). */
export async function startRun({ key, session, form, endpoint, origin, rule, window }: StartArgs): Promise<RunOutput | null> {
  const runId = nextRunId++;
  const { patchRun } = useRerunStore.getState();
  const prev = useRerunStore.getState().runs[key] ?? IDLE;
  patchRun(key, null, { ...prev, status: 'running', mode: 'run', runId, progress: null, live: null, error: null, summarizer: summarizerLabel(endpoint, origin) });
  const onProgress = Comlink.proxy((p: RunProgress) => {
    const live = p.kind === 'run' && p.phase === 'summarizing' && p.text !== undefined ? { callIndex: p.callIndex, text: p.text } : undefined;
    patchRun(key, runId, live ? { progress: p, live } : { progress: p });
  });
  try {
    await ensureSent(key, session);
    const out = await api().run(runId, key, { strategy: form.strategy, params: paramsOf(form), trigger: triggerFromForm(form.trigger), endpoint: endpointRequest(endpoint), rule, policy: policyLabel(form, window), measureAt: measureAtOf(form, window) }, onProgress);
    patchRun(key, runId, { status: out.result.status === 'done' ? 'done' : 'cancelled', shown: out, shownLabel: null, shownRow: null, live: null, progress: null });
    return out;
  } catch (e) {
    patchRun(key, runId, { status: 'error', error: message(e), live: null, progress: null });
    return null;
  }
}

export async function startSweep(args: StartArgs & { sweep: SweepForm }): Promise<void> {
  const { key, session, form, sweep, endpoint, origin, rule, window } = args;
  const plan = sweepPlan(form, sweep);
  const { patchRun } = useRerunStore.getState();
  if (!plan.ok) {
    patchRun(key, null, { error: plan.error });
    return;
  }
  const runId = nextRunId++;
  const prev = useRerunStore.getState().runs[key] ?? IDLE;
  patchRun(key, null, { ...prev, status: 'running', mode: 'sweep', runId, progress: null, live: null, error: null, sweep: null, summarizer: summarizerLabel(endpoint, origin) });
  const onProgress = Comlink.proxy((p: RunProgress) => patchRun(key, runId, { progress: p }));
  try {
    await ensureSent(key, session);
    const out = await api().sweep(runId, key, { strategy: form.strategy, params: paramsOf(form), grid: plan.plan.grid, triggers: plan.plan.triggers, endpoint: endpointRequest(endpoint), rule, policy: policyLabel(form, window), measureAt: measureAtOf(form, window) }, onProgress);
    patchRun(key, runId, { status: out.status, sweep: out, progress: null });
  } catch (e) {
    patchRun(key, runId, { status: 'error', error: message(e), progress: null });
  }
}

/** A policy comparison in the rerun worker (the same session copy and baseline as the Re-run panel's runs). */
export async function compareInWorker(runId: number, key: string, session: Session, req: { policies: string[]; rule: ProviderRule | 'auto' }, onProgress: (p: CompareProgress) => void): Promise<PolicyComparison> {
  await ensureSent(key, session);
  return api().compare(runId, key, req, Comlink.proxy(onProgress));
}

/** Probes asked at the user's endpoint from the rerun worker (it obeys the page's connect-src). */
export async function probesInWorker(runId: number, jobs: ProbeJob[], endpoint: EndpointSettings, onProgress: (p: ProbeProgress) => void) {
  const req = endpointRequest(endpoint);
  if (!req) throw new Error('no endpoint is set');
  return api().askProbes(runId, jobs, req, Comlink.proxy(onProgress));
}

export function cancelWorkerRun(runId: number): void {
  void worker?.cancel(runId);
}

export function cancelRun(key: string): void {
  const run = useRerunStore.getState().runs[key];
  if (run && run.status === 'running') void api().cancel(run.runId);
}

/** `tail 3 · ≥ 1700 tokens` */
export function sweepRowLabel(gridParams: Record<string, GridValue>, trigger: Parameters<typeof describeTrigger>[0]): string {
  return [...Object.entries(gridParams).map(([k, v]) => `${k} ${String(v)}`), describeTrigger(trigger)].join(' · ');
}

/** Opens a sweep row's rerun in the result region. */
export function showSweepRow(key: string, index: number): void {
  const run = useRerunStore.getState().runs[key];
  const row = run?.sweep?.rows[index];
  const out = run?.sweep?.runs[index];
  if (!row || !out) return;
  useRerunStore.getState().patchRun(key, null, { shown: out, shownRow: index, shownLabel: `Sweep run ${index + 1}: ${sweepRowLabel(row.gridParams, row.trigger)}` });
}
