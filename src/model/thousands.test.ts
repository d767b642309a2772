import { describe, expect, it } from 'vitest';
import { thousands } from './thousands';

describe('thousands', () => {
  const intl = new Intl.NumberFormat('en-US');

  it('writes every whole number as en-US Intl.NumberFormat does', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 99999, 100000, 999999, 1000000, 1234567, 167000, 2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER];
    for (let k = 1; k < 2 ** 53; k = k * 7 + 3) values.push(k);
    for (const v of [...values, ...values.map((v) => -v)]) expect(thousands(v)).toBe(intl.format(v));
  });

  it('writes other numbers as en-US Intl.NumberFormat does', () => {
    for (const v of [-0, 0.5, 1234.5678, -1234.5, 1e21, -1e21, 2 ** 53, 2 ** 60, NaN, Infinity, -Infinity, 1e-7]) expect(thousands(v)).toBe(intl.format(v));
  });
});
