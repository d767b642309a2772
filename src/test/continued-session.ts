// A Claude Code session continued in a new file and compacted there, as Claude Code writes it back into the first
// file: modelled on CaptainRandom00/Claude-Code (projects/-Users-…-byte-bridges/d32a8ce8….jsonl, Claude Code 2.0.8),
// whose boundary's logicalParentUuid is a record of f156e813….jsonl, preTokens 158,881 against the 50,045 its last
// response reported. `logicalParent` 'a1' names the file's own last response; any other value a record it lacks.
function rec(type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>): string {
  return JSON.stringify({ parentUuid, isSidechain: false, sessionId: 's-1', type, uuid, timestamp: '2025-11-07T18:32:00.000Z', version: '2.0.8', cwd: '/Users/dev/byte-bridges', ...extra });
}
const user = (uuid: string, parent: string | null, content: unknown, extra = {}) => rec('user', uuid, parent, { message: { role: 'user', content }, ...extra });
const assistant = (uuid: string, parent: string | null, text: string, context: number) =>
  rec('assistant', uuid, parent, { message: { id: `msg_${uuid}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text }], usage: { input_tokens: 10, cache_read_input_tokens: context - 110, cache_creation_input_tokens: 0, output_tokens: 100 } } });
const boundary = (logicalParent: string, preTokens: number) =>
  rec('system', 'b1', null, { logicalParentUuid: logicalParent, subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens } });

/** The summary names a file and a wish of the user's that only the turns in the other file hold. */
export const CONTINUED_SUMMARY =
  'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n' +
  '1. Primary Request: The user asked to add the pricing page and wire `src/pages/pricing/PlanTable.tsx` to the Stripe checkout.\n' +
  '2. Current work: styling the plan table.';

export function continuedSession(logicalParent: string, preTokens: number) {
  const text = [
    user('u1', null, 'run the app'),
    assistant('a1', 'u1', 'The dev server is up on the usual port.', 50_045),
    boundary(logicalParent, preTokens),
    user('s1', 'b1', CONTINUED_SUMMARY, { isCompactSummary: true }),
    user('u2', 's1', 'go on with the table'),
    assistant('a2', 'u2', 'Styling it now.', 30_000),
  ].join('\n');
  return text;
}
