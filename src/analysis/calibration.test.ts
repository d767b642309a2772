import { describe, expect, it } from 'vitest';
import { call, calls, usage, user } from '../cache/test-builders';
import { random } from '../../bench/generators/random';
import { calibrate, median, robustFit } from './calibration';

/** Calls whose reported prompt is exactly prefix + scale × counted + perItem × items. */
function synthetic(prefix: number, scale: number, perItem: number, extra = {}) {
  const counted = [400, 1_900, 5_200, 9_800, 16_000, 24_500, 31_000, 44_000];
  const items = [1, 3, 7, 12, 18, 25, 31, 40];
  const cs = calls(...counted.map((c, i) => call([user(`u${i}`, 'x')], { model: 'claude-opus-4-6', prefixUnrecorded: true, usage: usage({ input: Math.round(prefix + scale * c + perItem * items[i]!), cacheRead: 0, cacheWrite: 0 }), ...extra })));
  return { cs, counted: { tokens: counted, items } };
}

describe('calibrate', () => {
  it('recovers the unrecorded prefix, the tokenizer scale and the framing per item, one prefix for the segment', () => {
    const { cs, counted } = synthetic(26_000, 1.18, 90);
    const cal = calibrate(cs, counted, true);
    expect(cal.prefixTokens).toBeGreaterThan(25_500);
    expect(cal.prefixTokens).toBeLessThan(26_500);
    expect(cal.scale).toBeCloseTo(1.18, 1);
    expect(cal.perItem).toBeGreaterThan(60);
    expect(new Set(cal.calls.map((c) => c.prefixTokens)).size).toBe(1);
    for (const c of cal.calls) expect(Math.abs(c.contextTokens - c.reportedPrompt!) / c.reportedPrompt!).toBeLessThan(0.01);
    expect(cal.estimated).toBe(true);
  });

  it('is not pulled off by one call whose reported prompt holds something the file never shows', () => {
    const { cs, counted } = synthetic(26_000, 1.18, 0);
    // A reminder of 15,000 tokens sent once and never recorded.
    cs[4]!.usage!.input! += 15_000;
    const cal = calibrate(cs, counted, true);
    expect(cal.scale).toBeCloseTo(1.18, 1);
    expect(Math.abs(cal.prefixTokens - 26_000)).toBeLessThan(1_000);
  });

  it('takes the prefix from a first call that held little but it, not from a fit that absorbs what is added unrecorded later', () => {
    const { cs, counted } = synthetic(26_000, 1.1, 0);
    // From call 5 on, the harness re-attaches 7,000 tokens of files it never records (as Claude Code does after a
    // compaction): a free intercept would take part of them into the prefix, above the whole first prompt.
    for (const k of [4, 5, 6, 7]) cs[k]!.usage!.input! += 7_000;
    const cal = calibrate(cs, counted, true);
    const first = cs[0]!.usage!.input!;
    expect(new Set(cal.calls.map((c) => c.prefixTokens)).size).toBe(1);
    expect(cal.prefixTokens).toBeLessThanOrEqual(first);
    // Call 1 reported 26,440: its one item of 400 counted tokens at the fitted rate, and the prefix.
    expect(Math.abs(cal.prefixTokens - 26_000)).toBeLessThan(300);
    // The calls before the files came are explained by counting; those after show the 7,000 the file lacks.
    for (const c of cal.calls.slice(0, 4)) expect(Math.abs(c.modelledTokens - c.reportedPrompt!) / c.reportedPrompt!).toBeLessThan(0.05);
    for (const c of cal.calls.slice(4)) expect(c.reportedPrompt! - c.modelledTokens).toBeGreaterThan(4_000);
  });

  it('leaves a call whose whole prompt is smaller than the prefix its items, at the smallest tokenizer ratio of their count', () => {
    const { cs, counted } = synthetic(26_000, 1, 0);
    // The first call is no fresh one (a resumed session: 4,000 counted tokens of its 20,000), and its whole prompt is
    // below the prefix the other calls give.
    counted.tokens[0] = 4_000;
    cs[0]!.usage!.input! = 20_000;
    const cal = calibrate(cs, counted, true);
    const first = cal.calls[0]!;
    expect(first.contextTokens).toBe(20_000);
    // The items (4,000 counted) keep 0.7 × 4,000 = 2,800 tokens; the prefix takes the rest, never the whole prompt.
    expect(first.prefixTokens).toBe(20_000 - 2_800);
    // The other calls share one prefix, as before.
    expect(new Set(cal.calls.slice(1).map((c) => c.prefixTokens)).size).toBe(1);
    expect(cal.calls[1]!.prefixTokens).toBeGreaterThan(25_500);
  });

  it('estimates a call with no report from the last reported one plus what was counted since, not from the fit alone', () => {
    const { cs, counted } = synthetic(26_000, 1, 0);
    // The harness cut 30,000 tokens of history before call 6 without recording it: the later reports are lower.
    for (const k of [5, 6, 7]) cs[k]!.usage!.input! -= 30_000;
    // Call 7 came back cut by an API error: no usage.
    cs[6]!.usage = null;
    const cal = calibrate(cs, counted, true);
    const seventh = cal.calls[6]!;
    // 26,000 + 24,500 − 30,000 reported at call 6, and 31,000 − 24,500 counted (6 items) since, at the fitted rates.
    const expected = 26_000 + 24_500 - 30_000 + seventh.scale * (31_000 - 24_500) + seventh.perItem * (31 - 25);
    expect(Math.abs(seventh.contextTokens - expected)).toBeLessThan(300);
    expect(seventh.estimated).toBe(true);
    // The whole-context fit alone would say about 57,000: above every report around it.
    expect(seventh.modelledTokens).toBeGreaterThan(50_000);
    expect(seventh.contextTokens).toBeLessThan(cal.calls[7]!.contextTokens);
  });

  it('leaves counts as they are without reported usage, marking them estimated only for a stand-in tokenizer', () => {
    const cs = calls(call([user('u0', 'x')]), call([user('u0', 'x'), user('u1', 'y')]));
    const exact = calibrate(cs, { tokens: [10, 20], items: [1, 2] });
    expect(exact.calls.map((c) => [c.contextTokens, c.estimated, c.uncertainty])).toEqual([
      [10, false, 0],
      [20, false, 0],
    ]);
    const approx = calibrate(cs, { tokens: [10, 20], items: [1, 2] }, true);
    expect(approx.calls.map((c) => [c.contextTokens, c.estimated])).toEqual([
      [10, true],
      [20, true],
    ]);
    expect(approx.calls[0]!.uncertainty).toBeGreaterThan(0);
  });

  it('fits no prefix where the format records the whole prompt, only the scale', () => {
    const cs = calls(...[100, 300, 900, 2_000].map((c, i) => call([user(`u${i}`, 'x')], { api: 'openai-chat', model: 'gpt-4o', usage: usage({ input: Math.round(c * 1.1), cacheRead: 0 }) })));
    const cal = calibrate(cs, { tokens: [100, 300, 900, 2_000], items: [1, 2, 3, 4] });
    expect(cal.prefixTokens).toBe(0);
    expect(cal.calls.map((c) => c.contextTokens)).toEqual([110, 330, 990, 2_200]);
  });

  it('refits where the model changes', () => {
    const a = synthetic(26_000, 1.18, 0).cs;
    const b = synthetic(4_000, 1.3, 0, { model: 'gpt-5.3-codex', api: 'openai-responses' }).cs;
    const cs = calls(...a, ...b);
    const counted = synthetic(0, 1, 0).counted;
    const cal = calibrate(cs, { tokens: [...counted.tokens, ...counted.tokens], items: [...counted.items, ...counted.items] }, true);
    expect(new Set(cal.calls.map((c) => c.segment))).toEqual(new Set([0, 1]));
    expect(Math.abs(cal.calls[0]!.prefixTokens - 26_000)).toBeLessThan(500);
    expect(Math.abs(cal.calls[8]!.prefixTokens - 4_000)).toBeLessThan(500);
  });
});

// The fit's loops were rewritten for a long session (typed-array medians, column scales worked out once per solve,
// no arrays per iteration). The straightforward version, as it was, must give the same figures to the last bit.
function medianBySort(v: readonly number[]): number {
  if (v.length === 0) return 0;
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

function straightforwardFit(R: readonly number[], C: readonly number[], N: readonly number[], withPrefix: boolean): { scale: number; perItem: number } {
  const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);
  const wls = (X: readonly number[][], y: readonly number[], w: readonly number[]): number[] | null => {
    const m = X[0]!.length;
    const norms = Array.from({ length: m }, (_, j) => Math.max(1, ...X.map((x) => Math.abs(x[j]!))));
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
  };
  const cols = (useN: boolean) => R.map((_, i) => [...(withPrefix ? [1] : []), C[i]!, ...(useN ? [N[i]!] : [])]);
  const solveWith = (useN: boolean) => {
    const X = cols(useN);
    let w = new Array<number>(R.length).fill(1);
    let beta: number[] | null = null;
    for (let iter = 0; iter < 12; iter++) {
      beta = wls(X, R, w);
      if (!beta) return null;
      const res = X.map((x, i) => R[i]! - dot(x, beta!));
      const mad = medianBySort(res.map((r) => Math.abs(r))) * 1.4826 || 1;
      const c = 1.345 * mad;
      w = res.map((r) => (Math.abs(r) <= c ? 1 : c / Math.abs(r)));
    }
    return beta;
  };
  const beta = solveWith(true);
  const off = withPrefix ? 1 : 0;
  if (!beta || beta[off + 1]! < 0) {
    const b = solveWith(false);
    return b ? { scale: b[off]!, perItem: 0 } : { scale: 1, perItem: 0 };
  }
  return { scale: beta[off]!, perItem: beta[off + 1]! };
}

describe('the fit equals its straightforward version', () => {
  it('on random series with outliers, flat stretches and negative framing, with and without a prefix', () => {
    let withItems = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed);
      const n = r.int(4, seed % 10 === 0 ? 3000 : 120);
      const prefix = r.int(0, 30_000);
      const scale = 0.7 + r.next();
      const perItem = r.int(-20, 60);
      const C: number[] = [];
      const N: number[] = [];
      const R: number[] = [];
      for (let i = 0; i < n; i++) {
        // Repeated counts (a flat stretch) give equal residuals: the median's ties matter.
        const c = r.chance(0.2) && C.length ? C[C.length - 1]! : r.int(100, 150_000);
        const k = r.int(1, 400);
        const noise = r.chance(0.05) ? r.int(-20_000, 40_000) : r.int(-50, 50);
        C.push(c);
        N.push(k);
        R.push(Math.max(1, Math.round(prefix + scale * c + perItem * k + noise)));
      }
      for (const withPrefix of [true, false]) {
        const got = robustFit(R, C, N, withPrefix);
        expect(got, `seed ${seed} ${withPrefix}`).toEqual(straightforwardFit(R, C, N, withPrefix));
        if (got.perItem > 0) withItems++;
      }
      expect(median(R)).toBe(medianBySort(R));
    }
    // Both branches run: fits that keep the framing term and fits that drop it.
    expect(withItems).toBeGreaterThan(20);
    expect(withItems).toBeLessThan(400);
  });
});
