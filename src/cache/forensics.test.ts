import { describe, expect, it } from 'vitest';
import { calibrate } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import { countedPerCall } from '../analysis/counted-tokens';
import { cacheSummary } from './forensics';
import { analyzeCachePrefix } from './prefix';
import { asst, call, calls, countWords, summary, sys, toolCall, toolResult, user, usage } from './test-builders';

/** The engine's own path: counted tokens → calibration → cache verdicts. */
function analyze(cs: CallContext[]) {
  const calibration = calibrate(cs, countedPerCall({ calls: cs, timeline: null }, countWords));
  return analyzeCachePrefix(cs, { count: countWords, calibration });
}

const at = (min: number, sec = 0) => new Date(Date.UTC(2026, 1, 12, 21, min, sec)).toISOString();
const U1 = 'Fix the flaky login test in auth/session.test.ts.';
const A1 = 'Reading auth/session.test.ts now.';
const U2 = 'Also check the retry helper.';

/** Claude Code shapes: the system prompt and tools are not in the file (prefixUnrecorded), usage splits writes by TTL. */
function claudeCode(extra: Partial<CallContext>) {
  return { model: 'claude-opus-4-6', prefixUnrecorded: true, ...extra };
}

describe('applyReported (cause from the evidence)', () => {
  it('reads the 1-hour TTL from usage and calls a long gap a hit when the provider reported one', () => {
    const [, hit] = analyze(
      calls(
        call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 20_000, cacheWrite: 5_000, cacheWrite5m: 0, cacheWrite1h: 5_000 }) })),
        call([user('u1', U1), asst('a1', A1), user('u2', U2)], claudeCode({ timestamp: at(9), usage: usage({ input: 3, cacheRead: 25_000, cacheWrite: 400 }) })),
      ),
    );
    expect(hit).toMatchObject({ ttlMs: 3_600_000, ttlSource: 'usage', ttlExpired: false, reportedMiss: false, cacheBreak: false, cause: null, missTokens: 0 });
  });

  it('calls a 9-minute gap after 5-minute writes `ttl` only when the provider reported the miss', () => {
    const first = call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 20_000, cacheWrite: 5_000, cacheWrite5m: 5_000, cacheWrite1h: 0 }) }));
    const next = (read: number, write: number) => call([user('u1', U1), asst('a1', A1), user('u2', U2)], claudeCode({ timestamp: at(9), usage: usage({ input: 3, cacheRead: read, cacheWrite: write }) }));
    const [, missed] = analyze(calls(first, next(0, 25_400)));
    expect(missed).toMatchObject({ ttlMs: 300_000, ttlSource: 'usage', reportedMiss: true, predictedBreak: true, cacheBreak: true, cause: 'ttl', missKind: 'full', missTokens: 25_000 });
    // Opus 4.6: re-written at the 5-minute price ($6.25) instead of read ($0.50) per million.
    expect(missed!.missCostUsd).toBeCloseTo((25_000 * (6.25 - 0.5)) / 1e6, 6);
    // The same gap with a reported hit: the provider still had it, so no ttl verdict.
    const [, held] = analyze(calls(first, next(25_000, 400)));
    expect(held).toMatchObject({ ttlExpired: true, reportedMiss: false, cacheBreak: false, cause: null });
  });

  it('names the unrecorded prefix when the conversation is unchanged and the provider re-read only about that much', () => {
    const cs = calls(
      call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 0, cacheWrite: 20_006 }) })),
      call([user('u1', U1), asst('a1', A1)], claudeCode({ timestamp: at(0, 5), usage: usage({ input: 3, cacheRead: 20_009, cacheWrite: 5 }) })),
      call([user('u1', U1), asst('a1', A1), user('u2', U2)], claudeCode({ timestamp: at(0, 10), usage: usage({ input: 3, cacheRead: 19_500, cacheWrite: 525 }) })),
    );
    const [, ok, collapsed] = analyze(cs);
    expect(ok).toMatchObject({ reportedMiss: false, cacheBreak: false });
    expect(collapsed).toMatchObject({ predictedBreak: false, reportedMiss: true, cacheBreak: true, cause: 'unrecorded-prefix', missKind: 'partial', reportedCacheRead: 19_500, previousCacheable: 20_014 });
    expect(collapsed!.unseenPrefixTokens).toBeGreaterThan(19_000);
    // 19,500 read of a ~20,000 fitted prefix is within the estimate's margin: not claimed as part of it left unread.
    expect(ok!.unrecordedNotRead).toBeNull();
    expect(collapsed!.unrecordedNotRead).toBeNull();
  });

  it('calls a read of only the unrecorded prefix past the lifetime `ttl`: other sessions keep that prefix warm', () => {
    // Modelled on aistrad/work (Claude Code 2.1.2, Opus 4.5): 5m15s after 5-minute writes the provider read 21,662
    // tokens, the system prompt and tools every session of the harness sends, and wrote the conversation anew.
    const cs = (gapMin: number) =>
      calls(
        call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 0, cacheWrite: 20_006, cacheWrite5m: 20_006, cacheWrite1h: 0 }) })),
        call([user('u1', U1), asst('a1', A1)], claudeCode({ timestamp: at(0, 5), usage: usage({ input: 3, cacheRead: 20_009, cacheWrite: 5 }) })),
        call([user('u1', U1), asst('a1', A1), user('u2', U2)], claudeCode({ timestamp: at(gapMin, 10), usage: usage({ input: 3, cacheRead: 19_500, cacheWrite: 525 }) })),
      );
    expect(analyze(cs(9))[2]).toMatchObject({ ttlExpired: true, reportedMiss: true, cacheBreak: true, cause: 'ttl' });
    // The same read within the lifetime: what changed sits just after the prefix.
    expect(analyze(cs(0))[2]).toMatchObject({ ttlExpired: false, cacheBreak: true, cause: 'unrecorded-prefix' });
  });

  it('names content removed unrecorded when the prompt fell by a quarter with the file keeping every item, within the lifetime', () => {
    // Modelled on aistrad/work call 73 (Claude Code 2.1.2): 158,292 prompt tokens, then 87,920 six seconds later with
    // a read of 24,695 just past the summary, no compaction recorded: microcompact cleared old tool results.
    const cs = (gapMin: number) =>
      calls(
        call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 20_000, cacheWrite: 40_000, cacheWrite5m: 40_000, cacheWrite1h: 0 }) })),
        call([user('u1', U1), asst('a1', A1)], claudeCode({ timestamp: at(0, 5), usage: usage({ input: 3, cacheRead: 60_003, cacheWrite: 100 }) })),
        call([user('u1', U1), asst('a1', A1), toolCall('c1', 'Read', '{"file_path":"auth/session.test.ts"}', 'k1'), toolResult('r1', 'Read', 'test body', 'k1')], claudeCode({ timestamp: at(gapMin, 10), usage: usage({ input: 3, cacheRead: 24_000, cacheWrite: 6_000 }) })),
      );
    const removed = analyze(cs(0))[2]!;
    expect(removed).toMatchObject({ reportedMiss: true, cacheBreak: true, cause: 'unrecorded-removal', missCharge: 'miss' });
    // Past the lifetime the expiry explains the miss.
    expect(analyze(cs(9))[2]).toMatchObject({ cacheBreak: true, cause: 'ttl' });
  });

  it('names content sent again when the prompt rose back by what an unrecorded removal had taken out', () => {
    // Modelled on ravencloak-org/Raven (Claude Code, Opus 4.6), calls 425-429: 238,067 tokens, then 164,687 after an 82-minute gap
    // (microcompact cleared old tool results), then 242,102 sixteen seconds after 165,236 with a read of 11,752 (the
    // system prompt and tools) and four new items: the cleared results were sent again.
    const LOG = 'line of the build log '.repeat(6_000);
    const head = [user('u1', U1), asst('a1', A1), toolCall('c1', 'Bash', '{"command":"npm run build"}', 'k1'), toolResult('r1', 'Bash', LOG, 'k1')];
    const cs = calls(
      call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 0, cacheWrite: 12_000, cacheWrite5m: 12_000, cacheWrite1h: 0 }) })),
      call(head, claudeCode({ timestamp: at(0, 10), usage: usage({ input: 3, cacheRead: 12_000, cacheWrite: 36_000 }) })),
      call([...head, asst('a2', 'Built.'), user('u2', U2)], claudeCode({ timestamp: at(0, 20), usage: usage({ input: 3, cacheRead: 48_003, cacheWrite: 40 }) })),
      call([...head, asst('a2', 'Built.'), user('u2', U2), asst('a3', 'Checking.')], claudeCode({ timestamp: at(1, 0), usage: usage({ input: 3, cacheRead: 12_000, cacheWrite: 400 }) })),
      call([...head, asst('a2', 'Built.'), user('u2', U2), asst('a3', 'Checking.'), user('u3', 'Go on.')], claudeCode({ timestamp: at(1, 10), usage: usage({ input: 3, cacheRead: 12_403, cacheWrite: 20 }) })),
      call([...head, asst('a2', 'Built.'), user('u2', U2), asst('a3', 'Checking.'), user('u3', 'Go on.'), asst('a4', 'Done.')], claudeCode({ timestamp: at(1, 20), usage: usage({ input: 3, cacheRead: 12_000, cacheWrite: 36_500 }) })),
    );
    const r = analyze(cs);
    expect(r[3]).toMatchObject({ cacheBreak: true, cause: 'unrecorded-removal' });
    expect(r[4]).toMatchObject({ cacheBreak: false });
    expect(r[5]).toMatchObject({ reportedMiss: true, cacheBreak: true, cause: 'unrecorded-return', missCharge: 'miss' });
  });

  it('says how much of the unrecorded prefix a compaction call did not read, as in a public Claude Code session', () => {
    // Modelled on a real session: after /compact the provider read 21,478 tokens of a ~31,400-token system prompt and
    // tools, and wrote the rest again with the summary (read + write + input = the reported prompt).
    const SUMMARY = 'Summary of the session so far: the flaky login test in auth/session.test.ts was fixed.';
    const cs = calls(
      call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 0, cacheWrite: 31_450 }) })),
      call([user('u1', U1), asst('a1', A1)], claudeCode({ timestamp: at(0, 5), usage: usage({ input: 3, cacheRead: 31_453, cacheWrite: 6 }) })),
      call([summary('s1', SUMMARY)], claudeCode({ timestamp: at(1), compactionId: 'k1', usage: usage({ input: 3, cacheRead: 21_478, cacheWrite: 9_990 }) })),
      call([summary('s1', SUMMARY), user('u2', U2)], claudeCode({ timestamp: at(1, 5), usage: usage({ input: 3, cacheRead: 31_471, cacheWrite: 6 }) })),
    );
    const [first, second, compacted, after] = analyze(cs);
    expect(first!.unrecordedNotRead).toBeNull();
    expect(second!.unrecordedNotRead).toBeNull();
    expect(compacted).toMatchObject({ cause: 'compaction', reportedCacheRead: 21_478 });
    const prefix = compacted!.unseenPrefixTokens!;
    expect(prefix).toBeGreaterThan(31_000);
    expect(compacted!.unrecordedNotRead).toBe(prefix - 21_478);
    // The next call reads the whole prefix again.
    expect(after!.unrecordedNotRead).toBeNull();
  });

  it('calls an OpenAI shortfall with the prompt unchanged a best-effort provider miss, partial, priced as uncached input', () => {
    const big = sys('s0', Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' '));
    const codex = (u: Partial<Parameters<typeof usage>[0]>, t: string, items = [big, user('u1', U1)]) => call(items, { model: 'gpt-5.3-codex', api: 'openai-responses', timestamp: t, usage: usage(u) });
    const [, , miss] = analyze(
      calls(
        codex({ input: 50_000, cacheRead: 0 }, at(0)),
        codex({ input: 50_100, cacheRead: 49_920 }, at(0, 20), [big, user('u1', U1), asst('a1', A1)]),
        codex({ input: 50_200, cacheRead: 17_024 }, at(0, 40), [big, user('u1', U1), asst('a1', A1), user('u2', U2)]),
      ),
    );
    expect(miss).toMatchObject({ rule: 'openai', predictedBreak: false, reportedMiss: true, cacheBreak: true, cause: 'provider-miss', missKind: 'partial', missTokens: 50_100 - 17_024 });
    // GPT-5.3 Codex: $1.75 input against $0.175 cached per million.
    expect(miss!.missCostUsd).toBeCloseTo(((50_100 - 17_024) * (1.75 - 0.175)) / 1e6, 6);
  });

  it('calls a miss after a prompt below the provider minimum `below-minimum`, and a model switch `model-changed`', () => {
    const small = (u: Partial<Parameters<typeof usage>[0]>, model = 'gpt-5.3-codex') => call([user('u1', U1)], { model, api: 'openai-chat', timestamp: at(0), usage: usage(u) });
    const [, below] = analyze(calls(small({ input: 900, cacheRead: 0 }), small({ input: 950, cacheRead: 0 })));
    expect(below).toMatchObject({ reportedMiss: true, cause: 'below-minimum' });
    const claude = (model: string, read: number) => call([user('u1', U1)], claudeCode({ model, timestamp: at(0), usage: usage({ input: 3, cacheRead: read, cacheWrite: 20_000 - read }) }));
    const [, switched] = analyze(calls(claude('claude-opus-4-6', 0), claude('claude-sonnet-4-5', 0)));
    expect(switched).toMatchObject({ modelChanged: true, reportedMiss: true, cacheBreak: true, cause: 'model-changed' });
  });

  it('keeps the prediction when no cache figures were reported', () => {
    const [, r] = analyze(calls(call([user('u1', U1)], { timestamp: at(0) }), call([user('u1', U1), asst('a1', A1)], { timestamp: at(7) })));
    expect(r).toMatchObject({ reportedMiss: null, predictedBreak: true, cacheBreak: true, cause: 'ttl', missCostUsd: null });
  });
});

describe('cacheSummary', () => {
  it('sums the reported hit rate, breaks by cause, agreement between the two sides and dollars lost', () => {
    const first = call([user('u1', U1)], claudeCode({ timestamp: at(0), usage: usage({ input: 3, cacheRead: 20_000, cacheWrite: 5_000, cacheWrite5m: 5_000 }) }));
    const missed = call([user('u1', U1), asst('a1', A1), user('u2', U2)], claudeCode({ timestamp: at(9), usage: usage({ input: 3, cacheRead: 0, cacheWrite: 25_400 }) }));
    const cs = calls(first, missed);
    const reports = analyze(cs);
    const s = cacheSummary(reports, cs);
    expect(s.hitRate).toBeCloseTo(20_000 / (25_003 + 25_403), 6);
    expect(s).toMatchObject({ breaks: 1, reportedMisses: 1, predictedBreaks: 1, agreement: { compared: 1, agree: 1 }, byCause: { ttl: 1 }, missTokens: 25_000 });
    expect(s.missCostUsd).toBeCloseTo(reports[1]!.missCostUsd!, 9);
  });
});
