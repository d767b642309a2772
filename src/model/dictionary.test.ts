import { describe, expect, it } from 'vitest';
import { countKey, own, setOwn } from './dictionary';

const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

describe('own', () => {
  it('reads nothing for a key the dictionary does not have, prototype names included', () => {
    for (const name of NAMES) expect(own({ a: 1 }, name)).toBeUndefined();
    expect(own({ a: 1 }, 'a')).toBe(1);
  });
});

describe('setOwn', () => {
  it('stores a prototype name as a key, leaving the prototype alone', () => {
    const d: Record<string, unknown> = {};
    for (const name of NAMES) setOwn(d, name, { n: name });
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual(NAMES);
    expect(own(d, '__proto__')).toEqual({ n: '__proto__' });
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });
});

describe('countKey', () => {
  it('counts prototype names like any other key', () => {
    const counts: Record<string, number> = {};
    for (const name of [...NAMES, ...NAMES, 'user']) countKey(counts, name);
    expect(Object.entries(counts)).toEqual([...NAMES.map((n) => [n, 2]), ['user', 1]]);
  });
});
