import { describe, expect, it } from 'vitest';
import { get, str, type JsonObject } from './narrow';

describe('get', () => {
  it('reads own properties only, whatever their name', () => {
    const v = JSON.parse('{"type":"user","__proto__":{"polluted":true},"constructor":"mine","n":0,"f":false,"z":null}') as JsonObject;
    expect(get(v, 'type')).toBe('user');
    expect(get(v, '__proto__')).toEqual({ polluted: true });
    expect(get(v, 'constructor')).toBe('mine');
    expect([get(v, 'n'), get(v, 'f'), get(v, 'z')]).toEqual([0, false, null]);
    expect(get(v, 'polluted')).toBeUndefined();
  });

  it('never returns what a prototype holds', () => {
    const plain = JSON.parse('{"a":1}') as JsonObject;
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) expect(get(plain, key)).toBeUndefined();
    expect(get([] as unknown as JsonObject, 'map')).toBeUndefined();
    expect(get(Object.create({ inherited: 'x' }) as JsonObject, 'inherited')).toBeUndefined();
    expect(str(plain, 'toString')).toBeUndefined();
  });
});
