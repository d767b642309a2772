// How the audit reads Claude Code's agent-team messages (model/harness-messages.ts `teammateMessages`), on hand-made
// sessions modelled on Beep206/CyberVPN's (src/test/team-messages.ts): a teammate's, whose orders come from its lead,
// and a lead's, whose user turn also holds its teammates' reports and the team's protocol.
import { describe, expect, it } from 'vitest';
import type { Item, Session } from '../model/types';
import { assistant, boundary, compaction, session, summary, toolCall, toolResult, user } from '../test/builders';
import { ASSIGNMENT_AND_PEER_NOTE, CONNECTION_NOTIFIER, IDLE_AND_SHUTDOWN, LEAD_ORDERS, protocol, SWITCH_USE_CASE, TEAMMATE_REPORT, teammateBlock } from '../test/team-messages';
import { auditInputFor, auditSession } from './audit-session';
import { auditSummary } from './audit-summary';
import { userWordsRead } from './invented-instructions';

const CWD = '/home/dev/cybervpn_mobile';

/** A teammate's session: the lead's orders, an assignment with a peer's note, a read of the notifier, then a compaction. */
function teammateSession(summaryText: string, later: Item[] = []): Session {
  return session(
    [
      user('t0', LEAD_ORDERS),
      user('t1', ASSIGNMENT_AND_PEER_NOTE),
      toolCall('c1', 'k1', 'Read', `{"file_path":"${CWD}/${CONNECTION_NOTIFIER}"}`),
      toolResult('r1', 'k1', '1→class VpnConnectionNotifier extends AsyncNotifier<VpnConnectionState> {'),
      boundary('b'),
      summary('sum', summaryText, 'user'),
      ...later,
    ],
    { meta: { cwd: CWD }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['t0', 't1', 'c1', 'r1'] })] },
    'claude-code',
  );
}

/** The session audit and the excerpt audit of its one compaction, which must agree. */
function bothAudits(s: Session) {
  const [whole] = auditSession(s);
  const excerpt = auditSummary(auditInputFor(s, s.compactions[0]!)!);
  return [whole!, excerpt] as const;
}

describe('userWordsRead on teammate messages', () => {
  it("reads the lead's orders as what the agent was told, and every teammate record as backing a quote only", () => {
    const read = userWordsRead([LEAD_ORDERS, ASSIGNMENT_AND_PEER_NOTE, TEAMMATE_REPORT, IDLE_AND_SHUTDOWN].map((text) => ({ text, role: 'user', kind: 'message' })));
    expect(read.said).toEqual([expect.stringContaining('Task INT-5: disconnect the VPN before switching profiles.')]);
    expect(read.harness).toHaveLength(4);
  });
});

describe('the invented-instruction check in a teammate session', () => {
  it("takes a claim the lead's orders back as backed, in the session audit and the excerpt audit alike", () => {
    for (const a of bothAudits(teammateSession('The user asked to disconnect the VPN before switching profiles.'))) expect(a.inventedInstructions).toEqual([]);
  });

  it("flags a claim only a peer's note backs: a teammate's words are not the user's", () => {
    for (const a of bothAudits(teammateSession('The user asked for golden tests for ProfileCard.'))) {
      expect(a.inventedInstructions.map((v) => v.sentence)).toEqual(['The user asked for golden tests for ProfileCard.']);
    }
  });

  it('backs a quote of a teammate message listed under the user messages, as it backs a quote of the harness', () => {
    const quoted = 'All user messages (teammate messages):\n- ui-dev: "ProfileListScreen is ready for navigation."';
    for (const a of bothAudits(teammateSession(quoted))) expect(a.inventedInstructions).toEqual([]);
  });
});

describe("survival's row of the user's instructions", () => {
  it("counts the person's evicted messages, not the lead's orders, a teammate's report or the protocol", () => {
    const done = 'Summary: INT-5 is done.';
    for (const a of bothAudits(teammateSession(done))) expect(a.survival.instructions).toEqual({ evicted: 0, kept: 0 });
    const lead = session(
      [
        user('u0', 'Fix the 2000ms TTFB on the API calls with a team of agents.'),
        user('u1', TEAMMATE_REPORT),
        user('u2', IDLE_AND_SHUTDOWN),
        assistant('a1', 'proxy-fix is done.'),
        boundary('b'),
        summary('sum', done, 'user'),
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'u1', 'u2', 'a1'] })] },
      'claude-code',
    );
    for (const a of bothAudits(lead)) expect(a.survival.instructions.evicted).toBe(1);
  });
});

describe('a lost file named again in a teammate message', () => {
  const forgot = 'Summary: INT-5 is in progress; the switch use case is wired.';
  const needed = (later: Item[]) => bothAudits(teammateSession(forgot, later)).map((a) => [...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value));

  it("is needed later when the lead or a peer names it: another agent's words refer to it as a person's would", () => {
    const note = teammateBlock('team-lead', `Check ${CONNECTION_NOTIFIER} before you switch.`, { summary: 'check the notifier' });
    for (const values of needed([user('n', note)])) expect(values).toContain(CONNECTION_NOTIFIER);
  });

  it("is not needed when only the team's protocol repeats it, as a harness notice would", () => {
    const assignment = teammateBlock('team-lead', protocol('task_assignment', { taskId: '24', subject: 'INT-3', description: `Edit ${CONNECTION_NOTIFIER}`, assignedBy: 'team-lead' }));
    for (const values of needed([user('n', assignment)])) expect(values).not.toContain(CONNECTION_NOTIFIER);
  });

  it('still keeps the file the summary names', () => {
    for (const a of bothAudits(teammateSession(`Summary: wired \`${SWITCH_USE_CASE}\`.`))) expect(a.kept).toContain(SWITCH_USE_CASE);
  });
});
