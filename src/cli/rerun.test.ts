import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeSamples, readSample } from '../test/shared-samples';
import { run } from './main';
import { memoryIo } from '../test/memory-io';

const fakeIo = (files: Record<string, string>) => memoryIo(files);

const codex = readFileSync(new URL('../formats/__fixtures__/codex-rollout.jsonl', import.meta.url), 'utf8');

describe('run rerun', () => {
  it('prints where the Codex preset fired, tokens before and after, and the cache miss beside the recorded compaction', async () => {
    const { io, out, err } = fakeIo({ 'rollout.jsonl': codex });
    // The fixture ends with a malformed line: named on stderr (exit 1), and the rest still re-runs.
    expect(await run(['rerun', 'rollout.jsonl', '--policy', 'codex', '--param', 'autoCompactLimit=9500', '--json'], io)).toBe(1);
    expect(err).toEqual(['rollout.jsonl:32 (payload): response_item line has no payload object (got nothing)']);
    const [session] = JSON.parse(out.join('\n')).sessions;
    expect(session).toMatchObject({ format: 'codex', runs: [{ run: 1, policy: 'codex', strategy: 'codex-compact', trigger: '≥ 9,500 tokens' }] });
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
      [{ tail: 1 }, '≥ 5,000 tokens'],
      [{ tail: 2 }, '≥ 5,000 tokens'],
      [{ tail: 1 }, '≥ 9,500 tokens'],
      [{ tail: 2 }, '≥ 9,500 tokens'],
    ]);
    // Every call is above 5000 measured tokens: that trigger fires more often than 9500.
    expect(runs[0].table.compactions).toBeGreaterThan(runs[2].table.compactions);
  });

  it('replays Claude Code with the trigger of the version that wrote the session, under what the user sets', async () => {
    const recent = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url), 'utf8');
    expect(recent).toContain('"version":"2.1.39"');
    // Before 2.1.21 Claude Code kept the whole 32,000-token max output free, not 20,000: it compacted 12,000 sooner.
    const older = recent.replaceAll('"version":"2.1.39"', '"version":"2.0.74"');
    const trigger = async (file: string, extra: string[] = []) => {
      const { io, out } = fakeIo({ 's.jsonl': file });
      await run(['rerun', 's.jsonl', '--policy', 'claude-code', '--param', 'window=200000', ...extra, '--json'], io);
      return JSON.parse(out.join('\n')).sessions[0].runs[0].trigger;
    };
    expect(await trigger(recent)).toBe('≥ 167,000 tokens');
    expect(await trigger(older)).toBe('≥ 155,000 tokens');
    expect(await trigger(older, ['--param', 'outputReserve=20000'])).toBe('≥ 167,000 tokens');
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

const ROW_FIELDS = {
  id: 'string',
  label: 'string',
  baseline: 'boolean',
  trigger: 'string',
  status: 'string',
  compactions: 'number',
  peakTokens: 'number',
  totalInputTokens: 'number',
  estimatedCalls: 'number',
  peakBand: 'number',
  inputBand: 'number',
  cacheReadTokens: 'number',
  cacheWriteTokens: 'number',
  lostNeeded: 'number',
  lostRefetched: 'number',
  auditSource: 'string',
} as const;

/** Every row holds the comparison's fields with their types; money and summarizer figures are numbers or null. */
function expectRowShape(row: Record<string, unknown>) {
  for (const [k, t] of Object.entries(ROW_FIELDS)) expect(typeof row[k], k).toBe(t);
  for (const k of ['inputUsd', 'summarizerUsd', 'totalUsd', 'summarizerPromptTokens', 'summarizerOutputTokens']) expect(row[k] === null || typeof row[k] === 'number', k).toBe(true);
  expect(Array.isArray(row.compactionCalls)).toBe(true);
  expect(Array.isArray(row.notes)).toBe(true);
  expect(Array.isArray(row.recordedMatch)).toBe(true);
  expect(Object.keys(row.probes as object).sort()).toEqual(['artifact', 'continuation', 'decision', 'recall']);
  for (const s of Object.values(row.survival as Record<string, { evicted: number; kept: number }>)) expect(s.kept).toBeLessThanOrEqual(s.evicted);
}

const POLICIES = 'claude-code,codex,openhands,inspect,anthropic-server,observation-masking';

describe('run rerun --policies', () => {
  it('gives the recorded run first, then one row per policy with the comparison fields', async () => {
    const { io, out } = fakeIo({ 'rollout.jsonl': codex });
    await run(['rerun', 'rollout.jsonl', '--policies', POLICIES, '--json'], io);
    const json = JSON.parse(out.join('\n'));
    expect(json.policies).toEqual(POLICIES.split(','));
    expect(json.corpus).toBeNull();
    const [s] = json.sessions;
    expect(s.rows.map((r: { id: string }) => r.id)).toEqual(['recorded', ...POLICIES.split(',')]);
    for (const r of s.rows) expectRowShape(r);
    expect(s.rows[0]).toMatchObject({ baseline: true, compactions: 1, compactionCalls: ['4'] });
  });

  it('refuses an unknown policy in the list, and --policies beside --policy', async () => {
    const { io, err } = fakeIo({ 'rollout.jsonl': codex });
    expect(await run(['rerun', 'rollout.jsonl', '--policies', 'codex,aider'], io)).toBe(2);
    expect(err.join('\n')).toContain('unknown policy aider');
    expect(await run(['rerun', 'rollout.jsonl', '--policies', 'codex', '--policy', 'codex'], io)).toBe(2);
  });

  it('compacts a strategy where the recording did by default when the session recorded compactions', async () => {
    const { io, out } = fakeIo({ 'rollout.jsonl': codex });
    await run(['rerun', 'rollout.jsonl', '--policy', 'summarize-middle', '--json'], io);
    const r = JSON.parse(out.join('\n')).sessions[0].runs[0];
    expect(r.trigger).toBe('where the recording compacted');
    expect(r.compactions.map((c: { call: number }) => c.call)).toEqual([4]);
    expect(r.recordedMatch).toEqual([expect.objectContaining({ call: 4, verdict: 'not-compared' })]);
  });
});

describeSamples('run rerun --policies on the shared samples', () => {
  it('ranks every policy on each session, the recorded run as the baseline, and each policy\'s median and total', async () => {
    const files = ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl', 'codex-rollout-cache.jsonl'];
    const { io, out } = fakeIo(Object.fromEntries(files.map((f) => [f, new TextDecoder().decode(readSample(f).bytes)])));
    expect(await run(['rerun', ...files, '--policies', POLICIES, '--json'], io)).toBe(0);
    const json = JSON.parse(out.join('\n'));
    expect(json.sessions).toHaveLength(2);
    for (const s of json.sessions) {
      expect(s.rows.map((r: { id: string }) => r.id)).toEqual(['recorded', ...POLICIES.split(',')]);
      for (const r of s.rows) expectRowShape(r);
    }
    const claude = json.sessions.find((s: { format: string }) => s.format === 'claude-code');
    // The baseline row is the session's own figures (the header's and `inspect`'s).
    expect(claude.rows[0]).toMatchObject({ totalInputTokens: 12_098_281, peakTokens: 164_831, compactionCalls: ['62'] });
    const cc = claude.rows.find((r: { id: string }) => r.id === 'claude-code');
    expect(cc.compactionCalls[0]).toMatch(/^62\b/);
    expect(cc.recordedMatch).toEqual([expect.objectContaining({ call: 62, verdict: 'within-one' })]);
    // Every recorded prompt is reported: the baseline estimates nothing. The replay sends what Claude Code sent up
    // to call 61 (its peak, reported) and estimates the calls after its own compaction, with a band.
    expect(claude.rows[0]).toMatchObject({ estimatedCalls: 0, peakBand: 0, inputBand: 0 });
    expect(cc).toMatchObject({ peakTokens: 164_831, peakBand: 0 });
    expect(cc.estimatedCalls).toBeGreaterThan(0);
    expect(cc.estimatedCalls).toBeLessThanOrEqual(139 - 61);
    expect(cc.inputBand).toBeGreaterThan(0);
    expect(cc.inputBand).toBeLessThan(cc.totalInputTokens * 0.05);
    // Other harnesses' policies are not judged against Claude Code's compaction.
    expect(claude.rows.find((r: { id: string }) => r.id === 'openhands').recordedMatch).toEqual([]);
    expect(json.corpus.map((r: { id: string }) => r.id)).toEqual(['recorded', ...POLICIES.split(',')]);
    for (const r of json.corpus) {
      expect(r.sessions).toBe(2);
      expect(r.total.totalInputTokens).toBeGreaterThanOrEqual(r.median.totalInputTokens);
    }
    expect(json.corpus.reduce((n: number, r: { cheapest: number }) => n + r.cheapest, 0)).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
