import { describe, expect, it } from 'vitest';
import { rowPreview } from './row-preview';

/** What the preview was before it read a prefix: the whole text folded. */
const whole = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 80);

describe('rowPreview', () => {
  it('folds white space as folding the whole text did', () => {
    const texts = [
      '',
      '   ',
      'short text',
      `${' \n\t'.repeat(500)}starts after a long run of white space ${'word '.repeat(40)}`,
      `${'x'.repeat(79)}${' '.repeat(1000)}y`,
      `${'x'.repeat(80)}${' '.repeat(1000)}y`,
      `${'a\n'.repeat(3000)}`,
      `${'€ 😀 '.repeat(100)}`,
      `lead${'\u00a0'.repeat(300)}${'z'.repeat(300)}`,
    ];
    for (const t of texts) expect(rowPreview(t)).toBe(whole(t));
  });

  it('reads a long tool result from its start only', () => {
    const big = `{"output": "${'line of output\\n'.repeat(10_000)}"}`;
    expect(rowPreview(big)).toBe(whole(big));
    expect(rowPreview(big)).toHaveLength(80);
  });
});
