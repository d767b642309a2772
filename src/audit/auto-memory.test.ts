import { describe, expect, it } from 'vitest';
import { auditSummary, type AuditInput } from './audit-summary';
import { isAutoMemoryPath, namedByAutoMemory, showsAutoMemory } from './auto-memory';
import type { CallTarget } from '../refetch/call-target';

const CWD = '/home/u/kiosk';
const MEMORY = '/home/u/.claude/projects/-home-u-kiosk/memory';
const edit = (file: string): CallTarget => ({ tool: 'Edit', target: file, file, writes: true, kind: 'file' });
const read = (file: string): CallTarget => ({ tool: 'Read', target: file, file, writes: false, kind: 'file' });
const call = (target: CallTarget) => ({ id: `c-${target.file}`, role: 'assistant' as const, kind: 'tool_call' as const, target, text: `${target.tool}({"file_path":"${target.file}"})` });
const needed = (input: AuditInput) => {
  const a = auditSummary(input);
  return [...a.lostReferencedLater.map((r) => r.value), ...a.lostRefetchedLater.map((r) => r.value)];
};

describe('Claude Code’s auto memory', () => {
  it('names the folder and its MEMORY.md, under any home, not the topic files beside it', () => {
    expect(isAutoMemoryPath(`${MEMORY}/MEMORY.md`)).toBe(true);
    expect(isAutoMemoryPath(`${MEMORY}/`)).toBe(true);
    expect(isAutoMemoryPath('~/.claude/projects/-Users-ana-shop/memory/MEMORY.md')).toBe(true);
    expect(isAutoMemoryPath(`${MEMORY}/debugging.md`)).toBe(false);
    expect(isAutoMemoryPath('/home/u/kiosk/memory/MEMORY.md')).toBe(false);
    expect(isAutoMemoryPath('/home/u/.claude/projects/-home-u-kiosk/abc.jsonl')).toBe(false);
  });

  it('reads a bare MEMORY.md as the folder’s only when the session shows the folder', () => {
    const bare = { kind: 'path' as const, value: 'MEMORY.md' };
    expect(showsAutoMemory(`Edit ${MEMORY}/MEMORY.md`)).toBe(true);
    expect(showsAutoMemory('docs/memory/notes.md')).toBe(false);
    expect(namedByAutoMemory(bare, true)).toBe(true);
    // A project of its own may keep a MEMORY.md: without the folder in sight it is that file.
    expect(namedByAutoMemory(bare, false)).toBe(false);
  });

  it('is never lost: the harness names it in every request, so a later edit of it shows no need', () => {
    const input: AuditInput = {
      summary: 'Recorded the kiosk’s build quirks.',
      sources: [`Edit({"file_path":"${MEMORY}/MEMORY.md"}) — see ${MEMORY}/debugging.md for the printer notes`],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: edit(`${MEMORY}/MEMORY.md`) }],
      later: [call(edit(`${MEMORY}/MEMORY.md`)), call(read(`${MEMORY}/debugging.md`))],
      project: { cwd: CWD },
    };
    const a = auditSummary(input);
    expect(a.lost).not.toContain(`${MEMORY}/MEMORY.md`);
    // A topic file is named only by MEMORY.md's text, which the audit reads when it is given: lost and used.
    expect(needed(input)).toEqual([`${MEMORY}/debugging.md`]);
  });
});
