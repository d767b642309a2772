import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { multiFileText, sessionHash, sha256Hex } from './content-hash';
import { sha256Bytes } from './sha256-fallback';

const enc = (s: string) => new TextEncoder().encode(s);
const nodeSha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

describe('sha256Hex', () => {
  it('gives the standard digest of bytes and of UTF-8 text', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(enc('héllo'))).toBe(nodeSha('héllo'));
    expect(await sha256Hex(new Uint8Array(0))).toBe(nodeSha(''));
  });

  it('hashes only the bytes a subarray covers', async () => {
    const whole = enc('xxabcxx');
    expect(await sha256Hex(whole.subarray(2, 5))).toBe(await sha256Hex('abc'));
  });
});

describe('sha256Bytes (fallback without crypto.subtle)', () => {
  it('agrees with Node on lengths around every padding boundary', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const b = new Uint8Array(n).map((_, i) => (i * 131 + n) & 255);
      expect(Buffer.from(sha256Bytes(b)).toString('hex')).toBe(nodeSha(b));
    }
  });
});

describe('sessionHash', () => {
  const a = { name: 'run.jsonl', bytes: enc('{"a":1}\n') };
  const b = { name: 'requests.jsonl', bytes: enc('{"b":2}\n') };
  const c = { name: 'compaction.jsonl', bytes: enc('{"c":3}\n') };

  it('is the plain sha256 of a single file, whatever its name', async () => {
    expect(await sessionHash([a])).toBe(nodeSha('{"a":1}\n'));
    expect(await sessionHash([{ ...a, name: 'run (1).jsonl' }])).toBe(await sessionHash([a]));
  });

  it('is the same for the same files in any order', async () => {
    const h = await sessionHash([a, b, c]);
    expect(await sessionHash([c, a, b])).toBe(h);
    expect(await sessionHash([b, c, a])).toBe(h);
    expect(h).not.toBe(await sessionHash([a, b]));
  });

  it('follows the documented rule: sorted digests, one per line, after the prefix', async () => {
    const digests = [nodeSha('{"a":1}\n'), nodeSha('{"b":2}\n')];
    const text = `compaction-inspector/session/1\n${[...digests].sort().join('\n')}\n`;
    expect(multiFileText(digests)).toBe(text);
    expect(await sessionHash([a, b])).toBe(nodeSha(text));
  });

  it('counts a file given twice twice', async () => {
    expect(await sessionHash([a, a])).not.toBe(await sessionHash([a]));
  });
});
