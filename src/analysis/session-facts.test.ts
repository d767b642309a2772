import { describe, expect, it } from 'vitest';
import type { CallCalibration, SessionCalibration } from './calibration';
import { sessionFacts } from './session-facts';

const call = (contextTokens: number, reportedPrompt: number | null, uncertainty = 0): CallCalibration =>
  ({ prefixTokens: 0, scale: 1, perItem: 0, contextTokens, modelledTokens: contextTokens, reportedPrompt, uncertainty, estimated: reportedPrompt === null }) as CallCalibration;
const facts = (calls: CallCalibration[]) => {
  const calibration = { calls, scale: 1, perItem: 0, prefixTokens: 0, estimated: true, fittedCalls: calls.length, fitSpread: null } as SessionCalibration;
  const f = sessionFacts({ items: [], calls: [], compactions: [], calibration, cache: null, encoding: 'o200k_base' });
  return [f.peakContextTokens, f.peakCall, f.peakSource];
};

describe('the session peak', () => {
  it('is the largest reported prompt when an estimate above it is within its own uncertainty', () => {
    // A Cline call cut by an API error reports nothing; counting the file (which kept what the harness truncated)
    // estimates 185,213 ±1335%: the measured 120,000 stays the peak.
    expect(facts([call(100_000, 100_000), call(185_213, null, 13.35), call(120_000, 120_000)])).toEqual([120_000, 3, 'reported']);
  });

  it('is an estimate when even its low end is above every reported prompt', () => {
    expect(facts([call(100_000, 100_000), call(130_000, null, 0.05)])).toEqual([130_000, 2, 'estimated']);
  });
});
