import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './base64';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('encodeBase64', () => {
  it('matches Node for every tail length, in both alphabets', () => {
    for (let n = 0; n < 10; n++) {
      const b = new Uint8Array(n).map((_, i) => (i * 97 + 250) & 255);
      expect(encodeBase64(b)).toBe(Buffer.from(b).toString('base64'));
      expect(encodeBase64(b, { url: true })).toBe(Buffer.from(b).toString('base64url'));
    }
  });
});

describe('decodeBase64', () => {
  it('round-trips random bytes with and without padding', () => {
    const b = new Uint8Array(1000).map((_, i) => (i * 31 + 7) & 255);
    expect(decodeBase64(encodeBase64(b))).toEqual(b);
    expect(decodeBase64(encodeBase64(b, { url: true }), { url: true })).toEqual(b);
    expect(decodeBase64('+/8=')).toEqual(bytes(251, 255));
    expect(decodeBase64('-_8', { url: true })).toEqual(bytes(251, 255));
  });

  it('refuses stray characters, whitespace, the other alphabet and impossible lengths', () => {
    expect(decodeBase64('ab c')).toBeNull();
    expect(decodeBase64('ab\nc')).toBeNull();
    expect(decodeBase64('-_8=')).toBeNull();
    expect(decodeBase64('+/8', { url: true })).toBeNull();
    expect(decodeBase64('abcde')).toBeNull();
    expect(decodeBase64('é')).toBeNull();
  });

  it('refuses text cut mid-byte (non-zero leftover bits)', () => {
    expect(decodeBase64('AB')).toBeNull(); // 'B' leaves set bits a real encoder never writes
    expect(decodeBase64('AA')).toEqual(bytes(0));
  });
});
