// The one miss definition, on our fixtures (src/cache/__fixtures__, modelled on public files) and on the shared
// samples. Each fixture reproduces a defect of issue 31 as the files showed it; the figures below are what a careful
// reader gets from the file by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample } from '../test/shared-samples';
import { createTokenCounter, TokenMemo } from '../tokens';
import { missTokensOf } from './miss-cost';

const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url))) });
const counter = await createTokenCounter('o200k_base');

function analyzed(...names: string[]) {
  const memo = new TokenMemo();
  const session = loadFiles(names.map(fixture)).sessions[0]!;
  return analyzeSession(session, { count: (t) => memo.count(t, (x) => counter.count(x)).tokens });
}

/** Per call, prompt and read as the file reports them, read the obvious way (Claude Code records, Codex token_count). */
function reportedByHand(name: string): { prompt: number; read: number }[] {
  const lines = readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const out: { prompt: number; read: number }[] = [];
  for (const r of lines) {
    const u = r.message?.usage;
    if (r.type === 'assistant' && u) out.push({ prompt: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens, read: u.cache_read_input_tokens });
    const last = r.payload?.info?.last_token_usage;
    if (r.type === 'event_msg' && last) out.push({ prompt: last.input_tokens, read: last.cached_input_tokens });
  }
  return out;
}

describe('missTokensOf', () => {
  it('never charges more than the prompt less its read, nor more than was cached less the read', () => {
    expect(missTokensOf({ prompt: 33_960, read: 21_460, previousCacheable: 166_758 })).toEqual({ missTokens: 12_500, droppedTokens: 132_798 });
    expect(missTokensOf({ prompt: 50_000, read: 10_000, previousCacheable: 40_000 })).toEqual({ missTokens: 30_000, droppedTokens: 0 });
    expect(missTokensOf({ prompt: 31_093, read: 31_000, previousCacheable: 32_000 })).toEqual({ missTokens: 93, droppedTokens: 907 });
    expect(missTokensOf({ prompt: 1_000, read: 1_000, previousCacheable: 0 })).toEqual({ missTokens: 0, droppedTokens: 0 });
  });
});

describe('cache fixtures (issue 31)', () => {
  it.each(['claude-code-compaction-miss.jsonl', 'claude-code-thinking-dropped.jsonl', 'claude-code-resumed.jsonl', 'claude-code-mcp.jsonl', 'codex-partial-reads.jsonl'])('no call of %s misses more than its prompt less its read', (name) => {
    const a = analyzed(name);
    const byHand = reportedByHand(name);
    expect(a.cache).toHaveLength(byHand.length);
    a.cache.forEach((r, i) => {
      expect(r.reportedPrompt).toBe(byHand[i]!.prompt);
      expect(r.missTokens ?? 0).toBeLessThanOrEqual(byHand[i]!.prompt - byHand[i]!.read);
    });
  });

  it('charges what a compaction cost to the compaction, and never prices the cached prefix it dropped', () => {
    // marot/spotter 258c7280: the call after the auto-compaction sent 33,960 tokens, read 21,460 and wrote 12,497;
    // the call before left 166,758 cached. "145,298 processed again, $1.38" was the prefix it dropped.
    const a = analyzed('claude-code-compaction-miss.jsonl');
    const at = a.cache[3]!;
    expect(at).toMatchObject({ cause: 'compaction', cacheBreak: true, missCharge: 'compaction', missTokens: 12_500, droppedTokens: 132_798 });
    expect(a.facts.cache).toMatchObject({ breaks: 1, missTokens: 0, missCostUsd: null, compactionMiss: { calls: 1, tokens: 12_500, droppedTokens: 132_798 } });
    // Opus 4.6: written at $6.25 instead of read at $0.50 per million.
    expect(at.missCostUsd).toBeCloseTo((12_500 * (6.25 - 0.5)) / 1e6, 6);
    expect(a.compactions[0]!.cacheCost).toEqual({ missTokens: 12_500, missCostUsd: at.missCostUsd, droppedTokens: 132_798 });
  });

  it('calls thinking dropped at a new human turn no miss when the read covers the smaller prompt', () => {
    const a = analyzed('claude-code-thinking-dropped.jsonl');
    expect(a.cache[2]).toMatchObject({ reportedMiss: false, cacheBreak: false, cause: null, readNote: 'thinking-dropped', missTokens: 0, droppedTokens: 907 });
    expect(a.facts.cache!.breaks).toBe(0);
  });

  it('takes repeated timestamps as an unknown gap, and a new process as a restart', () => {
    const a = analyzed('claude-code-resumed.jsonl');
    expect(a.cache[2]).toMatchObject({ gapMs: null, gapUnknown: true, cause: 'gap-unknown', cacheBreak: true });
    expect(a.cache[4]).toMatchObject({ gapUnknown: false, cause: 'restart', cacheBreak: true });
    expect(a.cache[4]!.gapMs).toBeLessThan(a.cache[4]!.ttlMs);
  });

  it('names a changed tool list (`/mcp` between two calls) the cause, not a provider miss', () => {
    const a = analyzed('claude-code-mcp.jsonl');
    expect(a.cache[2]).toMatchObject({ cacheBreak: true, cause: 'tools-changed', reportedCacheRead: 0 });
  });

  it('names the tools change of an OpenHands SDK SystemPromptUpdateEvent (reason tools_changed) the cause', () => {
    const dir = new URL('../formats/__fixture-folders__/openhands-sdk-restored/4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d/', import.meta.url);
    const files = ['base_state.json', ...readdirSync(new URL('events/', dir)).map((f) => `events/${f}`)].map((f) => ({ name: `4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d/${f}`, bytes: new Uint8Array(readFileSync(new URL(f, dir))) }));
    const a = analyzeSession(loadFiles(files).sessions[0]!, { count: (t) => counter.count(t).tokens });
    // Call 3 is the first the new system prompt (with the file editor's tools) is sent in.
    expect(a.cache[2]).toMatchObject({ cacheBreak: true, cause: 'tools-changed', predictedCause: 'tools-changed' });
    expect(a.cache[2]!.missTokens).toBeLessThanOrEqual(a.cache[2]!.reportedPrompt! - a.cache[2]!.reportedCacheRead!);
    expect(a.cache.filter((r) => r.cause === 'tools-changed').map((r) => r.call)).toEqual([3]);
  });

  it('separates a Codex collapse (a break) from shortfalls (a cost, not a break), and calls a 92 % read after a long gap no expiry', () => {
    const a = analyzed('codex-partial-reads.jsonl');
    const shortfalls = a.cache.filter((r) => r.readNote === 'shortfall').map((r) => r.call);
    expect(shortfalls).toEqual([2, 3, 4, 6]);
    for (const r of a.cache.filter((x) => x.readNote === 'shortfall')) expect(r).toMatchObject({ cacheBreak: false, cause: null, missCharge: 'shortfall' });
    expect(a.cache[6]).toMatchObject({ cacheBreak: true, cause: 'provider-miss', missCharge: 'miss', missTokens: 66_578 - 46_464 });
    // Six minutes after the previous call, 67,584 of 72,242 read: a partial read is no expiry.
    expect(a.cache[8]!.gapMs).toBeGreaterThan(a.cache[8]!.ttlMs);
    expect(a.cache[8]).toMatchObject({ cacheBreak: true, cause: 'provider-miss' });
    expect(a.facts.cache).toMatchObject({ breaks: 2, byCause: { 'provider-miss': 2 }, shortfalls: { calls: 4, tokens: 809 + 1_117 + 1_130 + 1_032 } });
  });

  it('says a Claude model behind an OpenAI-compatible proxy with no cache_control was not cached, which is no miss', () => {
    const a = analyzed('request-log-claude-proxy.jsonl');
    expect(a.cache.slice(1).map((r) => [r.readNote, r.cacheBreak, r.missTokens, r.cause])).toEqual([
      ['no-breakpoint', false, 0, null],
      ['no-breakpoint', false, 0, null],
    ]);
    expect(a.facts.cache).toMatchObject({ breaks: 0, notCached: 2, missTokens: 0, missCostUsd: null });
  });
});

async function analyzedSample(...names: string[]) {
  const memo = new TokenMemo();
  const session = loadFiles(names.map(readSample)).sessions[0]!;
  return analyzeSession(session, { count: (t) => memo.count(t, (x) => counter.count(x)).tokens });
}

describeSamples('the miss definition on the shared samples', () => {
  it.each([[['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl']], [['codex-rollout-cache.jsonl']], [['claude-code-tool-heavy.jsonl']], [['claude-code-short.jsonl']]])(
    'no miss costs more than its prompt less its read, and every compaction\'s miss is the compaction\'s cost: %s',
    async (names) => {
      const a = await analyzedSample(...names);
      for (const r of a.cache) {
        if (r.reportedPrompt === null || r.reportedCacheRead === null) continue;
        expect(r.missTokens ?? 0).toBeLessThanOrEqual(r.reportedPrompt - r.reportedCacheRead);
      }
      for (const c of a.compactions.filter((x) => x.call !== null)) {
        const r = a.cache[c.call! - 1]!;
        if (r.cacheBreak) expect(r.missCharge).toBe('compaction');
        expect(c.cacheCost).not.toBeNull();
      }
    },
  );

  it('keeps the collapse at 21:03:30 a break with a cause, and the compaction at call 62 the compaction\'s cost', async () => {
    const a = await analyzedSample('claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl');
    const collapse = a.cache.find((r) => r.reportedCacheRead === 21_478 && a.contexts.calls[r.index]!.timestamp?.startsWith('2026-02-12T21:03:30'))!;
    expect(collapse).toMatchObject({ cacheBreak: true, missCharge: 'miss' });
    expect(collapse.cause).not.toBeNull();
    const compacted = a.cache[61]!;
    expect(compacted).toMatchObject({ cause: 'compaction', missCharge: 'compaction', reportedCacheRead: 21_478, missTokens: 36_081 - 21_478 });
    expect(a.facts.cache!.compactionMiss.tokens).toBe(36_081 - 21_478);
  });
});
