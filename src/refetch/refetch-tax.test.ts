import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';
import { refetchTax } from './refetch-tax';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const text = readFileSync(new URL('./__fixtures__/claude-code-refetch.jsonl', import.meta.url), 'utf8');

describe('refetchTax', () => {
  it('lists a Read of a path read before the compaction and repeated after it, with both calls and the result tokens', () => {
    const { sessions, issues } = loadText('claude-code-refetch.jsonl', text);
    expect(issues).toEqual([]);
    const [tax] = analyzeSession(sessions[0]!, { count: words }).refetch;
    expect(tax!.refetches).toEqual([
      { callId: expect.any(String), call: 4, tool: 'Read', target: '/repo/config/db.yaml', tokens: 6, earlierCallId: expect.any(String), earlierCall: 1 },
      { callId: expect.any(String), call: 7, tool: 'Bash', target: 'mix test test/pool_test.exs', tokens: 5, earlierCallId: expect.any(String), earlierCall: 3 },
    ]);
    // Word counts stand in for tokens: "1→pool_size: 10 2→host: db-prod-1 3→port: 5432" and "... 3 tests, 0 failures".
    expect(tax!.refetchTokens).toBe(11);
  });

  it('counts apart a re-read of a file edited in between, and only the first repeat of a fetch', () => {
    const { sessions } = loadText('claude-code-refetch.jsonl', text);
    const [tax] = analyzeSession(sessions[0]!, { count: words }).refetch;
    expect(tax!.changedRereads.map((r) => [r.call, r.tool, r.target, r.earlierCall])).toEqual([[6, 'Read', '/repo/lib/pool.ex', 2]]);
    // Call 8 reads config/db.yaml a third time: its result from call 4 was still in context.
    expect(tax!.refetches.map((r) => r.call)).not.toContain(8);
  });

  it('finds nothing when no compaction removed the earlier result', () => {
    const { sessions } = loadText('claude-code-refetch.jsonl', text);
    const s = sessions[0]!;
    const calls = s.items.filter((i) => i.kind === 'tool_call').map((i) => ({ output: [i] }));
    expect(refetchTax({ items: s.items, compactions: [], calls, count: words })).toEqual([]);
    const kept = s.compactions.map((c) => ({ ...c, replacedIds: c.replacedIds.filter((id) => !s.items.some((i) => i.id === id && i.kind === 'tool_result')) }));
    expect(refetchTax({ items: s.items, compactions: kept, calls, count: words }).flatMap((r) => r.refetches)).toEqual([]);
  });
});

describe('the re-fetch tax in the cost of compacting', () => {
  it('is the recorded run’s figure, the same the analysis reports, and unknown for a rerun', async () => {
    const { rerunSession } = await import('../compaction/rerun');
    const { sessions } = loadText('claude-code-refetch.jsonl', text);
    const session = sessions[0]!;
    const r = await rerunSession(session, { strategy: 'drop-oldest', trigger: { kind: 'tokens', threshold: 20 }, count: words });
    const analysed = analyzeSession(session, { count: words }).refetch;
    expect(r.costs.original.events).toHaveLength(analysed.length);
    expect(r.costs.original.events.map((e) => e.refetchTax)).toEqual(analysed.map((a) => a.refetchTokens));
    expect(r.costs.original.totals.refetchTax).toBe(11);
    // The rerun's agent never ran: which tools it would have called again is not known.
    expect(r.costs.rerun.events.length).toBeGreaterThan(0);
    expect(r.costs.rerun.events.every((e) => e.refetchTax === null)).toBe(true);
    expect(r.costs.rerun.totals.refetchTax).toBeNull();
  });
});
