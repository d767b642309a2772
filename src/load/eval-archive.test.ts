import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { evalSampleCount, readEvalArchive } from './eval-archive';

const json = (v: unknown) => strToU8(JSON.stringify(v));

describe('evalSampleCount', () => {
  it('counts the sample entries of an .eval from its directory', () => {
    const bytes = zipSync({ 'header.json': json({ eval: { task: 't' } }), 'samples/1_epoch_1.json': json({}), 'samples/2_epoch_1.json': json({}), 'summaries.json': json([]), '_journal/summaries/1.json': json([]) });
    expect(evalSampleCount(bytes)).toBe(2);
  });

  it('is 0 for a zip without samples and for bytes that are no zip', () => {
    expect(evalSampleCount(zipSync({ 'notes.txt': strToU8('x') }))).toBe(0);
    expect(evalSampleCount(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toBe(0);
  });
});

describe('readEvalArchive', () => {
  it('lists samples epoch by epoch, ids in natural order', () => {
    const names = ['samples/10_epoch_1.json', 'samples/2_epoch_2.json', 'samples/2_epoch_1.json', 'samples/b_epoch_1.json'];
    const files: Record<string, Uint8Array> = { 'header.json': json({ eval: { task: 't' } }) };
    for (const n of names) files[n] = json({ name: n });
    const r = readEvalArchive('x.eval', zipSync(files));
    if (!r.ok) throw new Error(r.message);
    expect((r.value['samples'] as { name: string }[]).map((s) => s.name)).toEqual(['samples/2_epoch_1.json', 'samples/10_epoch_1.json', 'samples/b_epoch_1.json', 'samples/2_epoch_2.json']);
  });
});
