// A small grid of reruns (e.g. tail 1..5 × three thresholds) and one row per run for a results table.
import type { Session } from '../model/types';
import { originalBaseline } from './baseline';
import { rerunSession, type RerunOptions, type RerunResult } from './rerun';
import type { StrategyId } from './strategy-registry';
import { describeTrigger, type Trigger } from './triggers';

export type GridValue = number | string | boolean | null;

export interface SweepOptions<S extends StrategyId = StrategyId> extends Omit<RerunOptions<S>, 'trigger' | 'onProgress' | 'baseline'> {
  /** Parameter values to combine, e.g. `{ tail: [1, 2, 3, 4, 5] }`; crossed with each other and with `triggers`. */
  grid: Readonly<Record<string, readonly GridValue[]>>;
  triggers: readonly Trigger[];
  /** Keep every run's full result (contexts per call) so picking a row opens it; default true. */
  keepResults?: boolean;
  onProgress?: (p: { run: number; runs: number; callIndex: number; calls: number }) => void;
}

export interface SweepRow {
  /** `run-3`; the index into `results`. */
  id: string;
  index: number;
  /** Only the grid's parameters, for the table's columns. */
  gridParams: Record<string, GridValue>;
  /** The full parameters the run used. */
  params: Record<string, unknown>;
  trigger: Trigger;
  triggerLabel: string;
  status: RerunResult['status'];
  compactions: number;
  fallbacks: number;
  originalInputTokens: number;
  inputTokens: number;
  /** originalInputTokens − inputTokens (negative when the rerun sends more). */
  savedTokens: number;
  peakTokens: number;
  cachedTokens: number;
  prefixReused: number;
  inputCost: number | null;
  originalInputCost: number | null;
  summarizerCost: number | null;
  kept: number;
  lost: number;
  invented: number;
  lostReferencedLater: number;
}

export interface SweepResult {
  status: 'done' | 'cancelled';
  rows: SweepRow[];
  /** Full results in row order (empty when `keepResults` is false). */
  results: RerunResult[];
}

/** Every combination of the grid's values, in order (the last key varies fastest). */
export function gridCombinations(grid: Readonly<Record<string, readonly GridValue[]>>): Record<string, GridValue>[] {
  let combos: Record<string, GridValue>[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    if (values.length === 0) continue;
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return combos;
}

export function sweepRow(result: RerunResult, index: number, gridParams: Record<string, GridValue>): SweepRow {
  return {
    id: `run-${index}`,
    index,
    gridParams,
    params: result.params,
    trigger: result.trigger,
    triggerLabel: describeTrigger(result.trigger),
    status: result.status,
    compactions: result.rerun.compactions,
    fallbacks: result.rerun.fallbacks,
    originalInputTokens: result.original.totalInputTokens,
    inputTokens: result.rerun.totalInputTokens,
    savedTokens: result.original.totalInputTokens - result.rerun.totalInputTokens,
    peakTokens: result.rerun.peakTokens,
    cachedTokens: result.rerun.cachedTokens,
    prefixReused: result.rerun.prefixReused,
    inputCost: result.rerun.inputCost,
    originalInputCost: result.original.inputCost,
    summarizerCost: result.rerun.summarizerCost,
    kept: result.rerun.identifiers.kept,
    lost: result.rerun.identifiers.lost,
    invented: result.rerun.identifiers.invented,
    lostReferencedLater: result.rerun.identifiers.lostReferencedLater,
  };
}

export async function sweepSession<S extends StrategyId>(session: Session, opts: SweepOptions<S>): Promise<SweepResult> {
  const baseline = originalBaseline(session, { count: opts.count, rule: opts.rule ?? 'auto' });
  const combos = gridCombinations(opts.grid);
  const runs = combos.length * opts.triggers.length;
  const rows: SweepRow[] = [];
  const results: RerunResult[] = [];
  let status: SweepResult['status'] = 'done';
  // What each run shares: everything but the grid and the sweep's own options.
  const { grid: _grid, triggers: _triggers, keepResults: _keep, onProgress, params, ...shared } = opts;
  let run = 0;
  for (const trigger of opts.triggers) {
    for (const combo of combos) {
      if (opts.signal?.aborted) return { status: 'cancelled', rows, results };
      const runIndex = run;
      const result = await rerunSession(session, {
        ...shared,
        strategy: opts.strategy,
        params: { ...(params ?? {}), ...combo },
        trigger,
        baseline,
        ...(onProgress ? { onProgress: (p) => onProgress({ run: runIndex, runs, callIndex: p.callIndex, calls: p.calls }) } : {}),
      });
      rows.push(sweepRow(result, run, combo));
      if (opts.keepResults !== false) results.push(result);
      run++;
      if (result.status === 'cancelled') {
        status = 'cancelled';
        return { status, rows, results };
      }
    }
  }
  return { status, rows, results };
}
