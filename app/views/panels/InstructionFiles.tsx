// The instruction files the summary audit read (CLAUDE.md, AGENTS.md, GEMINI.md, MEMORY.md, .claude/rules/*.md), with
// a control to add more and a way to remove each. Harnesses put these files in every request without recording them,
// so what they hold was never lost; without them, the audit may list it as lost or invented. Under `serve`, those
// found where the session ran come with it, marked so. One quiet line: the audit's lists stay what the eye finds first.
import type { FormatId } from '../../../src/model/types';
import { addInstructionFiles, removeInstructionFile } from '../../data/instruction-files';
import { formatBytes } from '../../data/library-policy';
import { FilePicker } from '../../components/FilePicker';
import { useApp } from '../../store';
import type { AddedInstructionFile } from '../../store/session-slice';

/** Harnesses known to load such files without recording them, and the files each loads. */
const LOADS: Partial<Record<FormatId, string>> = {
  'claude-code': 'CLAUDE.md and auto memory',
  codex: 'AGENTS.md',
  'gemini-cli': 'GEMINI.md',
};

const NONE: readonly AddedInstructionFile[] = [];

/** A file found where the session ran, named from its working directory when it lies in it (the full path stays in the title). */
export const shownPath = (path: string, cwd: string | null): string => (cwd && path.startsWith(`${cwd.replace(/\/+$/, '')}/`) ? path.slice(cwd.replace(/\/+$/, '').length + 1) : path);

export function InstructionFiles({ sessionKey, format }: { sessionKey: string; format: FormatId }) {
  const files = useApp((s) => s.sessions.find((x) => x.key === sessionKey)?.instructionFiles) ?? NONE;
  const cwd = useApp((s) => {
    const cwd = s.sessions.find((x) => x.key === sessionKey)?.session.meta['cwd'];
    return typeof cwd === 'string' ? cwd : null;
  });
  const loads = LOADS[format];
  const picker = (
    <FilePicker
      label="Instruction files for the audit"
      accept=".md,text/markdown,text/plain"
      button={{ className: 'link instruction-add' }}
      onFiles={(picked) => void addInstructionFiles(sessionKey, picked)}
    >
      {files.length ? 'Add more…' : 'Add CLAUDE.md / AGENTS.md…'}
    </FilePicker>
  );
  if (files.length === 0) {
    // Other harnesses record what they load, or load no such files: nothing to say there (a drop still adds them).
    if (!loads) return null;
    return (
      <p className="muted small instruction-files">
        This audit cannot see files the harness loads without recording them ({loads}). {picker}
      </p>
    );
  }
  return (
    <div className="small instruction-files" role="group" aria-label="Instruction files read">
      <span className="muted">Read with</span>{' '}
      <ul className="instruction-list">
        {files.map((f) => (
          <li key={f.id} className="instruction-file">
            <code title={f.path}>{f.foundWhereItRan ? shownPath(f.path, cwd) : f.path}</code>{' '}
            <span className="muted">
              ({formatBytes(f.size)}
              {f.foundWhereItRan ? <span title="The server found it where the session ran, by the working directory the session recorded">, found where it ran</span> : null})
            </span>
            <button type="button" className="instruction-remove" aria-label={`Remove ${f.path}`} title={`Remove ${f.path}: the audit runs again without it`} onClick={() => removeInstructionFile(sessionKey, f.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {picker}
    </div>
  );
}
