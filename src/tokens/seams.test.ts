import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEncoder } from './counter';
import { splitAtSeams } from './seams';

const dir = new URL('./__fixtures__/', import.meta.url);
const own = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
// Line starts that sit right on the seam rule: punctuation, `/` (swallowed by o200k_base), indentation, CRLF.
const tricky = ['}\n/usr/lib\n', 'x;\n//comment', 'end.\n\n\nNext', 'a\n  indented\n\tTab', 'x\r\ny\r\n\r\nz', "it\n's", '...\n...', '123\n456', '→\n←'].join('\n');

describe('splitAtSeams', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('gives parts whose %s counts add up to the count of the whole', async (encoding) => {
    const encode = await loadEncoder('js-tiktoken', encoding);
    const whole = [...own, tricky, ...own.reverse()].join('\n');
    for (const [max, atLeast] of [[2, 50], [20, 30], [64, 30], [300, 10]] as const) {
      const parts = splitAtSeams(whole, max);
      expect(parts.length).toBeGreaterThanOrEqual(atLeast);
      expect(parts.join('')).toBe(whole);
      expect(parts.reduce((n, p) => n + encode(p), 0)).toBe(encode(whole));
    }
  });

  it('cuts only after line breaks followed by a character that starts a piece', () => {
    expect(splitAtSeams('aaaa\n/bbbb\n cccc\ndddd', 4)).toEqual(['aaaa\n/bbbb\n cccc\n', 'dddd']);
  });

  it('keeps a text without seams whole', () => {
    const line = 'x'.repeat(1000);
    expect(splitAtSeams(line, 100)).toEqual([line]);
  });
});
