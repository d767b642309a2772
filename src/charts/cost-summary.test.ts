import { describe, expect, it } from 'vitest';
import { formatUsd } from './cache-summary';
import { costParts, costSentence, offBranchSentence, shownParts } from './cost-summary';
import type { SessionCost } from '../analysis/session-cost';

const n = (v: number) => v.toLocaleString('en-US');
const cost = (over: Partial<SessionCost> = {}): SessionCost => ({ usd: 1.234, calls: { responses: 4, priced: 4, usd: 1.1 }, offBranch: null, sidechains: null, unpriced: 0, ...over });

describe('offBranchSentence', () => {
  it('says how many responses, their tokens and their dollars', () => {
    const off = { responses: 2, input: 18, cacheRead: 36052, cacheWrite: 1639, output: 324, prompt: 37709, models: [] };
    expect(offBranchSentence(off, cost({ offBranch: { responses: 2, priced: 2, usd: 0.134 } }), n, formatUsd)).toBe('+2 responses on abandoned branches (billed, not shown): 37,709 prompt and 324 output tokens, $0.13');
    expect(offBranchSentence({ ...off, responses: 1 }, cost({ offBranch: { responses: 1, priced: 0, usd: null } }), n, formatUsd)).toBe('+1 response on an abandoned branch (billed, not shown): 37,709 prompt and 324 output tokens');
  });
});

describe('costParts', () => {
  it('names the parts only when there is more than the calls, and counts what was not priced', () => {
    expect(costParts(cost(), n, formatUsd)).toEqual([]);
    expect(costParts(cost({ offBranch: { responses: 2, priced: 2, usd: 0.134 } }), n, formatUsd)).toEqual(['calls $1.10', 'abandoned branches $0.13']);
    expect(costParts(cost({ sidechains: { responses: 3, priced: 0, usd: null }, unpriced: 3 }), n, formatUsd)).toEqual(['calls $1.10', 'sidechains not priced', '3 responses not priced: no reported usage or no price for the model']);
  });
});

describe('costSentence', () => {
  it('says the total at the reported usage, with the parts worth naming', () => {
    expect(costSentence(cost({ offBranch: { responses: 2, priced: 2, usd: 0.134 } }), n, formatUsd)).toBe('$1.23 at the reported usage (calls $1.10 · abandoned branches $0.13)');
    expect(costSentence(cost(), n, formatUsd)).toBe('$1.23 at the reported usage');
    expect(costSentence(cost({ usd: null }), n, formatUsd)).toBeNull();
  });
});

describe('shownParts', () => {
  it('rounds the parts to cents that add up to the total shown, the cent a floor leaves to the largest remainder', () => {
    // The shared sample: calls $9.52615 and sidechains $0.427629, $9.953779 in all; each alone would read $9.53 + $0.43.
    const shared = cost({ usd: 9.953779, calls: { responses: 139, priced: 139, usd: 9.52615 }, sidechains: { responses: 11, priced: 11, usd: 0.427629 } });
    expect(costSentence(shared, n, formatUsd)).toBe('$9.95 at the reported usage (calls $9.52 · sidechains $0.43)');
    const third = cost({ usd: 1, calls: { responses: 1, priced: 1, usd: 1 / 3 }, offBranch: { responses: 1, priced: 1, usd: 1 / 3 }, sidechains: { responses: 1, priced: 1, usd: 1 / 3 } });
    const parts = shownParts(third);
    expect(Math.round((parts.calls! + parts.offBranch! + parts.sidechains!) * 100)).toBe(100);
    // The off-branch note and the cost sentence name the same dollars.
    const off = { responses: 1, input: 1, cacheRead: 0, cacheWrite: 0, output: 1, prompt: 1, models: [] };
    expect(offBranchSentence(off, third, n, formatUsd).endsWith(formatUsd(parts.offBranch!))).toBe(true);
    expect(costSentence(third, n, formatUsd)).toContain(`abandoned branches ${formatUsd(parts.offBranch!)}`);
  });

  it('keeps a part under a cent as it is, so it reads "<$0.01"', () => {
    expect(costParts(cost({ usd: 1.104, offBranch: { responses: 1, priced: 1, usd: 0.004 } }), n, formatUsd)).toEqual(['calls $1.10', 'abandoned branches <$0.01']);
  });
});
