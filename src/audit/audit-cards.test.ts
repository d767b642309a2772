import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../analysis/analysis-view';
import { assistant, boundary, compaction, session, summary, system, user } from '../test/builders';
import { auditCards, unauditedReason } from './audit-cards';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

// The course example in miniature: the summary keeps host and port, drops the version a later turn asks for;
// a second compaction-log record names no evicted items.
const s = session(
  [
    system('s', 'you are a coding agent'),
    user('u1', 'the nightly job on db-prod-1:5432 fails, ticket FRE-512'),
    assistant('a1', 'deployed version v2.14.3 last night; checking the pool'),
    boundary('b'),
    summary('sum', '## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512'),
    user('u2', 'which release was v2.14.3 again?'),
    assistant('a2', 'on it'),
  ],
  {
    compactions: [
      compaction('c1', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u1', 'a1'] }),
      compaction('c2', {
        kind: 'log',
        atItemId: null,
        replacedIds: [],
        log: { strategy: 'drop', evicted: 3, fallback: true, keptIdentifiers: [], lostIdentifiers: ['a', 'b'], summary: null, sessionId: null, turn: null, requestId: null },
      }),
    ],
  },
);
const view = buildAnalysisView(s, { count: words });

describe('auditCards', () => {
  it('makes one card per compaction, the audit and the first call after it attached', () => {
    const cards = auditCards(view, 0);
    expect(cards.map((c) => [c.compaction.id, c.audit?.compactionId ?? null, c.current])).toEqual([
      ['c1', 'c1', false],
      ['c2', null, false],
    ]);
    expect(cards[0]!.callIndex).toBe(view.calls.findIndex((c) => c.compactionId === 'c1'));
    expect(cards[0]!.audit!.kept).toEqual(expect.arrayContaining(['db-prod-1:5432', 'FRE-512']));
  });

  it('resolves each lost-and-needed value to its kind and the first call showing the item that needed it', () => {
    const [card] = auditCards(view, 0);
    const needed = card!.neededLater.find((n) => n.value === 'v2.14.3');
    expect(needed).toEqual({ value: 'v2.14.3', itemId: 'u2', via: 'mention', kind: 'version', callIndex: view.calls.findIndex((c) => c.entries.some((e) => e.id === 'u2')) });
    expect(needed!.callIndex).toBeGreaterThanOrEqual(0);
  });

  it('puts the compaction in effect at the current call first and marks it current', () => {
    const last = view.calls.length - 1;
    const cards = auditCards(view, last);
    expect(cards[0]!.compaction.id).toBe('c1');
    expect(cards[0]!.current).toBe(true);
    expect(cards.filter((c) => c.current)).toHaveLength(1);
  });

  it('explains in one line why a compaction has no audit', () => {
    const cards = auditCards(view, 0);
    expect(cards[1]!.unaudited).toBe('Not audited: the log records no evicted items, only its own lists (0 kept, 2 lost).');
    expect(cards[0]!.unaudited).toBeNull();
  });

  it('says whether a summary or marker stands in for the evicted items', () => {
    const cards = auditCards(view, 0);
    expect(cards.map((c) => c.hasSummary)).toEqual([true, false]);
  });

  it('makes no cards for a session without compactions', () => {
    const plain = buildAnalysisView(session([user('u', 'hi'), assistant('a', 'hello')]), { count: words });
    expect(auditCards(plain, 0)).toEqual([]);
  });
});

describe('unauditedReason', () => {
  it('says there is nothing to check against when the event records no evicted items and no lists', () => {
    expect(unauditedReason(compaction('c', { replacedIds: [] }))).toBe('Not audited: this compaction records no evicted items, so there is nothing to check its summary against.');
  });
});
