// `compaction-inspector rerun <files…> --policy <harness|strategy> [--param k=v …] [--sweep k=a,b,c …] [--json]`
//
// Replays a harness's compaction policy (or a generic strategy) on recorded sessions with the offline
// summarizer, the same engine the app's Re-run panel runs. Per run: where each compaction fired (1-based
// calls), tokens before and after, identifiers kept, lost and needed later, and the cost of compacting (cache
// misses priced with src/cost/prices.ts) beside the recorded run. A sweep crosses trigger values (outer) with
// parameter values (inner), in the order the app's sweep table lists its rows.
import { terminalText } from './terminal-text';
import { knownContextWindow } from '../analysis/analysis-view';
import { PROVIDER_RULES, type ProviderRule } from '../cache';
import {
  describeTrigger,
  gridCombinations,
  isPolicyId,
  isStrategyId,
  offlineSummarizer,
  originalBaseline,
  POLICY_IDS,
  resolvePolicy,
  rerunSession,
  STRATEGY_IDS,
  strategyInfo,
  type GridValue,
  type RerunResult,
  type StrategyId,
  type Trigger,
} from '../compaction';
import { sweepRow } from '../compaction/sweep';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens';
import { counters, readInputs, type CliIo } from './cli-io';
import { openInputs } from './open-inputs';

export const RERUN_USAGE = `  compaction-inspector rerun <files…> --policy ${POLICY_IDS.join('|')}|<strategy>
                           [--param k=v …] [--sweep k=a,b,c …] [--json] [--provider …]
                                                   replay a harness's compaction policy (or a strategy: ${STRATEGY_IDS.join(', ')})
                                                   with the offline summarizer; --param sets a preset or strategy value
                                                   (window, buffer, maxFiles…; threshold|percent|every|max set the trigger);
                                                   --sweep runs every combination (trigger values outer, as the app's table)`;

/** The trigger keys and the trigger kind each one sets. */
const TRIGGER_KEYS: Record<string, Trigger['kind']> = { threshold: 'tokens', percent: 'fraction', every: 'turns', max: 'items' };

function parseValue(v: string): GridValue {
  if (v === 'null' || v === '') return null;
  if (v === 'true' || v === 'false') return v === 'true';
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

function triggerOf(key: string, value: GridValue): Trigger | null {
  const kind = TRIGGER_KEYS[key];
  if (!kind || typeof value !== 'number') return null;
  if (kind === 'tokens') return { kind, threshold: Math.max(1, Math.floor(value)) };
  if (kind === 'fraction') return { kind, fraction: Math.min(1, Math.max(0.01, value / 100)) };
  if (kind === 'turns') return { kind, every: Math.max(1, Math.floor(value)) };
  return { kind, max: Math.max(1, Math.floor(value)) };
}

export interface RerunPlan {
  policy: string;
  strategy: StrategyId;
  params: Record<string, unknown>;
  trigger: Trigger;
  triggerExplained: string | null;
  /** The swept values of this run, for the table (trigger keys left out: the trigger column shows them). */
  gridParams: Record<string, GridValue>;
}

/** The run for a policy (or strategy) and raw values: the preset resolved, then any trigger key applied. */
export function planRun(policy: string, raw: Record<string, GridValue>, window: number | null, gridParams: Record<string, GridValue> = {}): RerunPlan {
  const own = Object.fromEntries(Object.entries(raw).filter(([k]) => !(k in TRIGGER_KEYS)));
  let plan: RerunPlan;
  if (isPolicyId(policy)) {
    const r = resolvePolicy(policy, own, window);
    plan = { policy, strategy: r.strategy, params: r.params, trigger: r.trigger, triggerExplained: r.triggerExplained, gridParams };
  } else {
    // A generic strategy defaults to 80 % of the window, never a share of the session's peak.
    plan = { policy, strategy: policy as StrategyId, params: own, trigger: { kind: 'fraction', fraction: 0.8 }, triggerExplained: null, gridParams };
  }
  for (const [k, v] of Object.entries(raw)) {
    const t = triggerOf(k, v);
    if (t) plan = { ...plan, trigger: t, triggerExplained: null };
  }
  return plan;
}

/** One run as the CLI prints it. */
export function runReport(r: RerunResult, plan: RerunPlan, index: number) {
  const row = sweepRow(r, index, plan.gridParams);
  const ids = r.rerun.identifiers;
  return {
    run: index + 1,
    policy: plan.policy,
    strategy: r.strategy,
    params: plan.gridParams,
    trigger: describeTrigger(r.trigger),
    triggerExplained: plan.triggerExplained,
    compactions: r.events.map((e, i) => ({
      call: e.callIndex + 1,
      kind: e.microcompact ? 'microcompact' : (e.label ?? 'changed'),
      tokensBefore: e.tokensBefore,
      measuredBefore: e.measuredBefore,
      tokensAfter: e.tokensAfter,
      kept: e.audit.kept.length,
      lost: e.audit.lost.length,
      neededLater: e.audit.lostReferencedLater.map((x) => x.value),
      cacheMissTokens: r.costs.rerun.events[i]?.missTokens ?? null,
      cacheMissUsd: r.costs.rerun.events[i]?.missUsd ?? null,
      refetchTax: null,
    })),
    recorded: r.costs.original.events.map((e) => ({ call: e.call, cacheMissTokens: e.missTokens, cacheMissUsd: e.missUsd, refetchTax: e.refetchTax })),
    // The figures of the app's sweep table, row for row.
    table: {
      compactions: row.compactions,
      fallbacks: row.fallbacks,
      inputTokens: row.inputTokens,
      originalInputTokens: row.originalInputTokens,
      prefixReused: row.prefixReused,
      inputCost: row.inputCost,
      kept: ids.keptValues.length,
      lost: ids.lostValues.length,
      invented: ids.inventedValues.length,
      lostReferencedLater: ids.lostReferencedLaterValues.length,
    },
    identifiers: { kept: ids.keptValues, lost: ids.lostValues, neededLater: ids.lostReferencedLaterValues },
    cost: { rerun: r.costs.rerun.totals, recorded: r.costs.original.totals },
    history: r.history,
    warnings: r.warnings,
  };
}

export type RerunReport = ReturnType<typeof runReport>;

interface Args {
  files: string[];
  policy: string | null;
  params: Record<string, GridValue>;
  sweep: [string, GridValue[]][];
  json: boolean;
  rule: ProviderRule | 'auto';
}

function parseArgs(argv: string[]): Args | string {
  const out: Args = { files: [], policy: null, params: {}, sweep: [], json: false, rule: 'auto' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (a.startsWith(`${name}=`)) return a.slice(eq + 1);
      return argv[++i];
    };
    if (a === '--json') out.json = true;
    else if (a === '--policy' || a.startsWith('--policy=')) out.policy = value('--policy') ?? null;
    else if (a === '--provider' || a.startsWith('--provider=')) {
      const v = value('--provider');
      if (!v || !(PROVIDER_RULES as readonly string[]).includes(v)) return `--provider must be one of ${PROVIDER_RULES.join(', ')}`;
      out.rule = v as ProviderRule;
    } else if (a === '--param' || a.startsWith('--param=')) {
      const kv = value('--param') ?? '';
      const eq = kv.indexOf('=');
      if (eq <= 0) return `--param needs k=v, got "${kv}"`;
      out.params[kv.slice(0, eq)] = parseValue(kv.slice(eq + 1));
    } else if (a === '--sweep' || a.startsWith('--sweep=')) {
      const kv = value('--sweep') ?? '';
      const eq = kv.indexOf('=');
      if (eq <= 0) return `--sweep needs k=a,b,c, got "${kv}"`;
      const values = kv.slice(eq + 1).split(',').filter((v) => v !== '').map(parseValue);
      if (values.length === 0) return `--sweep ${kv.slice(0, eq)} has no values`;
      out.sweep.push([kv.slice(0, eq), values]);
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else out.files.push(a);
  }
  if (out.files.length === 0) return 'rerun needs at least one file';
  if (out.policy === null) return `rerun needs --policy (${POLICY_IDS.join(', ')}, or a strategy: ${STRATEGY_IDS.join(', ')})`;
  if (!isPolicyId(out.policy) && !isStrategyId(out.policy)) return `unknown policy ${out.policy}: use ${POLICY_IDS.join(', ')}, or a strategy: ${STRATEGY_IDS.join(', ')}`;
  return out;
}

/** Every run of a session: one, or the sweep's combinations (trigger keys outer, the others inner). */
export async function rerunRuns(session: Session, a: Pick<Args, 'policy' | 'params' | 'sweep' | 'rule'>, count: (t: string) => number): Promise<RerunReport[]> {
  const window = session.contextWindow ?? knownContextWindow(session.model);
  const baseline = originalBaseline(session, { count, rule: a.rule });
  const outer = gridCombinations(Object.fromEntries(a.sweep.filter(([k]) => k in TRIGGER_KEYS)));
  const inner = gridCombinations(Object.fromEntries(a.sweep.filter(([k]) => !(k in TRIGGER_KEYS))));
  const reports: RerunReport[] = [];
  for (const t of outer) {
    for (const g of inner) {
      const plan = planRun(a.policy!, { ...a.params, ...g, ...t }, window, g);
      const result = await rerunSession(session, {
        strategy: plan.strategy,
        params: plan.params,
        trigger: plan.trigger,
        count,
        summarizer: offlineSummarizer,
        rule: a.rule,
        baseline,
        policy: isPolicyId(plan.policy) ? { id: plan.policy, label: plan.policy, triggerExplained: plan.triggerExplained ?? '' } : null,
      });
      reports.push(runReport(result, plan, reports.length));
    }
  }
  return reports;
}

/** The recorded run's re-fetch tax: tokens, or why there is no figure. */
const refetchText = (tokens: number | null): string => (tokens === null ? 'not known (a compaction records no removed items)' : `${tokens} tokens`);

function renderText(file: string, session: Session, runs: RerunReport[]): string {
  const lines = [`${file}: ${session.format}, ${session.model ?? 'unknown model'}`];
  for (const r of runs) {
    const grid = Object.entries(r.params).map(([k, v]) => `${k}=${String(v)}`).join(' ');
    lines.push(`  run ${r.run}: ${r.policy}${r.policy === r.strategy ? '' : ` (${r.strategy})`} ${grid} ${r.trigger}${r.triggerExplained ? ` = ${r.triggerExplained}` : ''}`);
    lines.push(`    recorded compactions at call ${r.recorded.map((x) => x.call).join(', ') || 'none'}`);
    if (r.compactions.length === 0) lines.push('    the trigger never fired');
    for (const c of r.compactions) {
      lines.push(`    call ${c.call}: ${c.kind}, ${c.tokensBefore} → ${c.tokensAfter} tokens (measured ${c.measuredBefore}), kept ${c.kept}, lost ${c.lost}${c.neededLater.length ? `, needed later: ${c.neededLater.slice(0, 8).join(', ')}${c.neededLater.length > 8 ? ` and ${c.neededLater.length - 8} more` : ''}` : ''}; cache miss ${c.cacheMissTokens} tokens${c.cacheMissUsd === null ? '' : ` ($${c.cacheMissUsd.toFixed(4)})`}`);
    }
    lines.push(`    input ${r.table.inputTokens} vs ${r.table.originalInputTokens} tokens; saved ${r.cost.rerun.savedTokens} tokens${r.cost.rerun.netUsd === null ? '' : `, net $${r.cost.rerun.netUsd.toFixed(4)} (recorded $${r.cost.recorded.netUsd?.toFixed(4) ?? '—'})`}; re-fetch tax ${refetchText(r.cost.recorded.refetchTax)} recorded, unknown for the rerun (its agent never ran)`);
    for (const w of r.warnings) lines.push(`    warning: ${w}`);
  }
  return lines.join('\n');
}

export async function runRerun(argv: string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv);
  if (typeof a === 'string') {
    io.err(`${a}\n\nUsage:\n${RERUN_USAGE}`);
    return 2;
  }
  if (!isPolicyId(a.policy)) {
    const known = new Set(strategyInfo(a.policy as StrategyId).params.map((p) => p.name));
    const unknown = [...Object.keys(a.params), ...a.sweep.map(([k]) => k)].filter((k) => !known.has(k) && !(k in TRIGGER_KEYS));
    if (unknown.length) {
      io.err(`${a.policy} has no parameter ${unknown.join(', ')}`);
      return 2;
    }
  }
  const { inputs, missing } = readInputs(a.files, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  const loaded = await openInputs(inputs);
  const errors = loaded.issues.filter((i) => i.severity === 'error');
  for (const e of errors) io.err(terminalText(`${e.file}${e.line ? `:${e.line}` : ''}${e.field ? ` (${e.field})` : ''}: ${e.message}`));
  const counterFor = counters();
  const out: { file: string; sessionId: string; format: string; model: string | null; runs: RerunReport[] }[] = [];
  for (const s of loaded.sessions) {
    const count = await counterFor(pickEncoding(s.model).encoding);
    const runs = await rerunRuns(s, a, count);
    out.push({ file: s.files.join(' + '), sessionId: s.id, format: s.format, model: s.model, runs });
  }
  if (a.json) io.out(JSON.stringify({ sessions: out }, null, 2));
  else for (const [i, s] of out.entries()) io.out(terminalText(renderText(s.file, loaded.sessions[i]!, s.runs)));
  return errors.length ? 1 : 0;
}
