import { describe, expect, it } from 'vitest';
import { droppedFolders } from './dropped-folders';

// Fakes of the File System entries API as Chromium hands them to a drop handler.
type Fake = { isFile: boolean; isDirectory: boolean; name: string; fullPath: string; file?: (ok: (f: File) => void) => void; createReader?: () => { readEntries(ok: (e: Fake[]) => void): void } };

function file(path: string): Fake {
  const name = path.split('/').pop()!;
  return { isFile: true, isDirectory: false, name, fullPath: `/${path}`, file: (ok) => ok(new File(['{}'], name)) };
}

function dir(path: string, children: Fake[], pageSize = 2): Fake {
  return {
    isFile: false,
    isDirectory: true,
    name: path.split('/').pop()!,
    fullPath: `/${path}`,
    // readEntries hands out a few entries per call, then an empty list.
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          const batch = children.slice(at, at + pageSize);
          at += batch.length;
          ok(batch);
        },
      };
    },
  };
}

const transfer = (entries: (Fake | null)[]) => ({ items: entries.map((e) => ({ webkitGetAsEntry: () => e })) }) as unknown as DataTransfer;

describe('droppedFolders', () => {
  it('walks dropped folders for transcript files, reading every page of entries, skipping dot-folders', async () => {
    const tree = dir('runs', [file('runs/a.json'), dir('runs/7', [file('runs/7/b.jsonl'), file('runs/7/notes.md'), file('runs/7/c.ndjson')]), dir('runs/.cache', [file('runs/.cache/x.json')]), file('runs/d.JSONL')]);
    const pending = droppedFolders(transfer([tree]));
    expect(pending).not.toBeNull();
    const refs = await pending!;
    expect(refs.map((r) => r.path)).toEqual(['runs/a.json', 'runs/7/b.jsonl', 'runs/7/c.ndjson', 'runs/d.JSONL']);
    expect(refs[0]!.file).toBeInstanceOf(File);
  });

  it('takes instruction files under dropped folders, and of a .claude folder its CLAUDE.md and rules only', async () => {
    const claude = dir('.claude', [file('.claude/CLAUDE.md'), file('.claude/settings.json'), dir('.claude/rules', [file('.claude/rules/db.md'), dir('.claude/rules/api', [file('.claude/rules/api/style.md')])]), dir('.claude/projects', [file('.claude/projects/p/s.jsonl')])]);
    const project = dir('proj', [file('proj/AGENTS.md'), file('proj/README.md'), file('proj/s.jsonl')]);
    const refs = await droppedFolders(transfer([file('session.jsonl'), claude, project]))!;
    expect(refs.map((r) => r.path)).toEqual(['session.jsonl', '.claude/CLAUDE.md', '.claude/rules/db.md', '.claude/rules/api/style.md', 'proj/AGENTS.md', 'proj/s.jsonl']);
  });

  it('leaves drops without a folder to the ordinary path', () => {
    expect(droppedFolders(transfer([file('a.json'), null]))).toBeNull();
    expect(droppedFolders(null)).toBeNull();
  });
});
