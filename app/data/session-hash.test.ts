import { describe, expect, it } from 'vitest';
import { sessionHash, sha256Hex } from '../../src/share';
import { sessionHashes } from './session-hash';

describe('sessionHashes', () => {
  it('gives each session the sessionHash of its own files, in any order, by name', async () => {
    const bytes = { t: new TextEncoder().encode('transcript'), l: new TextEncoder().encode('log'), o: new TextEncoder().encode('other') };
    const digests = [
      { name: 'log.jsonl', digest: await sha256Hex(bytes.l) },
      { name: 'other.json', digest: await sha256Hex(bytes.o) },
      { name: 't.json', digest: await sha256Hex(bytes.t) },
    ];
    const hashes = await sessionHashes([{ files: ['t.json', 'log.jsonl'] }, { files: ['other.json'] }, { files: ['missing.json'] }], digests);
    expect(hashes).toEqual([await sessionHash([{ bytes: bytes.t }, { bytes: bytes.l }]), await sessionHash([{ bytes: bytes.o }]), null]);
  });
});
