import { describe, expect, it } from 'vitest';
import { calibrate, unrecordedPrefix } from '../analysis/calibration';
import { countedPerCall } from '../analysis/counted-tokens';
import { analyzeCachePrefix } from './prefix';
import { asst, call, calls, countWords, marker, summary, sys, toolCall, toolResult, user, usage } from './test-builders';

// Texts from the course unit "Summarizing Evicted Turns" (reference 001): a payments agent whose
// middle turns are replaced by either the static marker or a `## Conversation Summary` recap.
const SYS = 'You are a coding agent for the payments team.';
const U1 = 'The nightly job fails. Check the database config.';
const Q1 = 'Which host and port again?';
const RECAP_V1 =
  '## Conversation Summary\n- **Decisions:** inspect config first\n- **Entities:** db-prod-1:5432, FRE-512\n- **Facts:** job fails nightly\n- **Open Items:** fix the pool size';
const RECAP_V2 =
  '## Conversation Summary\n- **Decisions:** inspect config first, raise the pool size\n- **Entities:** db-prod-1:5432, FRE-512\n- **Facts:** job fails nightly\n- **Open Items:** deploy the fix';

const count = countWords;
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

/** Turn N and turn N+1 with `middle(n)` standing in for the evicted turns. */
function nextTurn(middle: (turn: number) => ReturnType<typeof marker>) {
  return calls(
    call([sys('m0', SYS), user('m1', U1), middle(0), user('m3', Q1)]),
    call([sys('m0', SYS), user('m1', U1), middle(1), user('m3', Q1), asst('m4', 'db-prod-1, port 5432.'), user('m5', 'And the ticket?')]),
  );
}

describe('analyzeCachePrefix', () => {
  it('reports the first call with no prefix, no break and its counted context', () => {
    const [r] = analyzeCachePrefix(calls(call([sys('m0', SYS), user('m1', U1)])), { count });
    // "system:message" + 9 words, "user:message" + 8 words.
    expect(r).toMatchObject({ index: 0, callId: 'c0', rule: 'exact', prefixTokens: 0, cachedPredicted: 0, contextTokens: 19, previousContextTokens: null, lostTokens: 0, cacheBreak: false, cause: null, divergence: null, unseenPrefixTokens: 0 });
  });

  it('keeps the whole previous prompt under the static marker and only the head under a regenerated recap (course example)', () => {
    const [, held] = analyzeCachePrefix(nextTurn(() => marker('m2')), { count });
    const [, broken] = analyzeCachePrefix(nextTurn((t) => summary('m2', t === 0 ? RECAP_V1 : RECAP_V2)), { count });

    // Static marker: all of turn N (10 + 9 + 4 + 6 tokens) is reused on turn N+1.
    expect(held).toMatchObject({ prefixTokens: 29, previousContextTokens: 29, lostTokens: 0, cacheBreak: false, cause: null, divergence: null, sharedItems: 4 });

    // Regenerated recap: the head (10 + 9) plus the recap's unchanged start ("assistant:summary ## Conversation
    // Summary - **Decisions:** inspect config first" = 9 words) is reused; the other 22 of turn N's 50 are re-prefilled.
    expect(broken).toMatchObject({ prefixTokens: 28, previousContextTokens: 50, lostTokens: 22, cacheBreak: true, cause: 'recap-regenerated', sharedItems: 2 });
    expect(broken!.divergence).toEqual({
      itemId: 'm2',
      previousItemId: 'm2',
      itemIndex: 2,
      offset: 61,
      headerChanged: false,
      before: '…ry\n- **Decisions:** inspect config first',
      removed: '\n- **Entities:** db-prod-1:5432, FRE-512\n- **Facts:** job fails nightly\n- **Open…',
      added: ', raise the pool size\n- **Entities:** db-prod-1:5432, FRE-512\n- **Facts:** job f…',
    });
  });

  it('reports the item, offset and a short diff of an earlier item that was edited', () => {
    const [, r] = analyzeCachePrefix(
      calls(
        call([sys('m0', SYS), user('m1', U1), asst('m2', 'Reading it.')]),
        call([sys('m0', SYS), user('m1', 'The nightly job fails. Check the cache config.'), asst('m2', 'Reading it.'), user('m3', 'ok')]),
      ),
      { count },
    );
    expect(r).toMatchObject({ cacheBreak: true, cause: 'edited', sharedItems: 1 });
    expect(r!.divergence).toEqual({ itemId: 'm1', previousItemId: 'm1', itemIndex: 1, offset: 33, headerChanged: false, before: 'The nightly job fails. Check the ', removed: 'databas', added: 'cach' });
    // System (10) + "user:message The nightly job fails. Check the" (7).
    expect(r!.prefixTokens).toBe(17);
  });

  it('blames a tool result cleared to a placeholder', () => {
    const read = toolCall('m2', 'read_file', '{"path":"config/db.yaml"}', 'call_1');
    const [, r] = analyzeCachePrefix(
      calls(
        call([sys('m0', SYS), user('m1', U1), read, toolResult('m3', 'read_file', 'host: db-prod-1\nport: 5432', 'call_1'), asst('m4', 'Found it.')]),
        call([sys('m0', SYS), user('m1', U1), read, toolResult('m3', 'read_file', '[Old tool result content cleared]', 'call_1'), asst('m4', 'Found it.'), user('m5', 'next')]),
      ),
      { count },
    );
    expect(r).toMatchObject({ cacheBreak: true, cause: 'masked' });
    expect(r!.divergence).toMatchObject({ itemId: 'm3', itemIndex: 3, offset: 0, removed: 'host: db-prod-1\nport: 5432', added: '[Old tool result content cleared]' });
  });

  it('blames a tool result that carries an omission, whatever its text', () => {
    const omitted = toolResult('m3', 'ls', 'see above', 'c1', { omission: { target: 'tool_result', refs: ['m3'] } });
    const [, r] = analyzeCachePrefix(
      calls(call([user('m1', 'list'), toolCall('m2', 'ls', '{}', 'c1'), toolResult('m3', 'ls', 'a b c', 'c1')]), call([user('m1', 'list'), toolCall('m2', 'ls', '{}', 'c1'), omitted, user('m4', 'go')])),
      { count },
    );
    expect(r!.cause).toBe('masked');
  });

  it('blames a compaction when a summary replaces earlier turns', () => {
    const before = call([sys('m0', SYS), user('m1', U1), asst('m2', 'Reading.'), user('m3', Q1), asst('m4', 'db-prod-1')]);
    const after = [sys('m0', SYS), summary('s1', RECAP_V1), user('m5', 'And the ticket?')];
    const [, recorded] = analyzeCachePrefix(calls(before, call(after, { compactionId: 'k1' })), { count });
    const [, inferred] = analyzeCachePrefix(calls(before, call(after)), { count });
    expect(recorded).toMatchObject({ cacheBreak: true, cause: 'compaction', sharedItems: 1, prefixTokens: 10 });
    expect(recorded!.divergence).toMatchObject({ itemId: 's1', previousItemId: 'm1', itemIndex: 1, offset: 0, headerChanged: true });
    expect(inferred!.cause).toBe('compaction');
  });

  it('blames a compaction when the static marker replaces turns or turns are dropped', () => {
    const before = call([sys('m0', SYS), user('m1', U1), asst('m2', 'Reading.'), user('m3', Q1)]);
    const [, marked] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), marker('x'), user('m3', Q1), asst('m4', 'ok')])), { count });
    const [, dropped] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), user('m3', Q1), asst('m4', 'ok')])), { count });
    expect(marked!.cause).toBe('compaction');
    expect(dropped!.cause).toBe('compaction');
  });

  it('calls a rewritten recap a compaction whenever a compaction is recorded for the call, turns after it kept or not', () => {
    // Claude Code 2.1.92 (LAF-US/IDAHO-VAULT): back-to-back /compact re-sends the same items after each new summary;
    // the recorded compaction owns the miss, as every compaction does, not a 'regenerated recap' counted as a miss.
    const before = call([sys('m0', SYS), summary('s1', RECAP_V1), user('m2', Q1), asst('m3', 'db-prod-1')]);
    const [, kept] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), summary('s2', RECAP_V2), user('m2', Q1), asst('m3', 'db-prod-1'), user('m4', 'x')], { compactionId: 'k2' })), { count });
    const [, taken] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), summary('s2', RECAP_V2), user('m4', 'x')], { compactionId: 'k2' })), { count });
    const [, unrecorded] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), summary('s2', RECAP_V2), user('m2', Q1), asst('m3', 'db-prod-1'), user('m4', 'x')])), { count });
    expect(kept!.cause).toBe('compaction');
    expect(taken!.cause).toBe('compaction');
    expect(unrecorded!.cause).toBe('recap-regenerated');
    // One inferred only from the recap's new id (a request log's rolling summary) is no record: the rewrite decides.
    const [, inferred] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), summary('s2', RECAP_V2), user('m2', Q1), asst('m3', 'db-prod-1'), user('m4', 'x')], { compactionId: 'inferred-1' })), { count });
    expect(inferred!.cause).toBe('recap-regenerated');
  });

  it('calls it a compaction when the item beside the old recap stays but the turns after it are gone', () => {
    // Claude Code 2.1.78 (paretoimproved/local-roots): a second compaction keeps the `/effort` echo written beside
    // the first summary and drops the 150 items after it.
    const before = call([sys('m0', SYS), summary('s1', RECAP_V1), user('e1', '/effort'), asst('m3', 'db-prod-1'), user('m4', Q1)]);
    const [, r] = analyzeCachePrefix(calls(before, call([sys('m0', SYS), summary('s2', RECAP_V2), user('e1', '/effort')], { compactionId: 'k2' })), { count });
    expect(r!.cause).toBe('compaction');
  });

  it('reports changed tool schemas as a tool-list change at item index -1', () => {
    const [, r] = analyzeCachePrefix(
      calls(call([user('m1', U1)], { tools: '[{"name":"read_file"}]' }), call([user('m1', U1), asst('m2', 'ok')], { tools: '[{"name":"read_file"},{"name":"write_file"}]' })),
      { count },
    );
    expect(r).toMatchObject({ cacheBreak: true, cause: 'tools-changed', sharedItems: 0 });
    expect(r!.divergence).toMatchObject({ itemId: '@tools', itemIndex: -1, offset: 21, removed: '', added: ',{"name":"write_file"}' });
  });

  it('names a tools change where a new system prompt that carries other tools takes the old one\'s place', () => {
    // OpenHands SDK: a SystemPromptUpdateEvent (reason tools_changed) replaces the system message from then on.
    const before = call([sys('m0', SYS), user('m1', U1), asst('m2', 'Reading.')]);
    const after = (meta: Record<string, boolean>) => call([sys('m9', `${SYS} You may also browse.`, { meta }), user('m1', U1), asst('m2', 'Reading.'), user('m3', Q1)]);
    const [, changed] = analyzeCachePrefix(calls(before, after({ toolsChanged: true })), { count });
    expect(changed).toMatchObject({ cacheBreak: true, cause: 'tools-changed', sharedItems: 0 });
    // The same new text without the record is an edit of the system prompt.
    const [, edited] = analyzeCachePrefix(calls(before, after({})), { count });
    expect(edited!.cause).toBe('edited');
  });

  it('predicts nothing cached after a gap beyond the 5-minute TTL, even with an identical prefix', () => {
    const a = call([sys('m0', SYS), user('m1', U1)], { timestamp: '2025-01-01T10:00:00Z' });
    const b = call([sys('m0', SYS), user('m1', U1), asst('m2', 'ok')], { timestamp: '2025-01-01T10:06:00Z' });
    const [, r] = analyzeCachePrefix(calls(a, b), { count });
    expect(r).toMatchObject({ prefixTokens: 19, cachedPredicted: 0, predictedBreak: true, cacheBreak: true, cause: 'ttl', ttlExpired: true, gapMs: 360_000, ttlMs: 300_000, ttlSource: 'default' });
  });

  it('uses the 1-hour TTL when the previous call asked for it, and an explicit ttlMs over both', () => {
    const a = call([sys('m0', SYS, { meta: { cacheControl: 'ephemeral', cacheTtl: '1h' } }), user('m1', U1)], { timestamp: '2025-01-01T10:00:00Z' });
    const b = call([sys('m0', SYS), user('m1', U1)], { timestamp: '2025-01-01T10:30:00Z' });
    const [, hour] = analyzeCachePrefix(calls(a, b), { count });
    const [, forced] = analyzeCachePrefix(calls(a, b), { count, ttlMs: 60_000 });
    expect(hour).toMatchObject({ ttlExpired: false, ttlMs: 3_600_000, ttlSource: 'cache-control', cachedPredicted: 19, cause: null });
    expect(forced).toMatchObject({ ttlExpired: true, cachedPredicted: 0, cause: 'ttl' });
  });

  it('rounds by the OpenAI rule for Chat calls and shows the reported cache read beside it', () => {
    const big = sys('m0', words(1200));
    const [, r] = analyzeCachePrefix(
      calls(call([big, user('m1', U1)], { api: 'openai-chat' }), call([big, user('m1', U1), asst('m2', 'ok')], { api: 'openai-chat', usage: usage({ input: 1215, cacheRead: 1152 }) })),
      { count },
    );
    expect(r).toMatchObject({ rule: 'openai', prefixTokens: 1210, cachedPredicted: 1152, reportedCacheRead: 1152 });
  });

  it('counts the previous answer towards the OpenAI cache when the next prompt repeats it, but not towards the prefix', () => {
    const big = sys('m0', words(1200));
    const answer = asst('a1', words(130));
    const first = call([big, user('m1', U1)], { api: 'openai-chat', output: [answer] });
    const next = call([big, user('m1', U1), answer, user('m2', Q1)], { api: 'openai-chat' });
    const [, openai] = analyzeCachePrefix(calls(first, next), { count });
    const [, anthropic] = analyzeCachePrefix(calls(first, next), { count, rule: 'anthropic' });
    // 1210 prompt tokens + 131 of the answer = 1341 → 1280 in 128-token steps (1152 without the answer).
    expect(openai).toMatchObject({ prefixTokens: 1210, outputReusedTokens: 131, cachedPredicted: 1280, divergence: null });
    expect(anthropic).toMatchObject({ prefixTokens: 1210, outputReusedTokens: 0, cachedPredicted: 1210 });
  });

  it('applies a rule given in the options to every call', () => {
    const [, r] = analyzeCachePrefix(calls(call([sys('m0', words(100))]), call([sys('m0', words(100)), user('m1', 'hi')])), { count, rule: 'deepseek' });
    expect(r).toMatchObject({ rule: 'deepseek', prefixTokens: 101, cachedPredicted: 64 });
  });

  it('serves Anthropic from the automatic breakpoints (system end, last message) when none are marked', () => {
    const big = sys('m0', words(1100));
    const opts = { api: 'anthropic' as const, model: 'claude-sonnet-4-5' };
    const [, grown, edited] = analyzeCachePrefix(
      calls(
        call([big, user('m1', U1)], opts),
        call([big, user('m1', U1), asst('m2', 'ok'), user('m3', Q1)], opts),
        call([big, user('m1', 'The nightly job fails.'), asst('m2', 'ok'), user('m3', Q1), asst('m4', 'x')], opts),
      ),
      { count },
    );
    // Everything call 0 wrote at its last message is read back.
    expect(grown).toMatchObject({ rule: 'anthropic', prefixTokens: 1101 + 9, cachedPredicted: 1110 });
    // The edit falls inside the user message: only the system prompt's cache entry still matches.
    expect(edited).toMatchObject({ cause: 'edited', cachedPredicted: 1101 });
  });

  it('misses the previous Anthropic cache entry when more than 20 blocks were added after it', () => {
    const big = sys('m0', words(1100));
    const opts = { api: 'anthropic' as const, model: 'claude-sonnet-4-5' };
    const many = Array.from({ length: 25 }, (_, i) => asst(`a${i}`, `step ${i}`));
    const [, r] = analyzeCachePrefix(calls(call([big, user('m1', U1)], opts), call([big, user('m1', U1), ...many], opts)), { count });
    expect(r).toMatchObject({ prefixTokens: 1110, cachedPredicted: 1101, cacheBreak: false });
  });

  it('follows explicit cache_control breakpoints and the per-model minimum', () => {
    const big = sys('m0', words(1100));
    const bp = { meta: { cacheControl: 'ephemeral' } };
    const sonnet = { api: 'anthropic' as const, model: 'claude-sonnet-4-5' };
    const opus = { api: 'anthropic' as const, model: 'claude-opus-4-5' };
    const [, marked] = analyzeCachePrefix(calls(call([big, user('m1', U1, bp)], sonnet), call([big, user('m1', U1), user('m2', Q1, bp)], sonnet)), { count });
    const [, small] = analyzeCachePrefix(calls(call([big, user('m1', U1, bp)], opus), call([big, user('m1', U1), user('m2', Q1, bp)], opus)), { count });
    expect(marked!.cachedPredicted).toBe(1110);
    expect(small).toMatchObject({ prefixTokens: 1110, cachedPredicted: 0 });
  });

  it('estimates an unrecorded system prefix from usage and counts it in both calls', () => {
    const opts = { api: 'anthropic' as const, model: 'claude-sonnet-4-5', prefixUnrecorded: true };
    const first = [user('m1', U1)];
    const second = [user('m1', U1), asst('m2', 'Reading.'), user('m3', Q1)];
    const cs = calls(call(first, { ...opts, usage: usage({ input: 9, cacheRead: 0, cacheWrite: 3000 }) }), call(second, { ...opts, usage: usage({ input: 15, cacheRead: 3009, cacheWrite: 0 }) }));
    const [r0, r1] = analyzeCachePrefix(cs, { count });
    // Without a calibration passed in, the calls are calibrated here: the prefix is the calibration's figure.
    const cal = calibrate(cs, countedPerCall({ calls: cs, timeline: null }, count));
    expect([r0!.unseenPrefixTokens, r1!.unseenPrefixTokens]).toEqual(cs.map((c, i) => unrecordedPrefix(c, cal.calls[i])));
    // Each lies between what the two calls' reports leave beside their items: 3009 − 8 and 3024 − 14 counted.
    for (const r of [r0!, r1!]) expect(r.unseenPrefixTokens).toBeGreaterThanOrEqual(3009 - count(U1));
    for (const r of [r0!, r1!]) expect(r.unseenPrefixTokens).toBeLessThanOrEqual(3024 - count(U1 + ' Reading. ' + Q1));
    expect(r0).toMatchObject({ prefixUnrecorded: true, contextTokens: 3009 });
    // The first prompt is all shared: the prefix and the first message.
    expect(r1).toMatchObject({ contextTokens: 3024, prefixTokens: 3009, previousContextTokens: 3009, lostTokens: 0, cachedPredicted: 3009, reportedCacheRead: 3009 });
  });

  it('gives every call of a segment the prefix fitted on the calls that reported usage, and null where none did', () => {
    const opts = { api: 'anthropic' as const, prefixUnrecorded: true };
    const rs = analyzeCachePrefix(
      calls(call([user('m1', U1)], opts), call([user('m1', U1)], { ...opts, usage: usage({ input: 1, cacheRead: 508 }) }), call([user('m1', U1), asst('m2', 'ok')], opts)),
      { count },
    );
    // The one reported prompt, 509, less the 8 counted tokens beside it.
    expect(rs.map((r) => r.unseenPrefixTokens)).toEqual([509 - count(U1), 509 - count(U1), 509 - count(U1)]);
    const none = analyzeCachePrefix(calls(call([user('m1', U1)], opts), call([user('m1', U1), asst('m2', 'ok')], opts)), { count });
    expect(none.map((r) => r.unseenPrefixTokens)).toEqual([null, null]);
  });

  it('takes OpenAI input tokens as already including cached ones when estimating the unseen prefix', () => {
    const [r] = analyzeCachePrefix(calls(call([user('m1', U1)], { api: 'openai-responses', prefixUnrecorded: true, usage: usage({ input: 1000, cacheRead: 900 }) })), { count });
    // A replayed Codex transcript records no API: the model name tells.
    const [codex] = analyzeCachePrefix(calls(call([user('m1', U1)], { model: 'gpt-5.3-codex', prefixUnrecorded: true, usage: usage({ input: 1000, cacheRead: 900 }) })), { count });
    // The prompt is the 1000 input tokens (not 1000 + 900); the prefix is what the message leaves of it.
    expect(r).toMatchObject({ contextTokens: 1000, unseenPrefixTokens: 1000 - count(U1) });
    expect(codex).toMatchObject({ rule: 'openai', contextTokens: 1000, unseenPrefixTokens: 1000 - count(U1) });
  });

  it('predicts nothing cached when the model changes', () => {
    const [, r] = analyzeCachePrefix(calls(call([sys('m0', SYS)], { model: 'gpt-4o' }), call([sys('m0', SYS), user('m1', U1)], { model: 'gpt-4o-mini' })), { count });
    expect(r).toMatchObject({ prefixTokens: 10, cachedPredicted: 0, modelChanged: true, predictedBreak: true, cause: 'model-changed' });
  });

  it('counts each distinct item once across calls, even when every call holds fresh copies', () => {
    let counted = 0;
    const spy = (t: string) => {
      counted++;
      return countWords(t);
    };
    const items = [sys('m0', SYS), user('m1', U1), asst('m2', 'Reading.'), user('m3', Q1), asst('m4', 'db-prod-1'), user('m5', 'thanks')];
    const log = calls(call(structuredClone(items.slice(0, 2))), call(structuredClone(items.slice(0, 4))), call(structuredClone(items)));
    const reports = analyzeCachePrefix(log, { count: spy });
    // Six distinct items, each counted once: its header and its text apart.
    expect(counted).toBe(12);
    expect(reports.map((r) => r.prefixTokens)).toEqual([0, 19, 27]);
  });

  it('does not call a divergence a break when it loses no tokens', () => {
    // The last previous item grows by a character: the word count of the shared part equals the old item's.
    const [, r] = analyzeCachePrefix(calls(call([user('m1', 'abc')]), call([user('m1', 'abcd'), asst('m2', 'x')])), { count });
    expect(r).toMatchObject({ prefixTokens: 2, lostTokens: 0, cacheBreak: false, cause: null });
    expect(r!.divergence).toMatchObject({ itemId: 'm1', offset: 3, removed: '', added: 'd' });
  });
});
