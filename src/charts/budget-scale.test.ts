import { describe, expect, it } from 'vitest';
import { callTicks, fitDomain, niceStep, niceTicks, stepPath, tickFormat, yScale } from './budget-scale';

describe('niceStep', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0.7, 1, 1.3, 2, 2.2, 3, 4.9, 6, 10].map(niceStep)).toEqual([1, 1, 2, 2, 2.5, 5, 5, 10, 10]);
    expect(niceStep(857)).toBe(1000);
    expect(niceStep(300.00000000000006)).toBe(500);
    expect(niceStep(0.30000000000000004)).toBe(0.5);
  });

  it('falls back to 1 for zero, negative or infinite input', () => {
    expect([0, -5, Infinity, NaN].map(niceStep)).toEqual([1, 1, 1, 1]);
  });
});

describe('niceTicks', () => {
  it('covers a 4,283-token peak with round 1,000-token steps', () => {
    expect(niceTicks(4283)).toEqual({ max: 5000, step: 1000, values: [0, 1000, 2000, 3000, 4000, 5000] });
  });

  it('stops at the data when it lands on a step', () => {
    expect(niceTicks(4000)).toEqual({ max: 4000, step: 1000, values: [0, 1000, 2000, 3000, 4000] });
  });

  it('never uses fractional token steps and keeps one step for an empty chart', () => {
    expect(niceTicks(3)).toEqual({ max: 3, step: 1, values: [0, 1, 2, 3] });
    expect(niceTicks(0)).toEqual({ max: 1, step: 1, values: [0, 1] });
  });

  it('handles a million-token window with 250k steps', () => {
    expect(niceTicks(1_047_576)).toEqual({ max: 1_250_000, step: 250_000, values: [0, 250_000, 500_000, 750_000, 1_000_000, 1_250_000] });
  });
});

describe('yScale', () => {
  it('maps 0 to the bottom and the axis max to the top', () => {
    const y = yScale(5000, 200);
    expect([y(0), y(2500), y(5000)]).toEqual([200, 100, 0]);
  });

  it('clamps negative values to the bottom and survives a zero max', () => {
    expect(yScale(100, 50)(-10)).toBe(50);
    expect(yScale(0, 50)(0)).toBe(50);
  });
});

describe('fitDomain', () => {
  it('leaves a context window far above the data off scale so the bars keep their height', () => {
    const d = fitDomain(4283, [{ value: 1_047_576 }, { value: 3536 }]);
    expect(d.onScale).toEqual([false, true]);
    expect(d.ticks.max).toBe(5000);
  });

  it('stretches the axis to a line close above the data', () => {
    const d = fitDomain(150_000, [{ value: 200_000 }, { value: 160_000 }]);
    expect(d.onScale).toEqual([true, true]);
    expect(d.ticks.max).toBe(200_000);
  });

  it('reports unknown lines as off scale', () => {
    expect(fitDomain(100, [{ value: null }]).onScale).toEqual([false]);
  });

  it('draws any line on an empty chart', () => {
    const d = fitDomain(0, [{ value: 128_000 }]);
    expect(d.onScale).toEqual([true]);
    expect(d.ticks.max).toBe(150_000);
  });
});

describe('callTicks', () => {
  it('labels every call of a short session', () => {
    expect(callTicks(5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('labels 14 calls in steps of 2 and 2,000 calls in steps of 250', () => {
    expect(callTicks(14)).toEqual([1, 2, 4, 6, 8, 10, 12, 14]);
    expect(callTicks(2000)).toEqual([1, 250, 500, 750, 1000, 1250, 1500, 1750, 2000]);
  });

  it('labels nothing without calls', () => {
    expect(callTicks(0)).toEqual([]);
  });
});

describe('tickFormat', () => {
  it('writes every label of a small axis in full, and of a large one in k or M', () => {
    expect([0, 2500, 5000].map(tickFormat(5000))).toEqual(['0', '2,500', '5,000']);
    expect([0, 2000, 8000, 10_000].map(tickFormat(10_000))).toEqual(['0k', '2k', '8k', '10k']);
    expect([0, 12_500, 250_000].map(tickFormat(250_000))).toEqual(['0k', '12.5k', '250k']);
    expect([0, 250_000, 1_250_000, 2_000_000].map(tickFormat(2_000_000))).toEqual(['0M', '0.25M', '1.25M', '2M']);
  });
});

describe('stepPath', () => {
  const y = yScale(100, 100);

  it('draws one horizontal step per slot, joined vertically', () => {
    expect(stepPath([10, 50, 50], 4, y)).toBe('M0,90H4V50H8V50H12');
  });

  it('leaves a gap where a call reports nothing', () => {
    expect(stepPath([10, null, 30], 2.5, y)).toBe('M0,90H2.5M5,70H7.5');
  });

  it('is empty without values', () => {
    expect(stepPath([], 4, y)).toBe('');
    expect(stepPath([null, null], 4, y)).toBe('');
  });
});
