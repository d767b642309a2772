// A Claude Code teammate's session (agent teams): the lead's orders, a record holding a task assignment and a peer's
// note, an idle notice, and a message the person typed into the teammate's pane. Modelled on Beep206/CyberVPN's
// 8e/d0e76731ba/3 (entire/checkpoints/v1 at 89efea03, Claude Code 2.1.42); the blocks are src/test/team-messages.ts's.
import { ASSIGNMENT_AND_PEER_NOTE, IDLE_AND_SHUTDOWN, LEAD_ORDERS, SWITCH_USE_CASE } from '../../src/test/team-messages';
import { claudeCodeRecords } from '../../src/test/claude-code-records';

export function teammateSession(): string {
  const r = claudeCodeRecords('/home/dev/cybervpn_mobile', '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0007');
  r.user(LEAD_ORDERS);
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: `/home/dev/cybervpn_mobile/${SWITCH_USE_CASE}` } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1→class SwitchActiveProfile {' }]);
  r.user(ASSIGNMENT_AND_PEER_NOTE);
  r.user(IDLE_AND_SHUTDOWN);
  r.user('Keep the switch quiet: no snackbar.');
  r.assistant([{ type: 'text', text: 'Wired the disconnect before the switch, without a snackbar.' }]);
  return r.text();
}
