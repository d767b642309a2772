import { describe, expect, it } from 'vitest';
import { assistant, boundary, compaction, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import type { CallBands, CallEntryView, CallView } from './analysis-view';
import { buildAnalysisView } from './analysis-view';
import { diffContexts, diffSummary } from './context-diff';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const bands: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };

function call(index: number, entries: [id: string, tokens: number, variant?: boolean][]): CallView {
  const list: CallEntryView[] = entries.map(([id, tokens, variant = false]) => ({ id, tokens, variant, region: 'tail', isNew: false }));
  return { index, id: `c${index}`, entries: list, outputIds: [], usage: null, timestamp: null, model: null, prefixUnrecorded: false, compactionId: null, recorded: false, contextTokens: 0, unrecordedPrefixTokens: 0, unaccountedTokens: 0, reportedPrompt: null, bands, scale: 1, perItem: 0, segment: { index: 0, since: 1, why: null } };
}

describe('diffContexts', () => {
  it('splits two contexts into added, removed, kept and changed items with their tokens', () => {
    const d = diffContexts(
      call(3, [['s', 10], ['a', 100], ['b', 50], ['t', 400]]),
      call(4, [['s', 10], ['sum', 30], ['t', 20, true], ['c', 7]]),
    );
    expect(d.from).toBe(3);
    expect(d.to).toBe(4);
    expect(d.removed.map((e) => [e.id, e.tokens, e.position])).toEqual([['a', 100, 1], ['b', 50, 2]]);
    expect(d.added.map((e) => [e.id, e.tokens, e.position])).toEqual([['sum', 30, 1], ['c', 7, 3]]);
    expect(d.kept.map((e) => e.id)).toEqual(['s']);
    expect(d.changed).toEqual([
      { id: 't', from: { id: 't', tokens: 400, region: 'tail', variant: false, position: 3 }, to: { id: 't', tokens: 20, region: 'tail', variant: true, position: 2 }, tokenDelta: -380 },
    ]);
    expect(d.tokens).toEqual({ from: 560, to: 67, added: 37, removed: 150, changed: -380, kept: 10 });
    // The totals reconcile: what the second call holds is the first, plus additions, minus removals, plus changes.
    expect(d.tokens.from + d.tokens.added - d.tokens.removed + d.tokens.changed).toBe(d.tokens.to);
  });

  it('pairs an item sent twice occurrence by occurrence', () => {
    const d = diffContexts(call(0, [['x', 5], ['x', 5], ['y', 1]]), call(1, [['x', 5], ['y', 1]]));
    expect(d.removed.map((e) => [e.id, e.position])).toEqual([['x', 1]]);
    expect(d.kept.map((e) => e.id)).toEqual(['x', 'y']);
    expect(d.added).toEqual([]);
  });

  it('finds nothing to report between a call and itself, or in either direction of a pair swapped', () => {
    const a = call(0, [['s', 3], ['u', 4]]);
    const b = call(1, [['s', 3], ['v', 9]]);
    expect(diffContexts(a, a)).toMatchObject({ added: [], removed: [], changed: [], tokens: { added: 0, removed: 0, changed: 0, kept: 7 } });
    const fwd = diffContexts(a, b);
    const back = diffContexts(b, a);
    expect(back.added.map((e) => e.id)).toEqual(fwd.removed.map((e) => e.id));
    expect(back.removed.map((e) => e.id)).toEqual(fwd.added.map((e) => e.id));
  });

  it('shows what a compaction took out and put in on a real analysis view', () => {
    const s = session(
      [
        system('s', 'you are helpful'),
        user('u1', 'fix the nightly job please'),
        toolCall('c1', 'k1', 'read_file', '{"path":"config/db.yaml"}'),
        toolResult('r1', 'k1', 'host: db-prod-1 port: 5432 pool_size: 20'),
        assistant('a1', 'the pool is capped at twenty'),
        user('u2', 'and the ticket'),
        boundary('b'),
        summary('sum', '## Conversation Summary\n- **Facts:** db-prod-1:5432'),
        assistant('a2', 'FRE-512'),
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1', 'a1'] })] },
    );
    const v = buildAnalysisView(s, { count: words });
    const last = v.calls.length - 1;
    const d = diffContexts(v.calls[last - 1]!, v.calls[last]!);
    // a1 was only the previous call's reply, never sent as input, so it is not a removal.
    expect(d.removed.map((e) => e.id)).toEqual(['c1', 'r1']);
    expect(d.added.map((e) => e.id)).toEqual(['sum', 'u2']);
    expect(d.kept.map((e) => e.id)).toEqual(['s', 'u1']);
    expect(d.tokens.removed).toBe(v.tokens.get('c1')! + v.tokens.get('r1')!);
  });
});

describe('diffSummary', () => {
  it('writes additions and removals with signs and thousands separators', () => {
    const d = diffContexts(call(0, [['a', 4100], ['k', 1]]), call(1, [['k', 1], ['b', 1000], ['c', 240]]));
    expect(diffSummary(d)).toBe('+2 items, +1,240 tokens; \u22121 item, \u22124,100 tokens');
  });

  it('adds the changed items when a masked variant differs', () => {
    const d = diffContexts(call(0, [['t', 400]]), call(1, [['t', 20, true]]));
    expect(diffSummary(d)).toBe('+0 items, +0 tokens; \u22120 items, \u22120 tokens; 1 item changed, \u2212380 tokens');
  });
});
