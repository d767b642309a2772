import { describe, expect, it } from 'vitest';
import type { Lint } from './lint-types';
import { groupLints, lintTargets, RULE_INFO, RULE_ORDER } from './lint-groups';

const lint = (rule: Lint['rule'], itemId: string, callIndex: number | null = null): Lint => ({ rule, itemId, callIndex, message: `${rule} on ${itemId}` });

describe('groupLints', () => {
  it('groups lints by rule, most harmful rule first, lints in their own order', () => {
    const groups = groupLints([lint('summary-too-long', 's1'), lint('causal-order', 'u7', 10), lint('summary-too-long', 's2'), lint('recap-system-role', 's3', 4)]);
    expect(groups.map((g) => [g.rule, g.lints.map((l) => l.itemId)])).toEqual([
      ['recap-system-role', ['s3']],
      ['causal-order', ['u7']],
      ['summary-too-long', ['s1', 's2']],
    ]);
    expect(groups[0]!.title).toBe('Recap with role system');
    expect(groups[0]!.why).toMatch(/first system message/);
  });

  it('returns no groups for no lints', () => {
    expect(groupLints([])).toEqual([]);
  });

  it('orders and explains every rule', () => {
    expect([...RULE_ORDER].sort()).toEqual(Object.keys(RULE_INFO).sort());
  });
});

describe('lintTargets', () => {
  const entry = (id: string) => ({ id, region: 'tail' as const, tokens: 1, variant: false, isNew: false });
  const calls = [
    { entries: [entry('u1')], outputIds: ['a1'], compactionId: null },
    { entries: [entry('sum'), entry('u2')], outputIds: [], compactionId: 'c1' },
  ];

  it('keeps a lint’s own call and falls back to the first call showing its item', () => {
    expect(lintTargets([lint('causal-order', 'u1', 1), lint('fallback-marker', 'sum'), lint('summary-too-long', 'a1'), lint('summary-too-long', 'nowhere')], calls)).toEqual([1, 1, 0, null]);
  });
});
