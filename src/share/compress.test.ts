import { describe, expect, it } from 'vitest';
import { deflate, inflate } from './compress';

const text = (s: string) => new TextEncoder().encode(s);

describe('inflate', () => {
  it('gives back what deflate compressed', () => {
    const data = text('{"note":"lost fact"}'.repeat(100));
    const r = inflate(deflate(data), 1 << 20);
    expect(r).toEqual({ ok: true, value: data });
  });

  it('stops a decompression bomb at the cap instead of inflating it all', () => {
    const bomb = deflate(new Uint8Array(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    const r = inflate(bomb, 1024 * 1024);
    expect(r).toEqual({ ok: false, error: 'the data expands to more than 1048576 bytes, over the limit' });
  });

  it('reports damaged and truncated data as a value', () => {
    const good = deflate(text('hello hello hello hello'));
    const cut = inflate(good.subarray(0, good.length - 2), 1000);
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.error).toMatch(/^the compressed data is damaged \(.+\); the link may have been cut short or altered$/);
    const junk = inflate(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 1000);
    expect(junk.ok).toBe(false);
  });
});
