// How the audit reads a Claude Code user-turn record that says who wrote it (`origin.kind`, model/harness-messages.ts),
// on hand-made sessions modelled on src/formats/__fixtures__/claude-code-origin.jsonl (sources in its README): the
// invented-instruction check takes only the person's words as backing "the user asked", as the causal-order lint does.
import { describe, expect, it } from 'vitest';
import type { Item, Session } from '../model/types';
import { assistant, boundary, compaction, session, summary, toolCall, toolResult, user } from '../test/builders';
import { auditInputFor, auditSession } from './audit-session';
import { auditSummary } from './audit-summary';
import { userWordsRead } from './invented-instructions';

const CWD = '/home/dev/site';
const RENAME = 'Rename the "Launch editor" button to "Open in editor" and then commit it';
const CLAIM = 'The user asked to rename the Launch editor button to Open in editor.';
const withOrigin = (it: Item, origin: string): Item => ({ ...it, meta: { ...it.meta, origin } });

/** A session whose second message, of the given origin, asks for the rename; then a compaction whose summary claims it. */
function renameSession(origin: string): Session {
  return session(
    [
      withOrigin(user('u0', 'The studio page shows the install tabs twice. Fix it.'), 'human'),
      toolCall('c1', 'k1', 'Read', `{"file_path":"${CWD}/website/src/pages/studio.js"}`),
      toolResult('r1', 'k1', "1\timport Tabs from '@theme/Tabs';"),
      assistant('a1', 'Fixed the duplicate Tabs.'),
      withOrigin(user('u1', RENAME), origin),
      assistant('a2', 'Renamed and committed.'),
      boundary('b'),
      summary('sum', CLAIM, 'user'),
    ],
    { meta: { cwd: CWD }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1', 'a1', 'u1', 'a2'] })] },
    'claude-code',
  );
}

/** The session audit and the excerpt audit of its one compaction, which must agree. */
function bothAudits(s: Session) {
  const [whole] = auditSession(s);
  const excerpt = auditSummary(auditInputFor(s, s.compactions[0]!)!);
  return [whole!, excerpt] as const;
}

describe('userWordsRead on records that name their origin', () => {
  it("reads a record of origin human as the person's and any other origin as words no person wrote", () => {
    const read = (origin: string) => userWordsRead([{ text: RENAME, role: 'user', kind: 'message', meta: { origin } }]);
    expect(read('human')).toEqual({ said: [RENAME], harness: [] });
    expect(read('task-notification')).toEqual({ said: [], harness: [RENAME] });
  });
});

describe('the invented-instruction check on records that name their origin', () => {
  it("takes a claim a message of origin human backs as backed, in the session audit and the excerpt audit alike", () => {
    for (const a of bothAudits(renameSession('human'))) expect(a.inventedInstructions).toEqual([]);
  });

  it('flags the same claim when the only message that says it has another origin: no person asked', () => {
    for (const a of bothAudits(renameSession('task-notification'))) expect(a.inventedInstructions.map((v) => v.sentence)).toEqual([CLAIM]);
  });

  it("counts only the person's evicted messages in survival's row of the user's instructions", () => {
    for (const a of bothAudits(renameSession('human'))) expect(a.survival.instructions.evicted).toBe(2);
    for (const a of bothAudits(renameSession('task-notification'))) expect(a.survival.instructions.evicted).toBe(1);
  });
});
