import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';

// Modelled on the Claude API's cache diagnostics beta (`cache-diagnosis-2026-04-07`): each request names the previous
// response in `diagnostics.previous_message_id`; the response carries `diagnostics: null` (no divergence) or
// `diagnostics.cache_miss_reason.type`.
const FILE = 'request-log-cache-diagnostics.jsonl';
const text = readFileSync(join(import.meta.dirname, '__fixtures__', FILE), 'utf8');

describe('provider cache diagnostics in a request log', () => {
  it('reads the server verdict per call and puts it beside ours, counting how often they agree', () => {
    const session = loadText(FILE, text).sessions[0]!;
    expect(session.requests.map((r) => r.usage?.diagnostic ?? null)).toEqual([null, 'hit', 'system_changed']);
    const a = analyzeSession(session, { count: (t) => Math.ceil(t.length / 4) });
    expect(a.cache.map((r) => [r.call, r.diagnostic, r.cacheBreak, r.cause])).toEqual([
      [1, null, false, null],
      [2, 'hit', false, null],
      // The system prompt gained a date: edited in place, not a compaction, and the server says so too.
      [3, 'system_changed', true, 'edited'],
    ]);
    expect(a.facts.compactions.total).toBe(0);
    expect(a.facts.cache!.diagnostics).toEqual({ compared: 2, agree: 2 });
  });
});
