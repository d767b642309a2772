import { describe, expect, it } from 'vitest';
import { emptySession } from '../../src/formats/adapter';
import { useApp } from '../store';
import { addFoundWhereItRan, MAX_INSTRUCTION_BYTES, readInstructionFiles, removeInstructionFile, withInstructionFiles } from './instruction-files';

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

describe('addFoundWhereItRan', () => {
  it('adds the files serve found to the session, marked as found where it ran, once however often, and the user can remove them', async () => {
    useApp.setState({ sessions: [], activeKey: null });
    useApp.getState().finishLoad(['s.jsonl'], [emptySession('claude-code', 's.jsonl', 's')], []);
    const key = useApp.getState().sessions[0]!.key;
    const found = [
      { path: '/home/me/.claude/CLAUDE.md', text: 'I prefer pnpm.' },
      { path: '/work/app/CLAUDE.md', text: 'The staging port is 7443.' },
    ];
    await addFoundWhereItRan(key, found);
    await addFoundWhereItRan(key, found);
    const files = () => useApp.getState().sessions[0]!.instructionFiles ?? [];
    expect(files().map((f) => [f.path, f.foundWhereItRan, f.size])).toEqual([
      ['/home/me/.claude/CLAUDE.md', true, 14],
      ['/work/app/CLAUDE.md', true, 25],
    ]);
    removeInstructionFile(key, files()[0]!.id);
    expect(files().map((f) => f.path)).toEqual(['/work/app/CLAUDE.md']);
  });

  it('adds nothing to a session closed meanwhile', async () => {
    useApp.setState({ sessions: [], activeKey: null });
    await addFoundWhereItRan('gone', [{ path: '/w/CLAUDE.md', text: 'x' }]);
    expect(useApp.getState().sessions).toEqual([]);
  });
});
