// A Claude Code session that went on in another file and was compacted there, as Claude Code 2.0 writes it back into
// the first file (CaptainRandom00/Claude-Code, projects/-Users-…-byte-bridges/d32a8ce8….jsonl): the boundary's
// logical parent is a record of the other file, and the summarizer read far more than this file's last response did.
import { claudeCodeRecords } from './claude-code-records';

export const CONTINUED_CLAIM = 'The user asked to add the pricing page and wire src/pages/pricing/PlanTable.tsx to the Stripe checkout.';

export function continuedSession(): string {
  const r = claudeCodeRecords('/Users/dev/byte-bridges', 'd32a8ce8-0a10-4edb-a055-822a596d3cfb');
  r.user('run the app');
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm run dev' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ready - started server on 0.0.0.0:3000' }]);
  r.assistant([{ type: 'text', text: 'The dev server is up on port 3000.' }]);
  r.compaction('auto', 158_881, `1. Primary Request: ${CONTINUED_CLAIM}\n2. Current work: styling the plan table.`, 'a790157c-f0bc-468e-b021-4865188f8f4a');
  r.user('go on with the table');
  r.assistant([{ type: 'text', text: 'Styling the plan table now.' }]);
  return r.text();
}
