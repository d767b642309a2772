// The Re-run panel's form as plain data: which strategy with which raw parameter values, the trigger, the
// sweep grid. Turns what a user typed into the options the engine takes, and proposes defaults that fire on
// the session at hand: the harness preset of the session's format, else 80 % of its context window — never a
// share of the session's own peak, which makes any strategy fire constantly.
import {
  policyDefaults,
  policyInfo,
  resolvePolicy,
  policyForFormat,
  type PolicyId,
  type PolicySession,
  effectivePrompts,
  placeholdersOf,
  resolveParams,
  strategyInfo,
  type EffectivePrompt,
  type GridValue,
  type ParamSpec,
  type StrategyId,
  type Trigger,
} from '../compaction';
import { thousands } from '../model/thousands';

export type TriggerKind = Trigger['kind'];
export const TRIGGER_KINDS: readonly { kind: TriggerKind; label: string }[] = [
  { kind: 'recorded', label: 'Where the recording compacted' },
  { kind: 'tokens', label: 'Token threshold' },
  { kind: 'fraction', label: 'Fraction of the window' },
  { kind: 'turns', label: 'Every N calls' },
  { kind: 'items', label: 'More than N items' },
];

/** Every trigger kind's value is kept, so switching kinds back and forth loses nothing. */
export interface TriggerForm {
  kind: TriggerKind;
  threshold: number;
  /** Percent of the window, 1..100 (as the user types it). */
  percent: number;
  every: number;
  /** Items (the `items` trigger). */
  max: number;
}

export interface RerunForm {
  /** The harness preset the form was filled from; null for a generic strategy. */
  policy: PolicyId | null;
  /** The preset's own values as typed (window, buffer…), per preset. */
  policyValues: Partial<Record<PolicyId, Record<string, unknown>>>;
  strategy: StrategyId;
  /** Raw parameter values per strategy as edited; missing ones take the defaults (`resolveParams`). */
  params: Partial<Record<StrategyId, Record<string, unknown>>>;
  trigger: TriggerForm;
}

export interface SweepForm {
  /** The integer parameter the grid varies (e.g. `tail`). */
  param: string;
  /** Values as typed: `1-5` or `1, 2, 3`. */
  values: string;
  /** Trigger values as typed, in the trigger kind's unit (tokens, percent, calls). */
  thresholds: string;
}

/** A round number near `n` (two significant digits), at least 1. */
export function roundNice(n: number): number {
  if (!Number.isFinite(n) || n <= 1) return 1;
  const mag = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.max(1, Math.round(n / mag) * mag);
}

/** What the defaults need to know of a session. */
export interface SessionShape {
  format: string | null;
  /** The session's context window (reported, or known from its model); null when unknown. */
  window: number | null;
  /** The session recorded an Anthropic API server-side compaction (a `compaction` block in a request log). */
  serverCompaction?: boolean;
  /** 1-based calls the recording compacted before (its own compactions, recorded or inferred). */
  recordedCalls?: readonly number[];
  /** The harness version and model that wrote it: a preset starts from that version's own numbers. */
  harness?: PolicySession;
}

/** Window assumed for the 80 % default when the session's is unknown. */
export const FALLBACK_WINDOW = 200_000;

const triggerForm = (t: Trigger, base: TriggerForm): TriggerForm => {
  switch (t.kind) {
    case 'tokens':
      return { ...base, kind: 'tokens', threshold: t.threshold };
    case 'fraction':
      return { ...base, kind: 'fraction', percent: Math.round(t.fraction * 100) };
    case 'turns':
      return { ...base, kind: 'turns', every: t.every };
    case 'items':
      return { ...base, kind: 'items', max: t.max };
    case 'recorded':
      return { ...base, kind: 'recorded' };
  }
};

/**
 * The form with a harness preset applied: its strategy, the preset's parameters and its trigger. A preset picked
 * afresh starts from the values of the harness version that wrote the session (`harness`), shown in its fields.
 */
export function applyPolicy(form: RerunForm, id: PolicyId, window: number | null, values?: Record<string, unknown>, harness?: PolicySession): RerunForm {
  const raw = values ?? form.policyValues[id] ?? (harness ? policyDefaults(id, harness) : {});
  const r = resolvePolicy(id, raw, window);
  return {
    ...form,
    policy: id,
    policyValues: { ...form.policyValues, [id]: raw },
    strategy: r.strategy,
    params: { ...form.params, [r.strategy]: { ...(form.params[r.strategy] ?? {}), ...r.params } },
    trigger: triggerForm(r.trigger, form.trigger),
  };
}

/**
 * The preset of the session's format, else summarize-middle. The trigger: where the recording compacted when it
 * did (a user comparing summarizers wants them at the same points), else the preset's, else 80 % of the window.
 */
export function defaultForm(session: SessionShape): RerunForm {
  const form = presetForm(session);
  return (session.recordedCalls?.length ?? 0) > 0 ? { ...form, trigger: { ...form.trigger, kind: 'recorded' } } : form;
}

/** Which trigger the default form chose and why, in a sentence for the form. */
export function defaultTriggerNote(session: SessionShape): string {
  const recorded = session.recordedCalls ?? [];
  if (recorded.length > 0) {
    const calls = recorded.length === 1 ? `call ${recorded[0]}` : `calls ${recorded.slice(0, 5).join(', ')}${recorded.length > 5 ? '…' : ''}`;
    return `Default: where the recording compacted (before ${calls}), so a summarizer is compared with the recorded one at the same points. Pick another trigger to see where a policy would have fired.`;
  }
  const preset = session.serverCompaction ? policyInfo('anthropic-server') : policyForFormat(session.format);
  if (preset) return `Default: the ${preset.label} preset's own trigger; the session has no recorded compaction.`;
  return `Default: 80% of the ${session.window !== null ? `${thousands(session.window)}-token` : `assumed ${thousands(FALLBACK_WINDOW)}-token`} context window; the session has no recorded compaction to compact at.`;
}

function presetForm(session: SessionShape): RerunForm {
  const window = session.window;
  const base: RerunForm = {
    policy: null,
    policyValues: {},
    strategy: 'summarize-middle',
    params: {},
    trigger: window !== null ? { kind: 'fraction', threshold: Math.round(window * 0.8), percent: 80, every: 5, max: 80 } : { kind: 'tokens', threshold: FALLBACK_WINDOW * 0.8, percent: 80, every: 5, max: 80 },
  };
  const preset = session.serverCompaction ? policyInfo('anthropic-server') : policyForFormat(session.format);
  return preset ? applyPolicy(base, preset.id, window, undefined, session.harness) : base;
}

/** How the trigger of a preset form was worked out; null for a generic form. */
export function policyNote(form: RerunForm, window: number | null): string | null {
  if (form.policy === null) return null;
  const p = policyInfo(form.policy);
  return `${p.label} (${p.version}): ${resolvePolicy(form.policy, form.policyValues[form.policy] ?? {}, window).triggerExplained}`;
}

/** Three trigger values around the form's own, in the kind's unit. */
export function suggestedThresholds(trigger: TriggerForm): number[] {
  switch (trigger.kind) {
    case 'tokens':
      return [...new Set([0.75, 1, 1.25].map((f) => roundNice(trigger.threshold * f)))];
    case 'fraction':
      return [60, 80, 90];
    case 'turns':
      return [3, 5, 7];
    case 'items':
      return [...new Set([0.5, 1, 1.5].map((f) => Math.max(1, Math.round(trigger.max * f))))];
    case 'recorded':
      return [];
  }
}

export function triggerFromForm(t: TriggerForm): Trigger {
  switch (t.kind) {
    case 'tokens':
      return { kind: 'tokens', threshold: Math.max(1, Math.floor(t.threshold) || 1) };
    case 'fraction':
      return { kind: 'fraction', fraction: Math.min(1, Math.max(0.01, (t.percent || 1) / 100)) };
    case 'turns':
      return { kind: 'turns', every: Math.max(1, Math.floor(t.every) || 1) };
    case 'items':
      return { kind: 'items', max: Math.max(1, Math.floor(t.max) || 1) };
    case 'recorded':
      return { kind: 'recorded' };
  }
}

/** The trigger for one typed value of the kind's unit. */
export function triggerOfValue(kind: TriggerKind, value: number): Trigger {
  return triggerFromForm({ kind, threshold: value, percent: value, every: value, max: value });
}

export type NumberList = { ok: true; values: number[] } | { ok: false; error: string };

/**
 * Numbers from what a user typed: `1-5`, `1..5`, `1, 2, 3` or a mix (`1-3, 8`). Ranges are integer steps.
 * Duplicates dropped, order kept, at most `max` values.
 */
export function parseNumberList(text: string, opts: { min?: number; max?: number; integer?: boolean; maxValues?: number } = {}): NumberList {
  const min = opts.min ?? -Infinity;
  const max = opts.max ?? Infinity;
  const maxValues = opts.maxValues ?? 50;
  const values: number[] = [];
  const parts = text.split(/[,;\s]+/).filter((p) => p !== '');
  if (parts.length === 0) return { ok: false, error: 'enter at least one value' };
  for (const part of parts) {
    const range = /^(-?\d+(?:\.\d+)?)(?:-|\.\.|–)(-?\d+(?:\.\d+)?)$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      if (!Number.isInteger(a) || !Number.isInteger(b)) return { ok: false, error: `a range needs whole numbers: "${part}"` };
      if (b < a) return { ok: false, error: `a range must go up: "${part}"` };
      if (b - a + 1 + values.length > maxValues) return { ok: false, error: `at most ${maxValues} values` };
      for (let v = a; v <= b; v++) values.push(v);
      continue;
    }
    const n = Number(part);
    if (!Number.isFinite(n)) return { ok: false, error: `not a number: "${part}"` };
    values.push(n);
  }
  const distinct = [...new Set(values)];
  for (const v of distinct) {
    if (opts.integer && !Number.isInteger(v)) return { ok: false, error: `whole numbers only: ${v}` };
    if (v < min || v > max) return { ok: false, error: `${v} is out of range (${min}…${max === Infinity ? '∞' : max})` };
  }
  if (distinct.length > maxValues) return { ok: false, error: `at most ${maxValues} values` };
  return { ok: true, values: distinct };
}

/** Bounds of a trigger value typed in the kind's unit. */
export function triggerValueBounds(kind: TriggerKind): { min: number; max?: number } {
  return kind === 'fraction' ? { min: 1, max: 100 } : { min: 1 };
}

export type IntParamSpec = Extract<ParamSpec, { kind: 'int' | 'int-or-null' }>;

/** Integer parameters a sweep can vary. */
export function sweepableParams(strategy: StrategyId): IntParamSpec[] {
  return strategyInfo(strategy).params.filter((p): p is IntParamSpec => p.kind === 'int' || p.kind === 'int-or-null');
}

/** A sweep over the strategy's main integer parameter and three triggers around the form's. */
export function defaultSweep(form: RerunForm): SweepForm {
  const specs = sweepableParams(form.strategy);
  const param = specs.find((p) => p.name === 'tail') ?? specs.find((p) => p.name === 'keepLast') ?? specs[0];
  return { param: param?.name ?? '', values: param ? '1-5' : '', thresholds: suggestedThresholds(form.trigger).join(', ') };
}

export interface SweepPlan {
  grid: Record<string, GridValue[]>;
  triggers: Trigger[];
  runs: number;
}

export type SweepPlanResult = { ok: true; plan: SweepPlan } | { ok: false; error: string };

const MAX_SWEEP_RUNS = 200;

export function sweepPlan(form: RerunForm, sweep: SweepForm): SweepPlanResult {
  const spec = sweepableParams(form.strategy).find((p) => p.name === sweep.param);
  let grid: Record<string, GridValue[]> = {};
  if (spec) {
    const values = parseNumberList(sweep.values, { min: spec.min, integer: true, ...(spec.kind === 'int' && spec.max !== undefined ? { max: spec.max } : {}) });
    if (!values.ok) return { ok: false, error: `${spec.label}: ${values.error}` };
    grid = { [spec.name]: values.values };
  }
  const kind = form.trigger.kind;
  let triggers: Trigger[];
  if (kind === 'recorded') triggers = [{ kind: 'recorded' }];
  else {
    const thresholds = parseNumberList(sweep.thresholds, { ...triggerValueBounds(kind), integer: kind !== 'fraction' });
    if (!thresholds.ok) return { ok: false, error: `Thresholds: ${thresholds.error}` };
    triggers = thresholds.values.map((v) => triggerOfValue(kind, v));
  }
  const runs = triggers.length * (spec ? grid[spec.name]!.length : 1);
  if (runs > MAX_SWEEP_RUNS) return { ok: false, error: `${runs} runs is too many (at most ${MAX_SWEEP_RUNS})` };
  return { ok: true, plan: { grid, triggers, runs } };
}

/** The raw values of the chosen strategy, validated the way the engine will read them. */
export function paramsOf(form: RerunForm): Record<string, unknown> {
  return { ...resolveParams(form.strategy, form.params[form.strategy] ?? {}) };
}

export interface PromptField extends EffectivePrompt {
  /** Placeholders the default prompt uses that this one no longer does (the strategy fills only those). */
  missing: string[];
  /** Placeholders written that the strategy does not fill: sent as typed. */
  unknown: string[];
  /** The user changed it from the default. */
  edited: boolean;
}

/** The prompts the chosen strategy sends, with what their placeholders mean for the run. */
export function promptFields(form: RerunForm): PromptField[] {
  const raw = form.params[form.strategy] ?? {};
  const current = effectivePrompts(form.strategy, raw);
  // Defaults for the same choices (rendering, method), prompts themselves left at their defaults.
  const choices = Object.fromEntries(Object.entries(raw).filter(([k]) => !current.some((p) => p.param === k)));
  const defaults = effectivePrompts(form.strategy, choices);
  return current.map((p) => {
    const d = defaults.find((x) => x.param === p.param);
    const expected = d ? placeholdersOf(d.template) : p.placeholders;
    return {
      ...p,
      missing: expected.filter((x) => !p.placeholders.includes(x)),
      unknown: p.placeholders.filter((x) => !expected.includes(x)),
      edited: d !== undefined && d.template !== p.template,
    };
  });
}
