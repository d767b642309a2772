// A search tool's output (Claude Code's Grep and Glob) lists each file it found by its absolute path at a line's start,
// as `grep -r` and `find` do: such a line found that file again, as any output that prints the absolute path whole does. Modelled on half A of bench/flag-judgements.json
// (Eduardodmb/ClaudeWork, s94–s95: Windows paths outside the working directory, printed by a fresh Grep before a Read).
import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';

const FILE = 'X:\\addons\\crm_fields\\models\\stage.py';
const grep = { tool: 'Grep', target: 'x_checklist', file: null, writes: false, kind: 'search' as const };
const read = { tool: 'Read', target: FILE, file: FILE, writes: false, kind: 'file' as const };

const input = (output: string) => ({
  sources: [`Found 3 files\n${FILE}\nX:\\addons\\crm_fields\\models\\lead.py`],
  sourceMeta: [{ role: 'tool' as const, kind: 'tool_result' as const, target: { ...grep, target: 'crm_fields' } }],
  summary: 'Working on the CRM checklist field.',
  later: [
    { id: 'g1', role: 'assistant' as const, kind: 'tool_call' as const, text: '{"pattern":"x_checklist"}', target: grep, callId: 'g1' },
    { id: 'g2', role: 'tool' as const, kind: 'tool_result' as const, text: output, target: grep, callId: 'g1' },
    { id: 'r1', role: 'assistant' as const, kind: 'tool_call' as const, text: JSON.stringify({ file_path: FILE }), target: read },
  ],
  project: { cwd: 'X:\\docs' },
});

describe("a search tool's output", () => {
  it('that prints the file at a line start brought it back: fetched again', () => {
    const audit = auditSummary(input(`${FILE}:33:    x_checklist = fields.Boolean(`));
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain(FILE);
    expect(audit.lostRefetchedLater.find((r) => r.value === FILE)).toMatchObject({ itemId: 'g1', usedIn: 'r1' });
  });
  it('that holds the absolute path inside a line brought it back too', () => {
    const audit = auditSummary(input(`see ${FILE} for the field`));
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain(FILE);
    expect(audit.lostRefetchedLater.find((r) => r.value === FILE)).toMatchObject({ itemId: 'g1', usedIn: 'r1' });
  });
  it('that holds a longer path did not', () => {
    const audit = auditSummary(input(`see ${FILE}.bak for the field`));
    expect(audit.lostReferencedLater.map((r) => r.value)).toContain(FILE);
  });
});
