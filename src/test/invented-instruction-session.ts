// A Claude Code session whose compaction summary says the user asked for something no user message asks: the
// invented instruction the Summary audit lists, with the closest message the user did send.
import { claudeCodeRecords } from './claude-code-records';

export const ASKED = 'The login page loops after sign-in. Please fix the redirect in src/auth/redirect.ts.';
export const INVENTED_CLAIM = 'The user asked to deploy the fix to production and notify the whole team by email.';

/** `claim`: the summary's line that states the invented instruction. */
export function inventedInstructionSession(claim = INVENTED_CLAIM): string {
  const r = claudeCodeRecords('/home/dev/shop', '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0003');
  r.user(ASKED);
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/home/dev/shop/src/auth/redirect.ts' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1→export const next = (url) => url ?? "/login";' }]);
  r.assistant([{ type: 'text', text: 'The redirect falls back to /login, which loops. I will send signed-in users to /home.' }]);
  r.compaction('manual', 4000, `## Summary\n- ${claim}\n- The redirect in src/auth/redirect.ts falls back to /login.`);
  r.assistant([{ type: 'text', text: 'Continuing with the redirect fix.' }]);
  return r.text();
}
