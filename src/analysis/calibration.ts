// Counted tokens against reported ones. Each call's reported prompt is modelled as an unrecorded prefix (the
// system prompt and tool schemas a format never writes down) plus a scale times what we count: the scale is
// the tokenizer mismatch (Claude's tokenizer is not public; o200k differs from it by 10–45%). Both are fitted
// robustly per segment of calls that share a model and recorded tools, so one odd call cannot move them, and
// the prefix stays one figure for the segment instead of absorbing every error call by call. A call the provider
// reported keeps the reported figure as its whole prompt: the fit only splits it among the prefix and the items.
import { reportedPromptTokens } from '../cache/reported';
import type { CallContext } from './context-types';
import type { CountedCalls } from './counted-tokens';

export interface CallCalibration {
  /** Segment this call belongs to (0-based): calls with the same model and recorded tools. */
  segment: number;
  /**
   * Estimated unrecorded prefix of this call (0 when the format records the whole prompt): the segment's fitted
   * prefix, kept within what the call's reported prompt leaves beside its items. Read it through `unrecordedPrefix`,
   * which says when there is no estimate.
   */
  prefixTokens: number;
  /** Some call of this call's segment (this one included) reported its prompt, so `prefixTokens` rests on usage. */
  prefixFitted: boolean;
  scale: number;
  /** Framing tokens per item in the context (role markers, block structure, ids) that counting text misses. */
  perItem: number;
  /**
   * The whole prompt: the provider's reported figure when there is one (what the bill and the console say), else
   * prefixTokens + scale × counted + perItem × items, rounded.
   */
  contextTokens: number;
  /** prefixTokens + scale × counted + perItem × items, rounded: how far counting alone explains the prompt. */
  modelledTokens: number;
  /** The reported prompt, when the provider reported one. */
  reportedPrompt: number | null;
  /** Relative uncertainty of `contextTokens` (0.05 = ±5%); 0 when the provider reported it. */
  uncertainty: number;
  /**
   * True when `contextTokens` is an estimate rather than a count of everything sent; false when it is the reported
   * figure (whose split among the items may still be estimated: see the session's `estimated`).
   */
  estimated: boolean;
}

export interface SessionCalibration {
  calls: CallCalibration[];
  /** The scale of the segment with the most calls (1 without reported usage). */
  scale: number;
  /** Framing tokens per item of that segment. */
  perItem: number;
  /** Median unrecorded prefix over the calls (0 when every call records its whole prompt). */
  prefixTokens: number;
  /** Some figure is estimated: an unrecorded prefix, a scale fitted from usage, or a stand-in tokenizer. */
  estimated: boolean;
  /** How many calls had a reported prompt to fit against. */
  fittedCalls: number;
  /** 90th percentile of |modelled − reported| / reported over the main segment's reported calls; null without any. */
  fitSpread: number | null;
}

/** Bounds on the tokenizer mismatch: outside them the fit is more likely wrong than the tokenizer. */
const MIN_SCALE = 0.7;
const MAX_SCALE = 1.7;
/** Bounds on the framing tokens per item (role markers, block structure, tool ids) that we do not count. */
const MAX_PER_ITEM = 300;
/** Uncertainty of a count with a stand-in tokenizer and no usage to fit against. */
const UNFITTED_UNCERTAINTY = 0.25;

type CallShape = Pick<CallContext, 'api' | 'model' | 'usage' | 'prefixUnrecorded' | 'tools'>;

/**
 * Calibration of every call. `counted` holds each call's counted tokens and items (counted-tokens.ts);
 * `approximate` says the counter is a stand-in for the model's own tokenizer.
 */
export function calibrate(calls: readonly CallShape[], counted: CountedCalls, approximate = false): SessionCalibration {
  const segments = segmentsOf(calls);
  const reported = calls.map((c) => reportedPromptTokens(c));
  const groups = groupBy(segments);
  // The session-wide fit lends its scale and framing to segments too short to fit their own.
  const global = fitSegment(calls.map((_, i) => i), calls, counted, reported, null);
  const fits = new Map<number, Fit>();
  for (const [seg, members] of groups) fits.set(seg, groups.size === 1 ? global : fitSegment(members, calls, counted, reported, global.fitted ? global : null));

  // The nearest earlier call of the same segment whose prompt the provider reported: an unreported call is that
  // measured prompt plus what counting says was added since, not the fit applied to the whole context (which the
  // harness may have cut unrecorded since the fit's calls).
  const anchors: number[] = [];
  let last = -1;
  calls.forEach((_, i) => {
    if (last >= 0 && segments[last] !== segments[i]) last = -1;
    anchors.push(last);
    if (reported[i] !== null && reported[i]! > 0) last = i;
  });

  // Segments whose prefix was fitted on reported prompts (the fit's own points).
  const reportedSegments = new Set(segments.filter((_, i) => reported[i] !== null && reported[i]! > 0 && counted.tokens[i]! > 0));
  const out: CallCalibration[] = calls.map((c, i) => {
    const fit = fits.get(segments[i]!)!;
    const prefixFitted = reportedSegments.has(segments[i]!) || (reported[i] !== null && reported[i]! > 0);
    const prefix = c.prefixUnrecorded ? fit.prefix : 0;
    const raw = prefix + fit.scale * counted.tokens[i]! + fit.perItem * counted.items[i]!;
    const report = reported[i]!;
    const modelledTokens = Math.round(raw);
    if (report !== null && report > 0) {
      // The prefix takes what the items leave of the reported prompt, but the items keep at least the smallest
      // plausible tokenizer ratio of what we count: where the fitted prefix is larger than this call's whole prompt
      // (a first call sent with fewer tools), the items would otherwise shrink to nothing beside their own count.
      // With nothing counted, the whole prompt is what the file left out.
      const itemsFloor = Math.min(report, MIN_SCALE * counted.tokens[i]!);
      const own = !c.prefixUnrecorded ? 0 : counted.tokens[i] === 0 ? report : Math.max(0, Math.min(prefix, report - itemsFloor));
      return { segment: segments[i]!, prefixTokens: Math.round(own), prefixFitted, scale: fit.scale, perItem: fit.perItem, contextTokens: report, modelledTokens, reportedPrompt: report, uncertainty: 0, estimated: false };
    }
    const estimated = c.prefixUnrecorded || fit.fitted || approximate;
    const uncertainty = fit.fitted ? fit.spread : approximate ? UNFITTED_UNCERTAINTY : 0;
    const a = anchors[i]!;
    if (a >= 0) {
      const added = fit.scale * (counted.tokens[i]! - counted.tokens[a]!) + fit.perItem * (counted.items[i]! - counted.items[a]!);
      const anchored = Math.max(0, Math.round(reported[a]! + added));
      // Only what was added since is modelled: the fit's relative error applies to that part alone.
      const spread = anchored > 0 ? (uncertainty * Math.abs(added)) / anchored : uncertainty;
      return { segment: segments[i]!, prefixTokens: Math.round(prefix), prefixFitted, scale: fit.scale, perItem: fit.perItem, contextTokens: anchored, modelledTokens, reportedPrompt: report, uncertainty: round4(spread), estimated: true };
    }
    return { segment: segments[i]!, prefixTokens: Math.round(prefix), prefixFitted, scale: fit.scale, perItem: fit.perItem, contextTokens: modelledTokens, modelledTokens, reportedPrompt: report, uncertainty, estimated };
  });
  const main = [...groups].sort((a, b) => b[1].length - a[1].length)[0];
  const prefixes = out.filter((_, i) => calls[i]!.prefixUnrecorded).map((c) => c.prefixTokens);
  const mainFit = main ? fits.get(main[0])! : null;
  return {
    calls: out,
    scale: mainFit?.scale ?? 1,
    perItem: mainFit?.perItem ?? 0,
    prefixTokens: prefixes.length ? Math.round(median(prefixes)) : 0,
    estimated: out.some((c, i) => c.estimated || (c.reportedPrompt !== null && (calls[i]!.prefixUnrecorded || approximate || fits.get(segments[i]!)!.fitted))),
    fittedCalls: reported.filter((r, i) => r !== null && counted.tokens[i]! > 0).length,
    fitSpread: mainFit?.fitted ? mainFit.spread : null,
  };
}

/**
 * The unrecorded prefix of a call: the system prompt and tool schemas its format does not write down, in the
 * provider's tokens. The one figure for it that the context view, the budget bands, the cache analysis, the CLI and
 * the reports read. 0 when the call records its whole prompt; null when it does not and no call of its segment
 * reported usage to estimate it from.
 */
export function unrecordedPrefix(call: Pick<CallContext, 'prefixUnrecorded'>, cal: Pick<CallCalibration, 'prefixTokens' | 'prefixFitted'> | undefined): number | null {
  if (!call.prefixUnrecorded) return 0;
  return cal && cal.prefixFitted ? cal.prefixTokens : null;
}

interface Fit {
  prefix: number;
  scale: number;
  perItem: number;
  /** 90th percentile of |calibrated − reported| / reported over the segment. */
  spread: number;
  fitted: boolean;
}

const UNFITTED: Fit = { prefix: 0, scale: 1, perItem: 0, spread: 0, fitted: false };

function fitSegment(members: readonly number[], calls: readonly CallShape[], counted: CountedCalls, reported: readonly (number | null)[], fallback: Fit | null): Fit {
  const pts = members.filter((i) => reported[i] !== null && reported[i]! > 0 && counted.tokens[i]! > 0);
  if (pts.length === 0) return fallback ? { ...fallback, prefix: 0, spread: fallback.spread } : UNFITTED;
  const unrecorded = pts.some((i) => calls[i]!.prefixUnrecorded);
  const R = pts.map((i) => reported[i]!);
  const C = pts.map((i) => counted.tokens[i]!);
  const N = pts.map((i) => counted.items[i]!);
  let scale: number;
  let perItem: number;
  // Enough calls, far enough apart in size, to fit a scale of their own.
  const fitsOwn = pts.length >= 4 && Math.max(...C) - Math.min(...C) > 0.1 * median(C);
  if (fitsOwn) {
    const w = robustFit(R, C, N, unrecorded);
    scale = w.scale;
    perItem = w.perItem;
  } else if (fallback) {
    scale = fallback.scale;
    perItem = fallback.perItem;
  } else {
    scale = 1;
    perItem = 0;
  }
  scale = clamp(scale, MIN_SCALE, MAX_SCALE);
  perItem = clamp(perItem, 0, MAX_PER_ITEM);
  let prefix: number;
  const fresh = unrecorded ? freshCall(members, calls, counted, reported) : null;
  if (fresh !== null) {
    // The segment opened with a call that held little but the prefix: its report measures the prefix, and the
    // scale and framing are fitted on the rest with that prefix held. A free intercept instead absorbs what the
    // harness adds unrecorded later (reminders, files re-attached after a compaction) and comes out above the
    // whole first prompt.
    const R0 = reported[fresh]!;
    prefix = Math.max(0, R0 - scale * counted.tokens[fresh]! - perItem * counted.items[fresh]!);
    for (let iter = 0; iter < 2 && fitsOwn; iter++) {
      const w = robustFit(R.map((r) => r - prefix), C, N, false);
      scale = clamp(w.scale, MIN_SCALE, MAX_SCALE);
      perItem = clamp(w.perItem, 0, MAX_PER_ITEM);
      prefix = Math.max(0, R0 - scale * counted.tokens[fresh]! - perItem * counted.items[fresh]!);
    }
  } else {
    const rest = R.map((r, k) => r - scale * C[k]! - perItem * N[k]!);
    prefix = unrecorded ? Math.max(0, median(rest)) : 0;
  }
  const errors = R.map((r, k) => Math.abs(prefix + scale * C[k]! + perItem * N[k]! - r) / r).sort((a, b) => a - b);
  const spread = errors[Math.min(errors.length - 1, Math.floor(errors.length * 0.9))]!;
  return { prefix, scale, perItem, spread, fitted: true };
}

/** A call whose recorded items are at most this share of its reported prompt shows the prefix nearly alone. */
const FRESH_SHARE = 0.1;

/**
 * The segment's first reported call, when it is fresh: its prefix unrecorded and what the file records of it (the
 * first user message, a resumed session's few items) at most FRESH_SHARE of its reported prompt. Null otherwise
 * (a segment that begins mid-session, with another model).
 */
function freshCall(members: readonly number[], calls: readonly CallShape[], counted: CountedCalls, reported: readonly (number | null)[]): number | null {
  const first = members.find((i) => reported[i] !== null && reported[i]! > 0);
  if (first === undefined || !calls[first]!.prefixUnrecorded) return null;
  return counted.tokens[first]! <= FRESH_SHARE * reported[first]! ? first : null;
}

/**
 * R ≈ P + s·C + k·N by iteratively reweighted least squares with Huber weights: calls whose residual is far off
 * (a reminder the file does not record, an odd attachment) lose their pull on the fit. P is left out when the
 * format records the whole prompt; k is dropped when the data make it negative.
 */
export function robustFit(R: readonly number[], C: readonly number[], N: readonly number[], withPrefix: boolean): { scale: number; perItem: number } {
  const cols = (useN: boolean) => R.map((_, i) => [...(withPrefix ? [1] : []), C[i]!, ...(useN ? [N[i]!] : [])]);
  const solveWith = (useN: boolean) => {
    const X = cols(useN);
    // The columns' scales do not change between iterations: worked out once.
    const norms = columnNorms(X);
    const w = new Array<number>(R.length).fill(1);
    const res = new Float64Array(R.length);
    const sorted = new Float64Array(R.length);
    let beta: number[] | null = null;
    for (let iter = 0; iter < 12; iter++) {
      beta = weightedLeastSquares(X, R, w, norms);
      if (!beta) return null;
      for (let i = 0; i < X.length; i++) res[i] = Math.abs(R[i]! - dot(X[i]!, beta));
      sorted.set(res);
      const mad = medianInPlace(sorted) * 1.4826 || 1;
      const c = 1.345 * mad;
      for (let i = 0; i < X.length; i++) w[i] = res[i]! <= c ? 1 : c / res[i]!;
    }
    return beta;
  };
  let beta = solveWith(true);
  const off = withPrefix ? 1 : 0;
  if (!beta || beta[off + 1]! < 0) {
    const b = solveWith(false);
    return b ? { scale: b[off]!, perItem: 0 } : { scale: 1, perItem: 0 };
  }
  return { scale: beta[off]!, perItem: beta[off + 1]! };
}

/** Each column's largest magnitude (at least 1), which weightedLeastSquares scales the columns by. */
function columnNorms(X: readonly number[][]): number[] {
  const m = X[0]!.length;
  const norms = new Array<number>(m).fill(1);
  for (const x of X) for (let j = 0; j < m; j++) norms[j] = Math.max(norms[j]!, Math.abs(x[j]!));
  return norms;
}

/** Solves (XᵀWX)β = XᵀWy by Gaussian elimination with partial pivoting; null when singular. */
function weightedLeastSquares(X: readonly number[][], y: readonly number[], w: readonly number[], norms: readonly number[] = columnNorms(X)): number[] | null {
  const m = X[0]!.length;
  // Columns are scaled to comparable sizes first (norms): token counts run to 10⁵, the intercept is 1.
  const A = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const b = new Array<number>(m).fill(0);
  X.forEach((x, i) => {
    for (let a = 0; a < m; a++) {
      const xa = x[a]! / norms[a]!;
      b[a]! += w[i]! * xa * y[i]!;
      for (let c = 0; c < m; c++) A[a]![c]! += w[i]! * xa * (x[c]! / norms[c]!);
    }
  });
  for (let i = 0; i < m; i++) {
    let p = i;
    for (let j = i + 1; j < m; j++) if (Math.abs(A[j]![i]!) > Math.abs(A[p]![i]!)) p = j;
    if (Math.abs(A[p]![i]!) < 1e-12) return null;
    [A[i], A[p]] = [A[p]!, A[i]!];
    [b[i], b[p]] = [b[p]!, b[i]!];
    for (let j = i + 1; j < m; j++) {
      const f = A[j]![i]! / A[i]![i]!;
      for (let k = i; k < m; k++) A[j]![k]! -= f * A[i]![k]!;
      b[j]! -= f * b[i]!;
    }
  }
  const beta = new Array<number>(m).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    let sum = b[i]!;
    for (let k = i + 1; k < m; k++) sum -= A[i]![k]! * beta[k]!;
    beta[i] = sum / A[i]![i]!;
  }
  return beta.map((v, j) => v / norms[j]!);
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Calls share a segment while the model and the recorded tool schemas stay the same. */
function segmentsOf(calls: readonly CallShape[]): number[] {
  const keys = new Map<string, number>();
  return calls.map((c) => {
    const key = `${c.model ?? ''}\u0000${c.tools ?? ''}`;
    let seg = keys.get(key);
    if (seg === undefined) keys.set(key, (seg = keys.size));
    return seg;
  });
}

function groupBy(segments: readonly number[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  segments.forEach((s, i) => {
    let list = m.get(s);
    if (!list) m.set(s, (list = []));
    list.push(i);
  });
  return m;
}

/** The median; the values are finite (counts and residuals), so a typed array's numeric sort orders them as a comparator would. */
export function median(v: readonly number[]): number {
  return v.length === 0 ? 0 : medianInPlace(Float64Array.from(v));
}

/** The median of `s`, which it sorts. */
function medianInPlace(s: Float64Array): number {
  if (s.length === 0) return 0;
  s.sort();
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
