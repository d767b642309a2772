// The CLI opens what it is given as the app's drop does (planOpen): a bundle as its files, a corpus named as one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeBundle } from '../share/bundle';
import { run } from './main';
import { memoryIo } from '../test/memory-io';

function fakeIo(files: Record<string, string>) {
  const { io, out } = memoryIo(files);
  return { io, out: () => JSON.parse(out.join('\n')) as { sessions: { files: string[]; items: number; format: string }[]; errors: { file: string; message: string }[] } };
}

const course = readFileSync(new URL('../formats/__fixtures__/openai-chat-course.json', import.meta.url), 'utf8');
const corpus = readFileSync(new URL('../corpus/__fixtures__/self-sum-corpus.jsonl', import.meta.url), 'utf8');

describe('inspect, given what the app opens', () => {
  it('reads a bundle as the files it carries, with the figures those files give', async () => {
    const bundled = await encodeBundle({ files: [{ name: 'a.json', bytes: new TextEncoder().encode(course) }], annotations: [], view: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' }, createdAt: '2026-01-01T00:00:00Z' });
    if (!bundled.ok) throw new Error(bundled.error);
    const plain = fakeIo({ 'a.json': course });
    const fromBundle = fakeIo({ 'notes.bundle.json': bundled.value });
    expect(await run(['inspect', 'a.json', '--json', '--no-cache'], plain.io)).toBe(0);
    expect(await run(['inspect', 'notes.bundle.json', '--json', '--no-cache'], fromBundle.io)).toBe(0);
    expect(fromBundle.out().sessions).toEqual(plain.out().sessions);
    expect(fromBundle.out().sessions[0]).toMatchObject({ files: ['a.json'], format: 'openai-chat', items: 7 });
  });

  it('names a JSONL of whole trajectories as a corpus for `corpus`, and still reports the sessions beside it', async () => {
    const { io, out } = fakeIo({ 'runs.jsonl': corpus, 'a.json': course });
    expect(await run(['inspect', 'runs.jsonl', 'a.json', '--json', '--no-cache'], io)).toBe(1);
    expect(out().sessions.map((s) => s.files)).toEqual([['a.json']]);
    expect(out().errors).toEqual([expect.objectContaining({ file: 'runs.jsonl', message: expect.stringContaining('compaction-inspector corpus runs.jsonl') })]);
  });

  it('says a folder holds compressed rollouts (Codex archives them as .jsonl.zst) where it holds no transcript', async () => {
    const zst = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0x81, 0, 0]);
    const { io, err } = memoryIo({ 'archived_sessions/rollout-2026-07-01T10-00-00-019a.jsonl.zst': zst, 'archived_sessions/rollout-2026-07-02T10-00-00-019b.jsonl.zst': zst });
    expect(await run(['inspect', 'archived_sessions', '--no-cache'], io)).not.toBe(0);
    expect(err.join('\n')).toContain('no .json or .jsonl files in this folder (2 compressed files, .jsonl.zst or .jsonl.gz: decompress them first');
  });
});
