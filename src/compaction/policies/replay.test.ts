// The harness presets replayed on recorded sessions: each fires where the harness's own compaction did.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles, type InputFile } from '../../load/loader';
import type { Session } from '../../model/types';
import { describeSamples, readSample } from '../../test/shared-samples';
import { createTokenCounter, pickEncoding } from '../../tokens';
import { rerunSession } from '../rerun';
import { policyForFormat, resolvePolicy } from './presets';

async function replay(files: InputFile[], raw: Record<string, unknown> = {}) {
  const session: Session = loadFiles(files).sessions[0]!;
  const counter = await createTokenCounter(pickEncoding(session.model).encoding);
  const preset = policyForFormat(session.format)!;
  const policy = resolvePolicy(preset.id, raw, session.contextWindow);
  const result = await rerunSession(session, { strategy: policy.strategy, params: policy.params, trigger: policy.trigger, measureAt: policy.measureAt, count: (t) => counter.count(t).tokens });
  return { session, preset, policy, result };
}

const fixture = (name: string): InputFile => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../../formats/__fixtures__/${name}`, import.meta.url))) });

describeSamples('the Claude Code preset on a recorded Claude Code session', () => {
  it('fires its first compaction within one call of where Claude Code compacted (call 62)', async () => {
    const { preset, policy, result } = await replay([readSample('claude-code-compacted.jsonl'), readSample('claude-code-compacted.agent-acompact.jsonl')]);
    expect(preset.id).toBe('claude-code');
    expect(policy.trigger).toEqual({ kind: 'tokens', threshold: 167_000 });
    expect(result.costs.original.events.map((e) => e.call)).toEqual([62]);
    // The recorded summarizer call is priced from the agent-acompact sidechain's reported usage.
    expect(result.costs.original.events[0]!.summarizerPromptTokens).toBe(173_514);
    const first = result.events[0]!;
    expect(Math.abs(first.callIndex + 1 - 62)).toBeLessThanOrEqual(1);
    // Up to there the replay sends what Claude Code sent: each call measured by its reported prompt (call 61:
    // 164,831 < 167,000), so it fires at call 62, where Claude Code fired, inside a band of ± one call.
    expect(result.calls[60]!).toMatchObject({ measuredBefore: 164_831, band: 0, measureSource: 'reported' });
    expect(first.callIndex + 1).toBe(62);
    expect(result.recordedMatch).toMatchObject([{ call: 62, trigger: 'auto', harnessTokens: 170_251, replayCall: 62, offset: 0, verdict: 'within-one' }]);
    expect(first.fireWindow!.early).toBeGreaterThanOrEqual(60);
    expect(first.fireWindow!.late).not.toBeNull();
    expect(first.fireWindow!.late!).toBeLessThanOrEqual(62);
    // It starts from the uncompacted history: Claude Code's own summary is left out, every line put back.
    expect(result.history.recapsLeftOut).toBe(1);
    expect(result.history.lost).toEqual([]);
    const after = result.calls[first.callIndex]!.context;
    expect(after.filter((it) => it.kind === 'summary')).toHaveLength(1);
    expect(after.some((it) => it.meta?.reattached !== undefined)).toBe(true);
    // The recorded run is the session's own figures: the header's input and peak.
    expect(result.original.totalInputTokens).toBe(12_098_281);
    expect(result.original.peakTokens).toBe(164_831);
  });
});

describe('the Codex preset on a Codex rollout with a recorded compaction', () => {
  it('fires within one call of the recorded compaction with the limit the session ran under', async () => {
    // Codex does not write its auto-compact limit into the rollout: the user sets it, as in config.toml.
    const { policy, result } = await replay([fixture('codex-rollout.jsonl')], { autoCompactLimit: 9500 });
    expect(policy.strategy).toBe('codex-compact');
    const recorded = result.costs.original.events[0]!.call;
    expect(Math.abs(result.events[0]!.callIndex + 1 - recorded)).toBeLessThanOrEqual(1);
    // Initial context, the newest user messages, then the handoff summary: no assistant or tool item.
    const after = result.calls[result.events[0]!.callIndex]!.context;
    expect(after.at(-1)!.text).toMatch(/^Another language model started this task/);
    expect(after.filter((it) => it.role === 'assistant' || it.kind === 'tool_result' || it.kind === 'tool_call')).toEqual([]);
    // Codex checks after each response: the previous call's reported prompt plus its output (9,400 + 210).
    expect(policy.measureAt).toBe('last-response');
    expect(result.events[0]!.measuredBefore).toBe(9_610);
    expect(result.recordedMatch[0]).toMatchObject({ call: 4, verdict: 'within-one' });
  });

  it('never fires at the default limit, 90 % of the 272k window the tiny session stays far below', async () => {
    const { policy, result } = await replay([fixture('codex-rollout.jsonl')]);
    expect(policy.trigger).toEqual({ kind: 'tokens', threshold: 244_800 });
    expect(result.events).toEqual([]);
  });
});

describeSamples('the Codex preset on a real Codex rollout (no recorded compaction)', () => {
  // The rollout's own responses, read the obvious way and independently of the adapter: each new
  // `total_token_usage` is one response, its `last_token_usage` that response's prompt and output.
  function responses(): { input: number; output: number }[] {
    const text = new TextDecoder().decode(readSample('codex-rollout-cache.jsonl').bytes);
    const out: { input: number; output: number }[] = [];
    let total: number | null = null;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { type?: string; payload?: { type?: string; info?: { total_token_usage: { total_tokens: number }; last_token_usage: { input_tokens: number; output_tokens: number } } | null } };
      const info = rec.type === 'event_msg' && rec.payload?.type === 'token_count' ? rec.payload.info : null;
      if (!info || info.total_token_usage.total_tokens === total) continue;
      total = info.total_token_usage.total_tokens;
      out.push({ input: info.last_token_usage.input_tokens, output: info.last_token_usage.output_tokens });
    }
    return out;
  }

  it('never fires at the default limit, as Codex never did: the rollout peaks below 90 % of its window', async () => {
    const { policy, result } = await replay([readSample('codex-rollout-cache.jsonl')]);
    const r = responses();
    expect(result.calls).toHaveLength(r.length);
    expect(policy.trigger).toEqual({ kind: 'tokens', threshold: 232_560 });
    expect(Math.max(...r.map((x) => x.input))).toBeLessThan(232_560);
    expect(result.events).toEqual([]);
    expect(result.recordedMatch).toEqual([]);
  });

  it('with a limit inside the session, fires before the request after the first response whose reported prompt and output reach it', async () => {
    const limit = 90_000;
    const { policy, result } = await replay([readSample('codex-rollout-cache.jsonl')], { autoCompactLimit: limit });
    expect(policy.measureAt).toBe('last-response');
    const r = responses();
    const crossing = r.findIndex((x) => x.input + x.output >= limit);
    expect(crossing).toBeGreaterThan(0);
    // Codex checks once the response is back and compacts before the next request (0-based call crossing + 1).
    expect(result.events[0]!.callIndex).toBe(crossing + 1);
    // Up to there the replay sent what Codex sent: the trigger read the provider's figures, no estimate, no band.
    for (const c of result.calls.slice(1, crossing + 2)) {
      expect(c.measureSource).toBe('reported');
      expect(c.measuredBefore).toBe(r[c.index - 1]!.input + r[c.index - 1]!.output);
      expect(c.band).toBe(0);
    }
    expect(result.events[0]!.band).toBe(0);
  });
});
