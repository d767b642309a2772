import { describe, expect, it } from 'vitest';
import { useApp } from '../store';
import { MAX_INSTRUCTION_BYTES, readInstructionFiles, withInstructionFiles } from './instruction-files';

describe('readInstructionFiles', () => {
  it('reads the text of each file, its size in bytes and an id of its own, from files and pasted text alike', async () => {
    const [a, b] = await readInstructionFiles([
      { path: '.claude/rules/db.md', source: new File(['- port 5432 · ok'], 'db.md') },
      { path: 'AGENTS.md', source: { name: 'AGENTS.md', text: 'é' } },
    ]);
    expect(a).toMatchObject({ path: '.claude/rules/db.md', text: '- port 5432 · ok', size: 17 });
    expect(b).toMatchObject({ path: 'AGENTS.md', text: 'é', size: 2 });
    expect(a!.id).not.toBe(b!.id);
  });

  it('leaves out a file too big to be instructions, and says so', async () => {
    const big = new File([new Uint8Array(MAX_INSTRUCTION_BYTES + 1)], 'MEMORY.md');
    const read = await readInstructionFiles([{ path: 'MEMORY.md', source: big }, { path: 'CLAUDE.md', source: { name: 'CLAUDE.md', text: '- a' } }]);
    expect(read.map((f) => f.path)).toEqual(['CLAUDE.md']);
    expect(useApp.getState().notices.find((n) => n.id === 'instructions-too-big')?.text).toMatch(/^MEMORY\.md: over 1 MB/);
  });
});

describe('withInstructionFiles', () => {
  it('adds files after those there, once: the same path and text again adds nothing, another text under one name is kept', () => {
    const f = (id: number, path: string, text: string) => ({ id, path, text, size: text.length });
    const had = [f(1, 'CLAUDE.md', 'a')];
    expect(withInstructionFiles(had, [f(2, 'CLAUDE.md', 'a'), f(3, 'CLAUDE.md', 'b'), f(4, 'MEMORY.md', 'a')]).map((x) => x.id)).toEqual([1, 3, 4]);
  });
});
