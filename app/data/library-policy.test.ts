import { describe, expect, it } from 'vitest';
import { evictionPlan, formatBytes, storageProblem } from './library-policy';

const e = (hash: string, bytes: number, openedAt: string, stored = true) => ({ hash, bytes, openedAt, stored });

describe('evictionPlan', () => {
  it('drops nothing while everything fits', () => {
    expect(evictionPlan([e('a', 10, '2025-01-01')], 20, 'new', 100)).toEqual([]);
  });
  it('lets the oldest stored sessions go first until the new one fits', () => {
    const entries = [e('new-ish', 40, '2025-03-01'), e('oldest', 40, '2025-01-01'), e('middle', 40, '2025-02-01'), e('gone', 90, '2024-01-01', false)];
    expect(evictionPlan(entries, 50, 'x', 100)).toEqual(['oldest', 'middle']);
  });
  it('never chooses the session being stored, and refuses one larger than the cap', () => {
    expect(evictionPlan([e('same', 80, '2020-01-01')], 80, 'same', 100)).toEqual([]);
    expect(evictionPlan([], 101, 'x', 100)).toBeNull();
  });
});

describe('storageProblem', () => {
  it('says plainly what each browser failure means', () => {
    expect(storageProblem(new DOMException('full', 'QuotaExceededError'))).toMatch(/storage for this site is full/);
    expect(storageProblem(new DOMException('no', 'InvalidStateError'))).toMatch(/private window/);
    expect(storageProblem(Object.assign(new Error('IndexedDB is not available'), { name: 'Unavailable' }))).toMatch(/no local database/);
    expect(storageProblem(new Error('disk on fire'))).toBe('Local storage failed (disk on fire)');
  });
});

describe('formatBytes', () => {
  it('uses the largest unit that keeps a number above 1', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(5 * 1024 * 1024), formatBytes(300 * 1024 * 1024)]).toEqual(['512 B', '2.0 KB', '5.0 MB', '300 MB']);
  });
});
