// `compaction-inspector rerun <files…> --policy <harness|strategy> [--param k=v …] [--sweep k=a,b,c …] [--json]`
// `compaction-inspector rerun <files or folders…> --policies claude-code,codex,… [--json]`
//
// Replays a harness's compaction policy (or a generic strategy) on recorded sessions with the offline
// summarizer, the same engine the app's Re-run panel runs. Per run: where each compaction fired (1-based
// calls, with the band of the measured prompt), tokens before and after, identifiers kept, lost and needed
// later, probe scores, and the cost of compacting beside the recorded run. A sweep crosses trigger values
// (outer) with parameter values (inner), in the order the app's sweep table lists its rows. --policies ranks
// every policy side by side on each session (the app's Compare policies view), with the recorded run as the
// baseline row, and on several sessions each policy's median and total.
import { oneLine, terminalText } from './terminal-text';
import { sessionContextWindow } from '../analysis/context-window';
import { PROVIDER_RULES, type ProviderRule } from '../cache';
import {
  describeTrigger,
  gridCombinations,
  isPolicyId,
  isStrategyId,
  offlineSummarizer,
  originalBaseline,
  policyDefaults,
  policySession,
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
import { comparePolicies, corpusComparison, fireText, type CorpusPolicyRow, type PolicyComparison, type RecordedMatch } from '../compaction';
import { kindScores, PROBE_KINDS, type KindScores, type ProbeScore } from '../probes';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens';
import { counters, readInputs, type CliIo } from './cli-io';
import { openInputs } from './open-inputs';
import { giveInstructions, joinInstructions, readInstructionFiles } from './instruction-files';
import { thousands } from '../model/thousands';

export const RERUN_USAGE = `  compaction-inspector rerun <files…> --policy ${POLICY_IDS.join('|')}|<strategy>
                           [--param k=v …] [--sweep k=a,b,c …] [--trigger recorded] [--json] [--provider …]
                                                   replay a harness's compaction policy (or a strategy: ${STRATEGY_IDS.join(', ')})
                                                   with the offline summarizer; --param sets a preset or strategy value
                                                   (window, buffer, maxFiles…; threshold|percent|every|max set the trigger);
                                                   --trigger recorded compacts where the recording did (a strategy's
                                                   default when the session has recorded compactions);
                                                   --sweep runs every combination (trigger values outer, as the app's table)
  compaction-inspector rerun <files or folders…> --policies ${POLICY_IDS.join(',')} [--json]
                                                   every policy side by side on each session, the recorded run first:
                                                   compactions, peak, input, cache reads/writes, dollars, summarizer,
                                                   lost-and-needed, lost-and-refetched, survival by kind, probe scores;
                                                   on several sessions, each policy's median and total;
                                                   --instructions PATH|auto (either form): the CLAUDE.md, AGENTS.md or
                                                   GEMINI.md files the replays' audit reads as in every request (as inspect)`;

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
  measureAt: 'prompt' | 'last-response';
  /** The swept values of this run, for the table (trigger keys left out: the trigger column shows them). */
  gridParams: Record<string, GridValue>;
}

/**
 * The run for a policy (or strategy) and raw values: the preset resolved, then any trigger key applied. A generic
 * strategy compacts where the recording did when it did (`recorded`), else at 80 % of the window — never a share
 * of the session's peak.
 */
export function planRun(policy: string, raw: Record<string, GridValue>, window: number | null, gridParams: Record<string, GridValue> = {}, opts: { recorded?: boolean; trigger?: 'recorded' | null } = {}): RerunPlan {
  const own = Object.fromEntries(Object.entries(raw).filter(([k]) => !(k in TRIGGER_KEYS)));
  let plan: RerunPlan;
  if (isPolicyId(policy)) {
    const r = resolvePolicy(policy, own, window);
    plan = { policy, strategy: r.strategy, params: r.params, trigger: r.trigger, triggerExplained: r.triggerExplained, measureAt: r.measureAt, gridParams };
  } else if (opts.recorded) {
    plan = { policy, strategy: policy as StrategyId, params: own, trigger: { kind: 'recorded' }, triggerExplained: 'the session has recorded compactions: compacts where it did', measureAt: 'prompt', gridParams };
  } else {
    plan = { policy, strategy: policy as StrategyId, params: own, trigger: { kind: 'fraction', fraction: 0.8 }, triggerExplained: null, measureAt: 'prompt', gridParams };
  }
  if (opts.trigger === 'recorded') plan = { ...plan, trigger: { kind: 'recorded' }, triggerExplained: 'where the recording compacted' };
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
    measureAt: r.measureAt,
    compactions: r.events.map((e, i) => ({
      call: e.callIndex + 1,
      /** `62`, `62 ± 1`, `62 (60–65)`: the calls the trigger could have fired at, given the measured prompt's band. */
      fires: fireText(e.callIndex, e.fireWindow),
      kind: e.microcompact ? 'microcompact' : (e.label ?? 'changed'),
      tokensBefore: e.tokensBefore,
      measuredBefore: e.measuredBefore,
      band: e.band,
      tokensAfter: e.tokensAfter,
      kept: e.audit.kept.length,
      lost: e.audit.lost.length,
      neededLater: e.audit.lostReferencedLater.map((x) => x.value),
      cacheMissTokens: r.costs.rerun.events[i]?.missTokens ?? null,
      cacheMissUsd: r.costs.rerun.events[i]?.missUsd ?? null,
      refetchTax: null,
      probes: probeReport(e.probes),
    })),
    recorded: r.costs.original.events.map((e, i) => ({ call: e.call, cacheMissTokens: e.missTokens, cacheMissUsd: e.missUsd, refetchTax: e.refetchTax, probes: probeReport(r.recordedProbes[i]?.probes ?? []), probeNote: r.recordedProbes[i]?.note ?? null })),
    /** Each recorded compaction beside this run's: within one call, within the band, off, or manual (not compared). */
    recordedMatch: r.recordedMatch,
    // The figures of the app's sweep table, row for row.
    table: {
      compactions: row.compactions,
      fallbacks: row.fallbacks,
      inputTokens: row.inputTokens,
      originalInputTokens: row.originalInputTokens,
      cacheReadTokens: r.rerun.cachedTokens,
      cacheWriteTokens: r.rerun.writtenTokens,
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

/** A compaction's probes as the JSON lists them, with the offline score per kind. */
function probeReport(scores: readonly ProbeScore[]) {
  return {
    byKind: kindScores(scores),
    questions: scores.map((s) => ({ kind: s.probe.kind, question: s.probe.question, keys: s.probe.keys.map((k) => k.value), held: s.held, missing: s.missing, score: s.score })),
  };
}

interface Args {
  files: string[];
  policy: string | null;
  policies: string[] | null;
  trigger: 'recorded' | null;
  params: Record<string, GridValue>;
  sweep: [string, GridValue[]][];
  json: boolean;
  rule: ProviderRule | 'auto';
  /** `--instructions` paths (instruction-files.ts), in order. */
  instructions: string[];
}

function parseArgs(argv: string[]): Args | string {
  const out: Args = { files: [], policy: null, policies: null, trigger: null, params: {}, sweep: [], json: false, rule: 'auto', instructions: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (a.startsWith(`${name}=`)) return a.slice(eq + 1);
      return argv[++i];
    };
    if (a === '--json') out.json = true;
    else if (a === '--policy' || a.startsWith('--policy=')) out.policy = value('--policy') ?? null;
    else if (a === '--policies' || a.startsWith('--policies=')) out.policies = (value('--policies') ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');
    else if (a === '--trigger' || a.startsWith('--trigger=')) {
      const v = value('--trigger');
      if (v !== 'recorded') return `--trigger takes recorded (compact where the recording did); other triggers: --param threshold|percent|every|max=…`;
      out.trigger = 'recorded';
    }
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
    } else if (a === '--instructions' || a.startsWith('--instructions=')) {
      const v = value('--instructions');
      if (v === undefined) return '--instructions needs a file or a folder';
      out.instructions.push(v);
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else out.files.push(a);
  }
  if (out.files.length === 0) return 'rerun needs at least one file';
  if (out.policies !== null) {
    if (out.policies.length === 0) return `--policies needs a list: ${POLICY_IDS.join(',')}`;
    const bad = out.policies.filter((p) => !isPolicyId(p) && !isStrategyId(p));
    if (bad.length) return `unknown polic${bad.length === 1 ? 'y' : 'ies'} ${bad.join(', ')}: use ${POLICY_IDS.join(', ')}, or a strategy: ${STRATEGY_IDS.join(', ')}`;
    if (out.policy !== null || out.sweep.length > 0) return '--policies compares the presets as they are: leave out --policy and --sweep';
    return out;
  }
  if (out.policy === null) return `rerun needs --policy (${POLICY_IDS.join(', ')}, or a strategy: ${STRATEGY_IDS.join(', ')}) or --policies`;
  if (!isPolicyId(out.policy) && !isStrategyId(out.policy)) return `unknown policy ${out.policy}: use ${POLICY_IDS.join(', ')}, or a strategy: ${STRATEGY_IDS.join(', ')}`;
  return out;
}

/** Every run of a session: one, or the sweep's combinations (trigger keys outer, the others inner). */
export async function rerunRuns(session: Session, a: Pick<Args, 'policy' | 'params' | 'sweep' | 'rule'> & { trigger?: 'recorded' | null }, count: (t: string) => number): Promise<RerunReport[]> {
  const window = sessionContextWindow(session);
  const baseline = originalBaseline(session, { count, rule: a.rule });
  const outer = gridCombinations(Object.fromEntries(a.sweep.filter(([k]) => k in TRIGGER_KEYS)));
  const inner = gridCombinations(Object.fromEntries(a.sweep.filter(([k]) => !(k in TRIGGER_KEYS))));
  // The harness's own values for the version that wrote the session (Claude Code's trigger moved in 2.1.21).
  const harness = isPolicyId(a.policy!) ? policyDefaults(a.policy, policySession(session, window)) : {};
  const reports: RerunReport[] = [];
  for (const t of outer) {
    for (const g of inner) {
      const plan = planRun(a.policy!, { ...harness, ...a.params, ...g, ...t }, window, g, { recorded: baseline.recorded.length > 0 && Object.keys(t).length === 0 && !Object.keys(a.params).some((k) => k in TRIGGER_KEYS), trigger: a.trigger ?? null });
      const result = await rerunSession(session, {
        strategy: plan.strategy,
        params: plan.params,
        trigger: plan.trigger,
        count,
        summarizer: offlineSummarizer,
        rule: a.rule,
        baseline,
        measureAt: plan.measureAt,
        policy: isPolicyId(plan.policy) ? { id: plan.policy, label: plan.policy, triggerExplained: plan.triggerExplained ?? '' } : null,
      });
      reports.push(runReport(result, plan, reports.length));
    }
  }
  return reports;
}

/** `recall 67% · artifact 100% · …` (kinds the compaction had no probe of are left out). */
function kindsText(k: KindScores): string {
  const parts = PROBE_KINDS.filter((kind) => k[kind] !== null).map((kind) => `${kind} ${Math.round(k[kind]!.mean * 100)}%`);
  return parts.length ? parts.join(' · ') : 'none (nothing to ask about)';
}

function matchText(m: RecordedMatch): string {
  if (m.verdict === 'manual') return `recorded compaction before call ${m.call} was manual (/compact): not compared`;
  if (m.verdict === 'not-compared') return `recorded compaction before call ${m.call}: compacted at the same call`;
  if (m.verdict === 'not-fired') return `recorded compaction before call ${m.call} (${m.trigger ?? 'trigger unknown'}): this run never fired near it (measured ${m.measured ?? '—'}${m.band ? ` ± ${m.band}` : ''} there)`;
  return `recorded compaction before call ${m.call} (${m.trigger ?? 'trigger unknown'}${m.harnessTokens !== null ? `, logged at ${m.harnessTokens}` : ''}): this run fires at call ${m.replayCall}${m.window && (m.window.early !== m.replayCall || m.window.late !== m.replayCall) ? ` (band ${m.window.early}–${m.window.late ?? 'end'})` : ''}, ${m.verdict === 'within-one' ? 'within one call' : m.verdict === 'within-band' ? 'within the band' : `${Math.abs(m.offset!)} calls ${m.offset! < 0 ? 'early' : 'late'}`}; measured ${m.measured ?? '—'}${m.band ? ` ± ${m.band}` : ''} there`;
}

/** The recorded run's re-fetch tax: tokens, or why there is no figure. */
const refetchText = (tokens: number | null): string => (tokens === null ? 'not known (a compaction records no removed items)' : `${tokens} tokens`);

function renderText(file: string, session: Session, runs: RerunReport[]): string {
  const lines = [oneLine(`${file}: ${session.format}, ${session.model ?? 'unknown model'}`)];
  for (const r of runs) {
    const grid = Object.entries(r.params).map(([k, v]) => `${k}=${String(v)}`).join(' ');
    lines.push(`  run ${r.run}: ${r.policy}${r.policy === r.strategy ? '' : ` (${r.strategy})`} ${grid} ${r.trigger}${r.triggerExplained ? ` = ${r.triggerExplained}` : ''}`);
    lines.push(r.recorded.length ? `    recorded compactions at call${r.recorded.length === 1 ? '' : 's'} ${r.recorded.map((x) => x.call).join(', ')}` : '    no recorded compaction');
    for (const m of r.recordedMatch) lines.push(`    ${matchText(m)}`);
    if (r.compactions.length === 0) lines.push('    the trigger never fired');
    for (const c of r.compactions) {
      lines.push(`    call ${c.fires}: ${c.kind}, ${c.tokensBefore} → ${c.tokensAfter} tokens (measured ${c.measuredBefore}${c.band ? ` ± ${c.band}` : ''}), kept ${c.kept}, lost ${c.lost}${c.neededLater.length ? `, needed later: ${oneLine(c.neededLater.slice(0, 8).join(', '))}${c.neededLater.length > 8 ? ` and ${c.neededLater.length - 8} more` : ''}` : ''}; cache miss ${c.cacheMissTokens} tokens${c.cacheMissUsd === null ? '' : ` ($${c.cacheMissUsd.toFixed(4)})`}; probes ${kindsText(c.probes.byKind)}`);
    }
    for (const c of r.recorded) lines.push(`    recorded compaction at call ${c.call}: probes ${c.probeNote ?? kindsText(c.probes.byKind)}`);
    lines.push(`    input ${r.table.inputTokens} vs ${r.table.originalInputTokens} tokens; saved ${r.cost.rerun.savedTokens} tokens${r.cost.rerun.netUsd === null ? '' : `, net $${r.cost.rerun.netUsd.toFixed(4)} (recorded $${r.cost.recorded.netUsd?.toFixed(4) ?? '—'})`}; re-fetch tax ${refetchText(r.cost.recorded.refetchTax)} recorded, unknown for the rerun (its agent never ran)`);
    for (const w of r.warnings) lines.push(`    warning: ${oneLine(w)}`);
  }
  return lines.join('\n');
}

const fmtInt = (n: number | null) => (n === null ? '—' : thousands(Math.round(n)));
/** A size with its ± band where it is estimated (none where every figure is the provider's). */
const withBand = (n: number, band: number) => `${fmtInt(n)}${band > 0 ? ` ± ${fmtInt(band)}` : ''}`;
const fmtUsd = (n: number | null) => (n === null ? '—' : `$${n.toFixed(2)}`);
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(head, widths), ...rows.map((r) => pad(r, widths))];
}

/** One session's comparison as a table: the recorded run first, each policy below it. */
export function renderComparison(file: string, c: PolicyComparison): string {
  const head = ['policy', 'compactions (calls)', 'peak', 'input', 'estimated calls', 'cache read', 'cache write', 'prompts $', 'summarizer $', 'total $', 'lost+needed', 'lost+refetched', 'recall', 'artifact'];
  const pct = (k: KindScores[keyof KindScores]) => (k ? `${Math.round(k.mean * 100)}%` : '—');
  const rows = c.rows.map((r) =>
    r.status === 'skipped'
      ? [r.id, 'skipped', '', '', '', '', '', '', '', '', '', '', '', '']
      : [
          r.baseline ? 'recorded run' : r.id,
          `${r.compactions}${r.compactionCalls.length ? ` (${r.compactionCalls.slice(0, 3).join(', ')}${r.compactionCalls.length > 3 ? ', …' : ''})` : ''}`,
          withBand(r.peakTokens, r.peakBand),
          withBand(r.totalInputTokens, r.inputBand),
          `${r.estimatedCalls} of ${c.calls}`,
          fmtInt(r.cacheReadTokens),
          fmtInt(r.cacheWriteTokens),
          fmtUsd(r.inputUsd),
          fmtUsd(r.summarizerUsd),
          fmtUsd(r.totalUsd),
          String(r.lostNeeded),
          String(r.lostRefetched),
          pct(r.probes.recall),
          pct(r.probes.artifact),
        ],
  );
  const lines = [oneLine(`${file}: ${c.format}, ${c.model ?? 'unknown model'}, ${c.calls} calls${c.priceLabel ? `, priced as ${c.priceLabel}` : ''}`), ...table(head, rows).map((l) => `  ${l}`)];
  for (const r of c.rows) for (const m of r.recordedMatch) lines.push(`  ${r.id}: ${matchText(m)}`);
  return lines.join('\n');
}

/** Each policy's median and total over a corpus. */
export function renderCorpus(rows: readonly CorpusPolicyRow[], sessions: number): string {
  const head = ['policy', 'sessions', 'cheapest', 'median total $', 'total $', 'median input', 'total input', 'median peak', 'median lost+needed'];
  const body = rows.map((r) => [r.baseline ? 'recorded run' : r.id, String(r.sessions), String(r.cheapest), fmtUsd(r.median.totalUsd), fmtUsd(r.total.totalUsd), fmtInt(r.median.totalInputTokens), fmtInt(r.total.totalInputTokens), fmtInt(r.median.peakTokens), fmtInt(r.median.lostNeeded)]);
  return [`corpus: ${sessions} sessions`, ...table(head, body).map((l) => `  ${l}`)].join('\n');
}

export async function runRerun(argv: string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv);
  if (typeof a === 'string') {
    io.err(`${a}\n\nUsage:\n${RERUN_USAGE}`);
    return 2;
  }
  if (a.policies === null && !isPolicyId(a.policy)) {
    const known = new Set(strategyInfo(a.policy as StrategyId).params.map((p) => p.name));
    const unknown = [...Object.keys(a.params), ...a.sweep.map(([k]) => k)].filter((k) => !known.has(k) && !(k in TRIGGER_KEYS));
    if (unknown.length) {
      io.err(`${a.policy} has no parameter ${unknown.join(', ')}`);
      return 2;
    }
  }
  const instructions = a.instructions.length > 0 ? readInstructionFiles(a.instructions, io) : null;
  if (instructions && 'error' in instructions) {
    io.err(instructions.error);
    return 2;
  }
  const { inputs, missing } = readInputs(a.files, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  const loaded = await openInputs(inputs);
  const given = joinInstructions(instructions, loaded.instructions);
  const read = given ? { instructionFiles: giveInstructions(loaded.sessions, given, io) } : {};
  const errors = loaded.issues.filter((i) => i.severity === 'error');
  for (const e of errors) io.err(terminalText(oneLine(`${e.file}${e.line ? `:${e.line}` : ''}${e.field ? ` (${e.field})` : ''}: ${e.message}`)));
  const counterFor = counters();
  if (a.policies !== null) {
    const compared: { file: string; comparison: PolicyComparison }[] = [];
    for (const s of loaded.sessions) {
      const count = await counterFor(pickEncoding(s.model).encoding);
      compared.push({ file: s.files.join(' + '), comparison: await comparePolicies(s, { policies: a.policies, count, rule: a.rule }) });
    }
    const corpus = compared.length > 1 ? corpusComparison(compared.map((c) => c.comparison)) : null;
    if (a.json) io.out(JSON.stringify({ policies: a.policies, ...read, sessions: compared.map((c) => ({ file: c.file, ...c.comparison })), corpus }, null, 2));
    else {
      for (const c of compared) io.out(terminalText(renderComparison(c.file, c.comparison)));
      if (corpus) io.out(terminalText(renderCorpus(corpus, compared.length)));
    }
    return errors.length ? 1 : 0;
  }
  const out: { file: string; sessionId: string; format: string; model: string | null; runs: RerunReport[] }[] = [];
  for (const s of loaded.sessions) {
    const count = await counterFor(pickEncoding(s.model).encoding);
    const runs = await rerunRuns(s, a, count);
    out.push({ file: s.files.join(' + '), sessionId: s.id, format: s.format, model: s.model, runs });
  }
  if (a.json) io.out(JSON.stringify({ ...read, sessions: out }, null, 2));
  else for (const [i, s] of out.entries()) io.out(terminalText(renderText(s.file, loaded.sessions[i]!, s.runs)));
  return errors.length ? 1 : 0;
}
