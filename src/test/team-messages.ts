// Hand-made records of Claude Code's agent teams, in the shapes of Beep206/CyberVPN's sessions (branch
// entire/checkpoints/v1 at 89efea03, Claude Code 2.1.39 to 2.1.42): a teammate's session (8e/d0e76731ba/3, the
// integration-dev teammate: its lead's orders, a task assignment, a peer's note) and a lead's (e4/50181db02a/3: the
// person's prompt, then teammates' reports, idle notifications and shutdown acknowledgements). Made up, not copied.

/** One `<teammate-message>` block as Claude Code writes it into the receiver's user turn. */
export function teammateBlock(from: string, body: string, attrs: { color?: string; summary?: string } = {}): string {
  const color = attrs.color ? ` color="${attrs.color}"` : '';
  const summary = attrs.summary ? ` summary="${attrs.summary}"` : '';
  return `<teammate-message teammate_id="${from}"${color}${summary}>\n${body}\n</teammate-message>`;
}

/** Several blocks in one record, as the harness joins the messages that waited for the same turn. */
export const teammateRecord = (...blocks: string[]): string => blocks.join('\n\n');

/** A protocol message's JSON body. */
export const protocol = (type: string, fields: Record<string, unknown> = {}): string => JSON.stringify({ type, ...fields, timestamp: '2026-02-15T14:57:29.990Z' });

// The teammate's session.
export const SWITCH_USE_CASE = 'lib/features/vpn_profiles/domain/usecases/switch_active_profile.dart';
export const CONNECTION_NOTIFIER = 'lib/features/vpn/presentation/providers/vpn_connection_notifier.dart';

/** The lead's first message to a teammate: the prompt it was spawned with, its orders. */
export const LEAD_ORDERS = teammateBlock(
  'team-lead',
  `You are integration-dev on the multi-profile team. You work ONLY in cybervpn_mobile/.\nTask INT-5: disconnect the VPN before switching profiles. The switch use case is at ${SWITCH_USE_CASE}.`,
);

/** A record with a task assignment the lead's TaskUpdate raised, and a peer's note whose summary holds a `>`. */
export const ASSIGNMENT_AND_PEER_NOTE = teammateRecord(
  teammateBlock('team-lead', protocol('task_assignment', { taskId: '23', subject: 'INT-5: Disconnect VPN on profile switch', description: `Edit ${CONNECTION_NOTIFIER}`, assignedBy: 'team-lead' })),
  teammateBlock('ui-dev', 'ProfileListScreen is ready for navigation. Golden tests for ProfileCard are still pending.', { color: 'yellow', summary: 'ProfileListScreen done -> wire the nav' }),
);

// The lead's session.
export const TEAMMATE_REPORT = teammateBlock('proxy-fix', 'Task #2 done. Removed `trailingSlash: true` from `frontend/next.config.ts`; the redirects on /api/v1 paths are gone.', {
  color: 'green',
  summary: 'Task #2 done: removed trailingSlash config',
});

export const IDLE_AND_SHUTDOWN = teammateRecord(
  teammateBlock('proxy-fix', protocol('idle_notification', { from: 'proxy-fix', idleReason: 'available' }), { color: 'green' }),
  teammateBlock('system', protocol('teammate_terminated', { message: 'proxy-fix has shut down.' })),
  teammateBlock('proxy-fix', protocol('shutdown_approved', { requestId: 'shutdown-1@proxy-fix', from: 'proxy-fix' }), { color: 'green' }),
);
