import { describe, expect, it } from 'vitest';
import { loadEncoder } from './counter';
import { DEFAULT_MAX_RUN, splitLongRuns } from './split-runs';

/** Deterministic pseudo-random text over an alphabet (no crypto, so the test is the same everywhere). */
function randomText(length: number, alphabet: string, seed = 1): string {
  let s = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out += alphabet[(s >>> 8) % alphabet.length];
  }
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function longestRun(parts: string[]): number {
  let max = 0;
  for (const p of parts) for (const m of p.matchAll(/\S+|\s+/g)) max = Math.max(max, m[0].length);
  return max;
}

describe('splitLongRuns', () => {
  it('leaves ordinary text whole and exact', () => {
    const text = 'The summary kept db-prod-1:5432 but lost FRE-512.\n'.repeat(50);
    expect(splitLongRuns(text)).toEqual({ parts: [text], approximate: false });
  });

  it('cuts a 200k-character base64 blob into short runs, marked approximate, within 10% of the true count', async () => {
    const blob = `data:image/png;base64,${randomText(200_000, BASE64)}`;
    const split = splitLongRuns(blob);
    expect(split.approximate).toBe(true);
    expect(split.parts.join('')).toBe(blob);
    expect(longestRun(split.parts)).toBeLessThanOrEqual(DEFAULT_MAX_RUN);
    // The true count, computed once on the whole blob (gpt-tokenizer has no quadratic slow path on it).
    const encode = await loadEncoder('gpt-tokenizer', 'o200k_base');
    const truth = encode(blob);
    const counted = split.parts.reduce((n, p) => n + encode(p), 0);
    expect(truth).toBeGreaterThan(100_000);
    expect(Math.abs(counted - truth) / truth).toBeLessThan(0.1);
  });

  it('cuts a run of letters with no seams at maxRun and stays within 10% of the true count', async () => {
    const letters = randomText(20_000, 'etaoinshrdlucmfw', 3);
    const split = splitLongRuns(letters);
    expect(split.approximate).toBe(true);
    expect(split.parts).toHaveLength(Math.ceil(20_000 / DEFAULT_MAX_RUN));
    const encode = await loadEncoder('gpt-tokenizer', 'cl100k_base');
    const truth = encode(letters);
    const counted = split.parts.reduce((n, p) => n + encode(p), 0);
    expect(Math.abs(counted - truth) / truth).toBeLessThan(0.1);
  });

  it('cuts long whitespace runs too, which are just as slow for js-tiktoken', () => {
    const text = `a${' '.repeat(1000)}b`;
    const split = splitLongRuns(text, 100);
    expect(split.approximate).toBe(true);
    expect(split.parts.join('')).toBe(text);
    expect(longestRun(split.parts)).toBeLessThanOrEqual(100);
  });

  it('prefers a letter/digit seam near the cut over an arbitrary position', () => {
    const text = `${'x'.repeat(90)}123${'y'.repeat(50)}`;
    const split = splitLongRuns(text, 100);
    expect(split.parts[0]).toBe(`${'x'.repeat(90)}123`);
  });

  it('never cuts a surrogate pair in half', () => {
    const text = '😀'.repeat(500);
    const split = splitLongRuns(text, 101);
    expect(split.parts.join('')).toBe(text);
    for (const p of split.parts) expect(p.length % 2).toBe(0);
  });

  it('cuts a text exactly when one of its runs is longer than the limit, whatever the runs\' lengths and places', () => {
    const kinds = ['a', 'b', ' ', '\n', '\u00a0', '\u3000', 'é', '9', '-', '\t', '😀'];
    let seed = 3;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => kinds[Math.floor(random() * kinds.length)]!.repeat(Math.floor(random() * (random() < 0.3 ? 300 : 20)))).join('');
      for (const max of [2, 3, 7, 16, 255, 256]) {
        const longest = Math.max(0, ...[...text.matchAll(/\S+|\s+/g)].map((m) => m[0].length));
        expect(splitLongRuns(text, max).approximate, JSON.stringify([max, text])).toBe(longest > max);
      }
    }
  });
});
