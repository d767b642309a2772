import { describe, expect, it } from 'vitest';
import { asLoaded, instructionHarnessOf, isInstructionFile, MEMORY_LINES } from './instruction-files';

describe('instruction files', () => {
  it('are told by name, in any letter case, rules by their folder', () => {
    expect(['CLAUDE.md', 'proj/claude.local.md', 'AGENTS.md', 'x/GEMINI.md', 'MEMORY.md', 'p/.claude/rules/a/b.md'].every(isInstructionFile)).toBe(true);
    expect(['README.md', 'claude.txt', 'p/rules/a.md'].some(isInstructionFile)).toBe(false);
  });

  it('belong to the harness that reads them from a folder', () => {
    expect(instructionHarnessOf('/p/.claude/CLAUDE.md')).toBe('claude-code');
    expect(instructionHarnessOf('C:\\p\\AGENTS.md')).toBe('codex');
    expect(instructionHarnessOf('/p/GEMINI.md')).toBe('gemini-cli');
    expect(instructionHarnessOf('/p/.claude/rules/style.md')).toBe('claude-code');
  });

  it('are read as loaded: MEMORY.md to its 200th line, another file whole', () => {
    const long = Array.from({ length: MEMORY_LINES + 50 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(asLoaded('/h/.claude/projects/-p/memory/MEMORY.md', long).split('\n')).toHaveLength(MEMORY_LINES);
    expect(asLoaded('/h/.claude/projects/-p/memory/MEMORY.md', long)).toMatch(/line 200$/);
    expect(asLoaded('/p/CLAUDE.md', long)).toBe(long);
  });
});
