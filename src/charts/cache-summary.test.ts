import { describe, expect, it } from 'vitest';
import { analyzeCachePrefix, type CacheReport } from '../cache';
import { asst, call, calls, countWords, marker, summary, sys, user, usage } from '../cache/test-builders';
import { cacheBreaks, cacheHeadline, causeSentence, disagreementSentence, formatDuration, formatUsd, predictedVsReported, prefixBar } from './cache-summary';

// The course unit's payments agent (reference 001): turns, then a compaction that puts a recap
// where the middle turns were, then a five-minute-plus pause before the next call.
const SYS = 'You are a coding agent for the payments team.';
const U1 = 'The nightly job fails. Check the database config.';
const RECAP = '## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512';
const t = (min: number) => new Date(Date.UTC(2025, 2, 14, 9, min)).toISOString();

const reports = analyzeCachePrefix(
  calls(
    call([sys('m0', SYS), user('m1', U1)], { timestamp: t(0), usage: usage({ input: 19, cacheRead: 0 }) }),
    call([sys('m0', SYS), user('m1', U1), asst('m2', 'Reading config/db.yaml now.'), user('m3', 'Which host?')], { timestamp: t(1), usage: usage({ input: 30, cacheRead: 16 }) }),
    call([sys('m0', SYS), user('m1', U1), summary('s1', RECAP), user('m4', 'And the ticket?')], { timestamp: t(2), compactionId: 'c1', usage: usage({ input: 30, cacheRead: 0 }) }),
    call([sys('m0', SYS), user('m1', U1), summary('s1', RECAP), user('m4', 'And the ticket?'), asst('m5', 'FRE-512.')], { timestamp: t(9) }),
    call([sys('m0', SYS), user('m1', U1), marker('x1'), user('m6', 'Thanks')], { timestamp: t(10) }),
  ),
  { count: countWords, rule: 'exact' },
);
const [first, held, broke, expired, dropped] = reports as [CacheReport, CacheReport, CacheReport, CacheReport, CacheReport];

describe('cacheHeadline', () => {
  it('says the first call has nothing to reuse', () => {
    expect(cacheHeadline(first)).toEqual({ tone: 'first', text: 'First call: there is no earlier prompt to reuse.' });
  });

  it('says how much of the prompt a held cache reuses', () => {
    // Words plus one per role header: system 10 + user 9 shared; the new turns add 4 + 3.
    expect(held).toMatchObject({ prefixTokens: 19, contextTokens: 26, cacheBreak: false, reportedMiss: false });
    // The provider's figure leads where there is one; the prediction speaks only without it.
    expect(cacheHeadline(held)).toEqual({ tone: 'held', text: 'Cache held: the provider read 16 tokens' });
    expect(cacheHeadline({ ...held, reportedMiss: null })).toEqual({ tone: 'held', text: 'Cache held: 19 of 26 tokens reused (predicted; no reported cache figures)' });
  });

  it('names the item and the cause of a break, with the label the panel gives the item', () => {
    expect(broke).toMatchObject({ cacheBreak: true, cause: 'compaction' });
    expect(cacheHeadline(broke)).toEqual({ tone: 'broke', text: 'Cache broke at item s1: compaction' });
    expect(cacheHeadline(broke, 'item 3 (summary s1)').text).toBe('Cache broke at item 3 (summary s1): compaction');
  });

  it('says the cache expired after a gap beyond the TTL although the prefix matched', () => {
    expect(expired).toMatchObject({ cacheBreak: true, ttlExpired: true, cause: 'ttl', gapMs: 7 * 60_000 });
    expect(cacheHeadline(expired)).toEqual({ tone: 'expired', text: 'Cache expired: 7 min gap, beyond the 5 min TTL' });
  });
});

describe('a compaction the provider shows was no miss', () => {
  // Claude Code's microcompact clears an old tool result near the end: the content analysis sees the prompt change
  // there, but the provider read everything the compaction kept (370 of the 400 tokens left cached).
  const LOG = Array.from({ length: 120 }, (_, i) => `line${i}`).join(' ');
  const head = [sys('m0', SYS), user('m1', U1), asst('m2', 'Reading the log.')];
  const [, after] = analyzeCachePrefix(
    calls(
      call([...head, user('m3', LOG)], { api: 'anthropic', model: 'claude-sonnet-4-5', timestamp: t(0), usage: usage({ input: 5, cacheRead: 100, cacheWrite: 300 }) }),
      call([...head, marker('x1', '[Old tool result content cleared]'), user('m4', 'Go on.')], { api: 'anthropic', model: 'claude-sonnet-4-5', timestamp: t(1), compactionId: 'c1', usage: usage({ input: 5, cacheRead: 370, cacheWrite: 5 }) }),
    ),
    { count: countWords, rule: 'exact' },
  ) as [CacheReport, CacheReport];

  it("is no break and costs nothing: the headline says the cache held, and why the prediction's compaction did not count", () => {
    // The prediction names the compaction and loses more than the provider's granularity; the figures decide.
    expect(after.lostTokens).toBeGreaterThan(64 + 4);
    expect(after).toMatchObject({ predictedCause: 'compaction', predictedBreak: true, reportedMiss: false, cacheBreak: false, cause: null, missTokens: 0, missCharge: null, droppedTokens: 20 });
    expect(cacheHeadline(after)).toEqual({ tone: 'held', text: 'Compaction, no miss: the provider read 370 tokens, all the compaction kept; 20 cached tokens dropped' });
    expect(disagreementSentence(after)).toBe(
      'A compaction changed the prompt at the divergence below, but the provider read 370 tokens, everything before it (within its rounding): the compaction cost no cache miss, and the cached tokens it dropped were never processed again.',
    );
    // A compaction whose change the figures are too coarse to see stays a break, charged to the compaction: neither
    // the held headline nor the no-miss sentence.
    expect(broke).toMatchObject({ predictedCause: 'compaction', reportedMiss: false, cacheBreak: true, missCharge: 'compaction' });
    expect(cacheHeadline(broke).tone).toBe('broke');
    expect(disagreementSentence(broke)).not.toMatch(/cost no cache miss/);
  });
});

describe('causeSentence', () => {
  it('explains each cause in one sentence, with the gap and TTL for an expiry', () => {
    expect(causeSentence(held)).toBeNull();
    expect(causeSentence(broke)).toBe(
      "A compaction replaced earlier items with a summary or marker, so everything from that point on was sent anew. The 30 tokens processed again are the compaction's cost, not a miss; the 16 cached tokens it dropped were never processed again.",
    );
    expect(causeSentence(expired)).toBe('7 min passed since the previous call, more than the 5 min cache lifetime, so the cache had expired although the prefix matched.');
    // What an expired cache still served is the start other requests share.
    expect(causeSentence({ ...expired, reportedCacheRead: 21_662 })).toMatch(/cache had expired although the prefix matched\. The 21,662 tokens still read are the start other requests share/);
    // Content sent again says how far the prompt rose over what was cached, and what the provider still read.
    expect(causeSentence({ cause: 'unrecorded-return', gapMs: 16_000, ttlMs: 3_600_000, ttlSource: 'usage', reportedCacheRead: 11_752, previousCacheable: 165_236, reportedPrompt: 242_102, missKind: 'partial', rule: 'anthropic' })).toMatch(
      /^The provider counted 76,866 more prompt tokens than the previous call left cached, far more than this call adds: .* was sent again, .* The provider read 11,752 of the 165,236 tokens the previous call left cached\.$/,
    );
    for (const cause of ['recap-regenerated', 'edited', 'masked', 'model-changed', 'unknown'] as const) {
      const s = causeSentence({ cause, gapMs: null, ttlMs: 300_000, ttlSource: 'default', reportedCacheRead: null, previousCacheable: null, missKind: null, rule: 'exact' })!;
      expect(s.endsWith('.')).toBe(true);
      expect(s.split('. ')).toHaveLength(1);
    }
  });
});

describe('prefixBar', () => {
  it('splits the previous prompt into reused and lost, this prompt into reused and new', () => {
    // 19 head tokens plus the shared start of the `assistant:` header; the recap and the new question follow.
    expect(broke).toMatchObject({ prefixTokens: 20, lostTokens: 6, contextTokens: 31 });
    expect(prefixBar(broke)).toEqual({ reused: 20, lost: 6, added: 11, scale: 31 });
    expect(prefixBar(first)).toEqual({ reused: 0, lost: 0, added: first.contextTokens, scale: first.contextTokens });
  });
});

describe('predictedVsReported', () => {
  it('gives the difference when usage reports cached tokens, and none when it does not', () => {
    expect(predictedVsReported(held)).toEqual({ predicted: 19, reported: 16, difference: 3 });
    expect(predictedVsReported(expired)).toEqual({ predicted: 0, reported: null, difference: null });
  });
});

describe('cacheBreaks', () => {
  it('lists every break with its cause, the tokens processed again and whether each side saw it', () => {
    // The marker takes the place of recap, question and answer: 33 tokens of the previous prompt, 20 of them shared.
    expect(dropped).toMatchObject({ cacheBreak: true, cause: 'compaction', lostTokens: 13 });
    expect(cacheBreaks(reports).map((b) => [b.index, b.cause, b.reported, b.predicted, b.itemId])).toEqual([
      [2, 'compaction', false, true, 's1'],
      [3, 'ttl', false, true, null],
      [4, 'compaction', false, true, 'x1'],
    ]);
    // The previous call left 46 tokens cached and this prompt of 30 read 0: below the granularity, so only the
    // prediction calls it a break, and the tokens come from the reported figures all the same — never more than the
    // prompt less its read (30), and charged to the compaction, not to misses.
    expect(cacheBreaks(reports)[0]).toMatchObject({ missTokens: 30, charge: 'compaction' });
    expect(broke).toMatchObject({ droppedTokens: 16, missCharge: 'compaction' });
  });
});

describe('formatUsd', () => {
  it('writes cents, and less than a cent as such', () => {
    expect([0.004, 0.42, 12.3].map(formatUsd)).toEqual(['<$0.01', '$0.42', '$12.30']);
  });
});

describe('formatDuration', () => {
  it('reads seconds, minutes and hours', () => {
    expect([45_000, 300_000, 380_000, 3_600_000, 7_500_000].map(formatDuration)).toEqual(['45 s', '5 min', '6 min 20 s', '1 h', '2 h 5 min']);
  });
});
