// The y axis of the token budget chart: round ticks, a linear scale, and which reference lines fit on it.
import { thousands } from '../model/thousands';

export interface Ticks {
  /** Top of the axis: the last tick, ≥ the data. */
  max: number;
  step: number;
  /** 0, step, 2·step, …, max. */
  values: number[];
}

/** The round step (1, 2, 2.5 or 5 × 10^k) closest above `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const f = rough / power;
  // Float error (e.g. 0.30000000000000004) must not push a value onto the next step.
  const eps = 1e-9;
  const m = f <= 1 + eps ? 1 : f <= 2 + eps ? 2 : f <= 2.5 + eps ? 2.5 : f <= 5 + eps ? 5 : 10;
  return m * power;
}

/**
 * About `target` round ticks from 0 up to at least `max`. Token counts are integers, so the step is
 * never below 1; an empty or zero domain still gets one step so the axis has a height.
 */
export function niceTicks(max: number, target = 5): Ticks {
  const top = Number.isFinite(max) && max > 0 ? max : 0;
  const step = Math.max(1, niceStep(top / Math.max(1, target)));
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  const values: number[] = [];
  for (let i = 0; i <= count; i++) values.push(i * step);
  return { max: count * step, step, values };
}

/** Maps a value in [0, max] to a y pixel in [height, 0] (SVG's y grows downwards). */
export function yScale(max: number, height: number): (value: number) => number {
  const m = max > 0 ? max : 1;
  return (value) => height - (Math.max(0, value) / m) * height;
}

export interface ReferenceLine {
  /** Token value of the line; null when unknown (e.g. no context window recorded). */
  value: number | null;
}

export interface FittedDomain {
  ticks: Ticks;
  /** Per reference line: drawn on the axis (true), or noted beside it as off scale (false; also for null values). */
  onScale: boolean[];
}

/**
 * Fits the axis to the data, not to a huge context window: a reference line is included only when it
 * is at most `stretch` × the data's maximum, so a 1M-token window does not squash 4k-token bars flat.
 * Lines left out are reported off scale, for the chart to label in words.
 */
export function fitDomain(dataMax: number, lines: readonly ReferenceLine[], stretch = 1.5): FittedDomain {
  const base = Math.max(0, dataMax);
  const onScale = lines.map((l) => l.value !== null && l.value > 0 && (base === 0 || l.value <= base * stretch));
  let top = base;
  lines.forEach((l, i) => {
    if (onScale[i] && l.value !== null) top = Math.max(top, l.value);
  });
  return { ticks: niceTicks(top), onScale };
}

/**
 * 1-based call numbers to label under the bars: 1, then multiples of a round step, about `target`
 * of them, never past `count`.
 */
export function callTicks(count: number, target = 8): number[] {
  if (count <= 0) return [];
  // 2.5 is a round step for tokens, not for call numbers.
  const step = Math.max(1, Math.floor(niceStep(count / Math.max(1, target))));
  const out = [1];
  for (let v = step; v <= count; v += step) if (v !== 1) out.push(v);
  return out;
}

/** One format for every label of an axis: full numbers up to 10,000, else `k` (or `M`) with the digits the step needs. */
export function tickFormat(axisMax: number): (value: number) => string {
  if (axisMax >= 2_000_000) return (v) => `${trim(v / 1_000_000)}M`;
  if (axisMax >= 10_000) return (v) => `${trim(v / 1000)}k`;
  return thousands;
}

function trim(n: number): string {
  return String(+n.toFixed(2));
}

/**
 * An SVG path of horizontal steps, one per slot of width `slot` starting at x = 0, at height `y(value)`;
 * null values leave a gap. Used to draw reported usage over bars too thin for a bar of their own.
 */
export function stepPath(values: readonly (number | null)[], slot: number, y: (value: number) => number): string {
  const parts: string[] = [];
  let open = false;
  values.forEach((v, i) => {
    if (v === null) {
      open = false;
      return;
    }
    const x0 = i * slot;
    const yy = y(v);
    parts.push(open ? `V${r(yy)}H${r(x0 + slot)}` : `M${r(x0)},${r(yy)}H${r(x0 + slot)}`);
    open = true;
  });
  return parts.join('');
}

function r(n: number): string {
  return String(Math.round(n * 10) / 10);
}
