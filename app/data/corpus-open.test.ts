import { describe, expect, it } from 'vitest';
import { planOpen } from '../../src/load/plan-open';
import { pageSource } from './corpus-open';

/** A file of `size` bytes (byte i is i % 251), counting the reads the page makes of it. */
function counted(size: number, name = 'session.jsonl') {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 251;
  const file = new File([bytes], name);
  let reads = 0;
  const slice = file.slice.bind(file);
  file.slice = (...args: Parameters<Blob['slice']>) => {
    reads++;
    return slice(...args);
  };
  return { file, bytes, reads: () => reads };
}

/** Byte-equal (vitest's deep equality walks a typed array element by element: 200 KB took seconds). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

describe('pageSource', () => {
  it('gives the same heads as the file, reading a head of 64 KB once for every ask up to it', async () => {
    const { file, bytes, reads } = counted(200_000);
    const source = pageSource(file);
    for (const n of [4, 4096, 65_536, 4, 10]) expect(same(await source.head(n), bytes.subarray(0, n))).toBe(true);
    expect(reads()).toBe(1);
    expect(same(await source.head(100_000), bytes.subarray(0, 100_000))).toBe(true);
    expect(reads()).toBe(2);
    expect(same(await source.read(), bytes)).toBe(true);
  });

  it('a file shorter than the head gives itself', async () => {
    const { file, bytes } = counted(10);
    expect(same(await pageSource(file).head(4096), bytes)).toBe(true);
  });

  it('the plan of a lone JSONL session asks every kind from one read of its head', async () => {
    const lines = [JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }), JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'hello' } })];
    const file = new File([lines.join('\n') + '\n'], 'session.jsonl');
    let reads = 0;
    const slice = file.slice.bind(file);
    file.slice = (...args: Parameters<Blob['slice']>) => (reads++, slice(...args));
    const plan = await planOpen([pageSource(file)]);
    expect(plan.sessions.map((s) => s.name)).toEqual(['session.jsonl']);
    expect(plan.corpus).toBeNull();
    expect(reads).toBe(1);
  });
});
