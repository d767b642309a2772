import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from './main';

function fakeIo(files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => {
      if (!(p in files)) throw new Error('ENOENT: no such file');
      return new TextEncoder().encode(files[p]);
    },
    listDir: () => [],
    isDir: () => false,
    exists: (p) => p in files,
  };
  return { io, out, err };
}

const codex = readFileSync(new URL('../formats/__fixtures__/codex-rollout.jsonl', import.meta.url), 'utf8');

describe('run rerun', () => {
  it('prints where the Codex preset fired, tokens before and after, and the cache miss beside the recorded compaction', async () => {
    const { io, out, err } = fakeIo({ 'rollout.jsonl': codex });
    // The fixture ends with a malformed line: named on stderr (exit 1), and the rest still re-runs.
    expect(await run(['rerun', 'rollout.jsonl', '--policy', 'codex', '--param', 'autoCompactLimit=9500', '--json'], io)).toBe(1);
    expect(err).toEqual(['rollout.jsonl:32 (payload): response_item line has no payload object (got nothing)']);
    const [session] = JSON.parse(out.join('\n')).sessions;
    expect(session).toMatchObject({ format: 'codex', runs: [{ run: 1, policy: 'codex', strategy: 'codex-compact', trigger: '≥ 9500 tokens' }] });
    const r = session.runs[0];
    expect(r.recorded).toEqual([expect.objectContaining({ call: 4 })]);
    expect(r.compactions).toHaveLength(1);
    const c = r.compactions[0];
    expect(c.call).toBe(3);
    expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    expect(c.measuredBefore).toBeGreaterThanOrEqual(9500);
    expect(c.cacheMissTokens).toBeGreaterThan(0);
    expect(typeof c.cacheMissUsd).toBe('number');
    expect(r.cost.recorded.compactions).toBe(1);
    expect(r.history.recapsLeftOut).toBe(1);
  });

  it('sweeps trigger values outer and parameters inner, one run per combination', async () => {
    const { io, out } = fakeIo({ 'rollout.jsonl': codex });
    expect(await run(['rerun', 'rollout.jsonl', '--policy', 'summarize-middle', '--sweep', 'tail=1,2', '--sweep', 'threshold=5000,9500', '--json'], io)).toBe(1);
    const runs = JSON.parse(out.join('\n')).sessions[0].runs;
    expect(runs.map((r: { params: object; trigger: string }) => [r.params, r.trigger])).toEqual([
      [{ tail: 1 }, '≥ 5000 tokens'],
      [{ tail: 2 }, '≥ 5000 tokens'],
      [{ tail: 1 }, '≥ 9500 tokens'],
      [{ tail: 2 }, '≥ 9500 tokens'],
    ]);
    // Every call is above 5000 measured tokens: that trigger fires more often than 9500.
    expect(runs[0].table.compactions).toBeGreaterThan(runs[2].table.compactions);
  });

  it('refuses an unknown policy or parameter, naming it, with usage', async () => {
    const { io, err } = fakeIo({ 'rollout.jsonl': codex });
    expect(await run(['rerun', 'rollout.jsonl', '--policy', 'aider'], io)).toBe(2);
    expect(err.join('\n')).toContain('unknown policy aider');
    expect(await run(['rerun', 'rollout.jsonl', '--policy', 'drop-oldest', '--param', 'tial=2'], io)).toBe(2);
    expect(err.join('\n')).toContain('drop-oldest has no parameter tial');
    expect(await run(['rerun', '--policy', 'codex'], io)).toBe(2);
    expect(err.join('\n')).toContain('rerun needs at least one file');
  });
});
