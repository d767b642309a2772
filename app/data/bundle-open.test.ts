import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_STATE, encodeBundle, sessionHash } from '../../src/share';
import { readBundle } from './bundle-open';
import { readBundleOffThread } from './load-client';

const files = [
  { name: 'run.jsonl', bytes: new TextEncoder().encode('{"type":"user"}\n') },
  { name: 'log.jsonl', bytes: new Uint8Array([0x7b, 0x7d, 0x0a]) },
];

async function bundle(): Promise<string> {
  const r = await encodeBundle({ files, view: { ...DEFAULT_VIEW_STATE, turn: 3 }, annotations: [], createdAt: '2026-01-01T00:00:00.000Z' });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('readBundle', () => {
  it('gives the files back as File objects with their bytes, beside the hash and view', async () => {
    const r = await readBundle(await bundle());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.files.map((f) => f.name)).toEqual(['run.jsonl', 'log.jsonl']);
    expect(new Uint8Array(await r.value.files[1]!.arrayBuffer())).toEqual(files[1]!.bytes);
    expect(r.value.sessionHash).toBe(await sessionHash(files));
    expect(r.value.view.turn).toBe(3);
  });

  it('runs inline where there is no Worker, from a dropped file as from text', async () => {
    expect(typeof Worker).toBe('undefined');
    const r = await readBundleOffThread(new File([await bundle()], 'x.cibundle'));
    expect(r.ok && (await r.value.files[0]!.text())).toBe('{"type":"user"}\n');
    const bad = await readBundleOffThread({ name: 'bad', text: '{"format":"compaction-inspector-bundle","version":1}' });
    expect(bad.ok).toBe(false);
  });
});
