// A Claude Code session whose one compaction drops the staging host the project's CLAUDE.md names, which the agent
// then uses again: lost and needed later without the CLAUDE.md, had all along with it. Record shapes as in
// claude-code-records.ts (Claude Code 2.1.39, src/formats/__fixtures__/claude-code-session.jsonl); the CLAUDE.md is
// a short project file of the kind `/init` writes.
import { claudeCodeRecords } from '../../src/test/claude-code-records';

const CWD = '/home/dev/payments';
/** Named by CLAUDE.md, lost by the summary, used after it. */
export const STAGING_HOST = 'payments-staging.internal:8443';
/** Lost by the summary and edited after it; no instruction file names it. */
export const RETRY_FILE = `${CWD}/src/checkout/retry.ts`;

export const CLAUDE_MD = [
  '# Payments service',
  '',
  '## Commands',
  '- `npm test` runs the unit tests; `npm run test:staging` runs the checkout tests against staging.',
  '',
  '## Environments',
  `- Staging API: ${STAGING_HOST} (the checkout tests run against it).`,
  '- Never point tests at production.',
  '',
].join('\n');

/** `cwd`: the working directory the session records (serve reads the CLAUDE.md found there). */
export function instructionFilesSession(cwd = CWD): string {
  const r = claudeCodeRecords(cwd, '3c9e1f20-6a4b-4d8e-9f01-2b3c4d5e6f70');
  r.user('The checkout tests fail against staging. Find out why and fix it.');
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat config/staging.env', description: 'Show the staging settings' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: `API_HOST=${STAGING_HOST}\nRETRY_LIMIT=5\n` }]);
  r.assistant([{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: RETRY_FILE } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'export const retries = () => 1; // ignores RETRY_LIMIT\n' }]);
  r.assistant([{ type: 'text', text: 'The retry helper ignores RETRY_LIMIT, so the first timeout fails the test.' }]);
  r.compaction('auto', 161_204, 'Summary:\n1. Primary Request: fix the failing checkout tests.\n2. Findings: the retry helper ignores RETRY_LIMIT.');
  r.assistant([{ type: 'tool_use', id: 'toolu_3', name: 'Edit', input: { file_path: RETRY_FILE, old_string: '() => 1', new_string: '() => Number(process.env.RETRY_LIMIT ?? 5)' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_3', content: `The file ${RETRY_FILE} has been updated.` }]);
  r.assistant([{ type: 'tool_use', id: 'toolu_4', name: 'Bash', input: { command: `curl -s http://${STAGING_HOST}/health && npm run test:staging`, description: 'Check staging and run the checkout tests' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_4', content: '{"ok":true}\n\n  12 passing (4s)\n' }]);
  r.assistant([{ type: 'text', text: 'The checkout tests pass against staging now.' }]);
  return r.text();
}
