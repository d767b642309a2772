import { describe, expect, it } from 'vitest';
import { claudeCodeSession, CLAUDE_CODE_TYPICAL } from '../../bench/generators/claude-code-session';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles } from '../load/loader';
import type { Session } from '../model/types';
import { assistant, boundary, compaction, marker, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { lintSession } from './lint-session';

const GOOD = '## Conversation Summary\n- **Decisions:** a\n- **Entities:** b\n- **Facts:** c\n- **Open Items:** d';

/** The lints of a replayed session read from its spans with a cursor, and from each call's list. */
function both(s: Session) {
  const ctx = sessionContexts(s);
  const input = { format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t: string) => Math.ceil(t.length / 4), candidates: true };
  return { walked: lintSession({ ...input, timeline: ctx.timeline }), listed: lintSession(input), timeline: ctx.timeline };
}

const generated = (name: string, text: string) => ({ name, session: loadFiles([{ name: `${name}.jsonl`, bytes: new TextEncoder().encode(text) }]).sessions[0]! });

// Walking the spans is a shortcut: call by call it must find what reading every call's whole list finds, in the same order.
describe('the lints walked over spans', () => {
  const built: { name: string; session: Session }[] = [
    {
      name: 'a tool result kept while its call was evicted, and a user message quoted by an earlier tool call after a compaction',
      session: (() => {
        const s = session(
          [
            user('u1', 'please deploy to db-prod-1:5432 with the new pool size of 40'),
            toolCall('c1', 'k', 'read', '{"path":"config/pool.yaml"}'),
            toolResult('r1', 'k', 'out'),
            toolCall('c0', 'k0', 'bash', '{"cmd":"deploy --host db-prod-1:5432 with the new pool size of 40"}'),
            toolResult('r0', 'k0', 'ok'),
            user('u2', 'deploy --host db-prod-1:5432 with the new pool size of 40 now'),
            assistant('a1', 'b'),
            boundary('b'),
            summary('sum', GOOD),
            user('u3', 'and keep the new pool size of 40 everywhere'),
            assistant('a2', 'd'),
          ],
          { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'u1'] })] },
        );
        s.items[1]!.pairId = 'r1';
        s.items[2]!.pairId = 'c1';
        return s;
      })(),
    },
    { name: 'stacked and consecutive summaries and a marker', session: session([user('u1', 'a'), summary('s1', GOOD), summary('s2', GOOD.replace('a', 'z')), marker('m'), assistant('a1', 'b')]) },
    {
      // Each rewrite is a recorded compaction's, so no `recap-regenerated` lint: both walks must find none.
      name: 'a recap rewritten at every compaction',
      session: session(
        [system('s', 'x'), user('u1', 'a'), assistant('a1', 'b'), boundary('b1'), summary('r1', `${GOOD} 1`), assistant('a2', 'c'), boundary('b2'), summary('r2', `${GOOD} 2`), assistant('a3', 'd'), boundary('b3'), summary('r3', `${GOOD} 3`), assistant('a4', 'e')],
        {
          compactions: [
            compaction('c1', { atItemId: 'b1', summaryId: 'r1', replacedIds: ['a1'] }),
            compaction('c2', { atItemId: 'b2', summaryId: 'r2', replacedIds: ['r1', 'a2'] }),
            compaction('c3', { atItemId: 'b3', summaryId: 'r3', replacedIds: ['r2', 'a3'] }),
          ],
        },
      ),
    },
  ];
  const cases = [
    ...built,
    ...fixtureTranscripts(),
    generated('three compactions', claudeCodeSession({ seed: 7, records: 1500, bytes: 1_200_000, compactions: 3 })),
    generated('the typical session', claudeCodeSession(CLAUDE_CODE_TYPICAL)),
    generated('a long chain whose prompts tool calls quote', claudeCodeSession({ seed: 9, records: 1500, bytes: 1_000_000, compactions: 0, shape: { hooksPerEvent: 0, thinking: 0.3, text: 0.5, paths: 40, idents: 60, summaryChars: 0, quotesUsers: true } })),
  ];

  it.each(cases.map((c) => [c.name, c.session] as const))('finds what the per-call lists find on %s', (_, s) => {
    const { walked, listed, timeline } = both(s);
    expect(timeline).not.toBeNull();
    expect(walked).toEqual(listed);
  });

  // `recap-regenerated` needs a recap rewritten with no compaction recorded, which only request logs show (no timeline).
  it('has cases that exercise every walked rule', () => {
    const rules = new Set(cases.flatMap((c) => both(c.session).walked.map((l) => l.rule)));
    for (const r of ['tool-pair-split', 'causal-order', 'stacked-summaries', 'fallback-marker'] as const) expect(rules).toContain(r);
  });
});
