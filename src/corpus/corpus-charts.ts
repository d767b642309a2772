// What the corpus charts draw, computed from rows: omission frequency by turn (Agent-Omit Fig. 6b), summaries
// per trajectory and the turns they fire at, mean tokens by outcome, and tokens against reward or success.
// Each bucket also says which rows it holds, as a filter the table can apply when the bar is clicked.
import type { CorpusRow } from './corpus-row';

/** The fields the charts read; the app's rows carry more. */
export type ChartRow = Pick<
  CorpusRow,
  'turns' | 'total_tokens' | 'peak_context_tokens' | 'summaries' | 'summary_turns' | 'thought_omission_turns' | 'observation_omission_turns' | 'success' | 'reward'
>;

export interface OmissionTurn {
  /** 1-based turn. */
  turn: number;
  /** Trajectories that reached this turn. */
  reached: number;
  thought: number;
  observation: number;
  /** Share of the trajectories that reached the turn which omitted a thought / observations in it (0–1). */
  thoughtRate: number;
  observationRate: number;
}

/** The largest `f(x)`, or -Infinity for none; a loop, since spreading 100k values into Math.max overflows the stack. */
export function maxOf<T>(xs: readonly T[], f: (x: T) => number): number {
  let m = -Infinity;
  for (const x of xs) {
    const v = f(x);
    if (v > m) m = v;
  }
  return m;
}

export function minOf<T>(xs: readonly T[], f: (x: T) => number): number {
  return -maxOf(xs, (x) => -f(x));
}

/** Turns beyond this are left out of per-turn charts (and counted as such). */
export const MAX_CHART_TURN = 60;

export function omissionByTurn(rows: readonly ChartRow[]): { turns: OmissionTurn[]; beyond: number } {
  const maxTurn = Math.min(MAX_CHART_TURN, Math.max(0, maxOf(rows, (r) => r.turns)));
  const reached = new Array<number>(maxTurn + 2).fill(0);
  const thought = new Array<number>(maxTurn + 2).fill(0);
  const observation = new Array<number>(maxTurn + 2).fill(0);
  let beyond = 0;
  for (const r of rows) {
    for (let t = 1; t <= Math.min(r.turns, maxTurn); t++) reached[t]!++;
    for (const t of r.thought_omission_turns) t <= maxTurn ? thought[t]!++ : beyond++;
    for (const t of r.observation_omission_turns) t <= maxTurn ? observation[t]!++ : beyond++;
  }
  const turns: OmissionTurn[] = [];
  for (let t = 1; t <= maxTurn; t++) {
    const n = reached[t]!;
    turns.push({ turn: t, reached: n, thought: thought[t]!, observation: observation[t]!, thoughtRate: n ? thought[t]! / n : 0, observationRate: n ? observation[t]! / n : 0 });
  }
  return { turns, beyond };
}

export interface CountBucket {
  /** The bucket's value (number of summaries, or a turn). */
  value: number;
  count: number;
}

/** Trajectories by number of summaries: 0, 1, 2, …; the last bucket holds `cap` and more. */
export function summariesHistogram(rows: readonly ChartRow[], cap = 20): { buckets: CountBucket[]; capped: boolean } {
  const top = Math.min(cap, Math.max(0, maxOf(rows, (r) => r.summaries)));
  const counts = new Array<number>(top + 1).fill(0);
  for (const r of rows) counts[Math.min(top, r.summaries)]!++;
  return { buckets: counts.map((count, value) => ({ value, count })), capped: rows.some((r) => r.summaries > cap) };
}

/** A run of turns one bar of the summary-turn chart stands for (`value` to `to`, both inclusive). */
export interface TurnBucket extends CountBucket {
  /** The last turn of the bar, when it covers more than one. */
  to?: number;
}

/** The round number of turns per bar (1, 2, 5, 10, 20, 50, …) that keeps the chart within `bars` bars. */
export function turnsPerBar(maxTurn: number, bars = MAX_CHART_TURN): number {
  for (let p = 1; ; p *= 10) for (const m of [1, 2, 5]) if (maxTurn <= bars * m * p) return m * p;
}

/**
 * Summaries by the turn after which they were written. Every summary is drawn: past MAX_CHART_TURN turns, each bar
 * covers a round run of turns instead of one. `beyond` stays for callers that still read it: always 0.
 */
export function summaryTurnHistogram(rows: readonly ChartRow[]): { buckets: TurnBucket[]; beyond: number } {
  const maxTurn = Math.max(0, maxOf(rows, (r) => maxOf(r.summary_turns, (t) => t)));
  const width = turnsPerBar(maxTurn);
  const bars = Math.ceil(maxTurn / width);
  const counts = new Array<number>(bars).fill(0);
  for (const r of rows) for (const t of r.summary_turns) if (t >= 1) counts[Math.floor((t - 1) / width)]!++;
  const buckets = counts.map((count, i) => (width === 1 ? { value: i + 1, count } : { value: i * width + 1, to: (i + 1) * width, count }));
  return { buckets, beyond: 0 };
}

export type Outcome = 'success' | 'failure' | 'unknown';

export function outcomeOf(r: Pick<ChartRow, 'success'>): Outcome {
  return r.success === true ? 'success' : r.success === false ? 'failure' : 'unknown';
}

export interface OutcomeTokens {
  outcome: Outcome;
  trajectories: number;
  meanTotalTokens: number;
  meanPeakContextTokens: number;
}

/** Mean tokens per trajectory for each outcome present in the rows (success, failure, unknown, in that order). */
export function tokensByOutcome(rows: readonly ChartRow[]): OutcomeTokens[] {
  const acc = new Map<Outcome, { n: number; total: number; peak: number }>();
  for (const r of rows) {
    const o = outcomeOf(r);
    const a = acc.get(o) ?? { n: 0, total: 0, peak: 0 };
    a.n++;
    a.total += r.total_tokens;
    a.peak += r.peak_context_tokens;
    acc.set(o, a);
  }
  return (['success', 'failure', 'unknown'] as const)
    .filter((o) => acc.has(o))
    .map((o) => {
      const a = acc.get(o)!;
      return { outcome: o, trajectories: a.n, meanTotalTokens: a.total / a.n, meanPeakContextTokens: a.peak / a.n };
    });
}

export interface ScatterPoint {
  /** Index of the row in the input. */
  row: number;
  x: number;
  y: number;
  outcome: Outcome;
  /** Drawn at its success (1 or 0) because the row has no reward while others do. */
  fromSuccess: boolean;
}

/**
 * Tokens (x) against reward, or against success (1/0) when the corpus records no reward. In a corpus with
 * rewards, rows with only a success flag are placed at 1 or 0 and marked; rows with neither are not plotted
 * and are counted in `unplotted`.
 */
export function tokensScatter(rows: readonly ChartRow[]): { y: 'reward' | 'success'; points: ScatterPoint[]; unplotted: number } {
  const y = rows.some((r) => r.reward !== null) ? 'reward' : 'success';
  const points: ScatterPoint[] = [];
  rows.forEach((r, i) => {
    const success = r.success === null ? null : r.success ? 1 : 0;
    const v = y === 'reward' ? (r.reward ?? success) : success;
    if (v !== null) points.push({ row: i, x: r.total_tokens, y: v, outcome: outcomeOf(r), fromSuccess: y === 'reward' && r.reward === null });
  });
  return { y, points, unplotted: rows.length - points.length };
}

/** Which rows a clicked bar stands for: the table filters to them. */
export type ChartFilter =
  | { kind: 'omission-turn'; turn: number; what: 'thought' | 'observation' }
  | { kind: 'summaries'; count: number; orMore: boolean }
  | { kind: 'summary-turn'; turn: number; to?: number }
  | { kind: 'outcome'; outcome: Outcome };

export function matchesFilter(r: ChartRow, f: ChartFilter): boolean {
  switch (f.kind) {
    case 'omission-turn':
      return (f.what === 'thought' ? r.thought_omission_turns : r.observation_omission_turns).includes(f.turn);
    case 'summaries':
      return f.orMore ? r.summaries >= f.count : r.summaries === f.count;
    case 'summary-turn':
      return f.to === undefined ? r.summary_turns.includes(f.turn) : r.summary_turns.some((t) => t >= f.turn && t <= f.to!);
    case 'outcome':
      return outcomeOf(r) === f.outcome;
  }
}

export function describeFilter(f: ChartFilter): string {
  switch (f.kind) {
    case 'omission-turn':
      return `${f.what === 'thought' ? 'thought' : 'observations'} omitted at turn ${f.turn}`;
    case 'summaries':
      return `${f.count}${f.orMore ? ' or more' : ''} ${f.count === 1 && !f.orMore ? 'summary' : 'summaries'}`;
    case 'summary-turn':
      return f.to === undefined ? `a summary after turn ${f.turn}` : `a summary after turns ${f.turn}–${f.to}`;
    case 'outcome':
      return f.outcome === 'unknown' ? 'no success flag' : f.outcome;
  }
}

export interface AxisTicks {
  min: number;
  max: number;
  values: number[];
}

/** The round step (1, 2, 2.5 or 5 × 10^k) at or above `rough`; fractional steps allowed (rewards run 0–1). */
function roundStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const f = rough / power;
  const m = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 2.5 + 1e-9 ? 2.5 : f <= 5 + 1e-9 ? 5 : 10;
  return m * power;
}

/** About `target` round ticks covering [min, max]; an empty range still gets one step. */
export function axisTicks(min: number, max: number, target = 5): AxisTicks {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : 0;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) hi = lo + (lo === 0 ? 1 : Math.abs(lo));
  const step = roundStep((hi - lo) / Math.max(1, target));
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const values: number[] = [];
  for (let v = start, i = 0; v <= end + step / 2 && i < 1000; i++, v = start + i * step) values.push(+v.toFixed(10));
  return { min: start, max: end, values };
}

/** Linear map from [d0, d1] to [r0, r1]. */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}
