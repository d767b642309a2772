import { describe, expect, it } from 'vitest';
import { overflowOf } from './use-tab-overflow';

const ids = ['context', 'budget', 'cache', 'audit', 'lints', 'flow', 'diff', 'rerun'];
const widths = new Map(ids.map((id) => [id, 100]));

describe('overflowOf', () => {
  it('keeps every tab when they all fit, and when a width is not measured yet', () => {
    expect(overflowOf(ids, widths, 8 * 100 + 7 * 2, 'context', 96)).toEqual([]);
    expect(overflowOf(ids, new Map([['context', 100]]), 300, 'context', 96)).toEqual([]);
    expect(overflowOf(ids, widths, null, 'context', 96)).toEqual([]);
  });

  it('shows the tabs that fit beside the menu, in order, and lists the rest', () => {
    // 500 px less the menu (96), a gap and the slack leave 396 px: three 100 px tabs and their gaps.
    expect(overflowOf(ids, widths, 500, 'budget', 96)).toEqual(['audit', 'lints', 'flow', 'diff', 'rerun']);
  });

  it('keeps the chosen tab in the strip in place of the last that fit', () => {
    const out = overflowOf(ids, widths, 500, 'rerun', 96);
    expect(out).not.toContain('rerun');
    expect(out).toEqual(['cache', 'audit', 'lints', 'flow', 'diff']);
    // The strip keeps its order: the first tabs that fit, then the chosen one.
    expect(ids.filter((id) => !out.includes(id))).toEqual(['context', 'budget', 'rerun']);
  });
});
