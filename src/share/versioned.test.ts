import { describe, expect, it } from 'vitest';
import type { Result } from './schema';
import { upgrade, type VersionedFormat } from './versioned';

// A made-up format at version 3 whose documents gained a field at each step.
const format: VersionedFormat = {
  label: 'test file',
  current: 3,
  upgraders: {
    1: (doc): Result<unknown> => ({ ok: true, value: { ...(doc as object), two: true } }),
    2: (doc): Result<unknown> => ({ ok: true, value: { ...(doc as object), three: true } }),
  },
};

describe('upgrade', () => {
  it('applies every step from the written version up to the current one, in order', () => {
    expect(upgrade(format, 1, { one: true })).toEqual({ ok: true, value: { one: true, two: true, three: true } });
    expect(upgrade(format, 2, { one: true })).toEqual({ ok: true, value: { one: true, three: true } });
    expect(upgrade(format, 3, { one: true })).toEqual({ ok: true, value: { one: true } });
  });

  it('refuses a version newer than the app with a message that says to update', () => {
    expect(upgrade(format, 4, {})).toEqual({
      ok: false,
      error: 'This test file was made by a newer version of Compaction Inspector (test file format 4; this app reads up to 3). Update the app to open it.',
    });
  });

  it('refuses versions that are not whole numbers from 1', () => {
    for (const v of [0, -1, 1.5, '1', null, undefined, Number.NaN]) {
      expect(upgrade(format, v, {})).toEqual({ ok: false, error: 'This test file has no valid version (expected a whole number from 1 to 3).' });
    }
  });

  it('names the step that is missing or fails, and turns a throwing upgrader into an error', () => {
    expect(upgrade({ ...format, upgraders: { 1: format.upgraders[1]! } }, 1, {})).toEqual({ ok: false, error: 'This app cannot upgrade a test file from format 2 to 3.' });
    const failing: VersionedFormat = { ...format, upgraders: { ...format.upgraders, 2: () => ({ ok: false, error: 'no' }) } };
    expect(upgrade(failing, 1, {})).toEqual({ ok: false, error: 'Upgrading the test file from format 2 to 3 failed: no' });
    const throwing: VersionedFormat = {
      ...format,
      upgraders: {
        ...format.upgraders,
        1: () => {
          throw new Error('boom');
        },
      },
    };
    expect(upgrade(throwing, 1, {})).toEqual({ ok: false, error: 'Upgrading the test file from format 1 to 2 failed: boom' });
  });
});
