// A session continued in a new file and compacted there: Claude Code writes the boundary and summary back into the
// first file too, so that file's summary covers turns it does not hold (src/test/continued-session.ts). The shared
// sample's boundary also names an unwritten parent, at 1.03× its last response's context.
import { describe, expect, it } from 'vitest';
import { auditContexts } from '../analysis/audit-contexts';
import { loadText } from '../load/loader';
import { continuedSession } from '../test/continued-session';

const session = (logicalParent: string, preTokens: number) => loadText('d32a8ce8.jsonl', continuedSession(logicalParent, preTokens)).sessions[0]!;

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
