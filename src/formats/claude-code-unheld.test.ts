// A session continued in a new file and compacted there: Claude Code writes the boundary and summary back into the
// first file too, so that file's summary covers turns it does not hold. Modelled on CaptainRandom00/Claude-Code
// (projects/-Users-…-byte-bridges, Claude Code 2.0.8): d32a8ce8….jsonl holds the first day's turns, then a boundary
// whose logicalParentUuid is a record of f156e813….jsonl, with preTokens 158,881 against the 50,045 its last
// response reported. The shared sample's boundary also names an unwritten parent, at 1.03× its last response.
import { describe, expect, it } from 'vitest';
import { auditContexts } from '../analysis/audit-contexts';
import { loadText } from '../load/loader';

function rec(type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>): string {
  return JSON.stringify({ parentUuid, isSidechain: false, sessionId: 's-1', type, uuid, timestamp: '2025-11-07T18:32:00.000Z', version: '2.0.8', cwd: '/Users/dev/byte-bridges', ...extra });
}
const user = (uuid: string, parent: string | null, content: unknown, extra = {}) => rec('user', uuid, parent, { message: { role: 'user', content }, ...extra });
const assistant = (uuid: string, parent: string | null, text: string, context: number) =>
  rec('assistant', uuid, parent, { message: { id: `msg_${uuid}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text }], usage: { input_tokens: 10, cache_read_input_tokens: context - 110, cache_creation_input_tokens: 0, output_tokens: 100 } } });
const boundary = (logicalParent: string, preTokens: number) =>
  rec('system', 'b1', null, { logicalParentUuid: logicalParent, subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens } });

/** The summary names a file and a wish of the user's that only the turns in the other file hold. */
const SUMMARY =
  'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n' +
  '1. Primary Request: The user asked to add the pricing page and wire `src/pages/pricing/PlanTable.tsx` to the Stripe checkout.\n' +
  '2. Current work: styling the plan table.';

function session(logicalParent: string, preTokens: number) {
  const text = [
    user('u1', null, 'run the app'),
    assistant('a1', 'u1', 'The dev server is up on the usual port.', 50_045),
    boundary(logicalParent, preTokens),
    user('s1', 'b1', SUMMARY, { isCompactSummary: true }),
    user('u2', 's1', 'go on with the table'),
    assistant('a2', 'u2', 'Styling it now.', 30_000),
  ].join('\n');
  return loadText('d32a8ce8.jsonl', text).sessions[0]!;
}

describe('a Claude Code summary that covers turns of another file', () => {
  it('is told by a logical parent the file lacks and a preTokens far above the last reported context', () => {
    expect(session('a790157c-in-the-other-file', 158_881).compactions[0]!.coversUnheldTurns).toBe(true);
  });

  it('is not told by either alone: an unwritten parent at the last context, or a held parent after a large result', () => {
    // As the shared sample: the parent is never written, and preTokens is the last response's context.
    expect(session('never-written', 51_600).compactions[0]).not.toHaveProperty('coversUnheldTurns');
    // The parent is in the file: whatever raised the count after the last response, the file holds it.
    expect(session('a1', 158_881).compactions[0]).not.toHaveProperty('coversUnheldTurns');
  });

  it('judges nothing in that summary invented, and says so', () => {
    const [covered] = auditContexts(session('a790157c-in-the-other-file', 158_881));
    expect(covered!.readUnheldTurns).toBe(true);
    expect(covered!.invented).toEqual([]);
    expect(covered!.inventedInstructions).toEqual([]);
    // The same summary over a file that holds all it read: the path and the request no turn holds are listed.
    const [held] = auditContexts(session('never-written', 51_600));
    expect(held).not.toHaveProperty('readUnheldTurns');
    expect(held!.invented).toContain('src/pages/pricing/PlanTable.tsx');
    expect(held!.inventedInstructions.map((x) => x.sentence).join(' ')).toMatch(/pricing page/);
  });
});
