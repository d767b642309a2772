import { describe, expect, it } from 'vitest';
import { cacheApartUsage } from '../model/usage';
import type { ModelResponse, OffBranchResponse, Sidechain } from '../model/types';
import { sessionCost } from './session-cost';

const src = { file: 'f', line: null };
const u = (input: number, output: number) => cacheApartUsage(input, output, 0, 0);
const side = (responses: ModelResponse[]): Sidechain => ({ id: 'agent-1', purpose: 'subagent', file: 'f', items: [], compactionId: null, responses });

describe('sessionCost', () => {
  it('prices the calls, the responses on abandoned branches and the sidechains each as a part, and adds them up', () => {
    const offBranch: OffBranchResponse[] = [{ id: 'm9', model: 'claude-opus-4-6', usage: u(1_000_000, 0), source: src }];
    const cost = sessionCost({
      calls: [{ model: 'claude-opus-4-6', usage: u(1_000_000, 0) }, { model: null, usage: u(0, 1_000_000) }],
      offBranch,
      sidechains: [side([{ id: 's1', index: 0, itemIds: [], usage: u(0, 1_000_000), model: 'claude-haiku-4-5', source: src }])],
      model: 'claude-opus-4-6',
    });
    // Opus 4.6: $5 in, $25 out per million; Haiku 4.5: $5 out.
    expect(cost).toEqual({ usd: 5 + 25 + 5 + 5, calls: { responses: 2, priced: 2, usd: 30 }, offBranch: { responses: 1, priced: 1, usd: 5 }, sidechains: { responses: 1, priced: 1, usd: 5 }, unpriced: 0 });
  });

  it('counts what it cannot price: no reported usage, or a model the prices do not know', () => {
    const cost = sessionCost({ calls: [{ model: 'my-local-llama', usage: u(10, 10) }, { model: 'claude-opus-4-6', usage: null }] });
    expect(cost).toEqual({ usd: null, calls: { responses: 2, priced: 0, usd: null }, offBranch: null, sidechains: null, unpriced: 2 });
  });
});
