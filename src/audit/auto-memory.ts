// Claude Code's auto memory. Every request's system prompt names the project's memory folder ("You have a persistent
// auto memory directory at `/home/u/.claude/projects/-home-u-shop/memory/`"), says "MEMORY.md is always loaded into
// your system prompt", and loads that file's first lines; no session file records the prompt. So the folder and its
// MEMORY.md were never out of the model's context: neither is lost, nor invented when a summary names them. What
// MEMORY.md says reaches the audit only as a given instruction file (`--instructions auto` reads it where it ran).
import type { Identifier } from './identifiers';

const FOLDER = /(?:^|\/)\.claude\/projects\/[^/\s]+\/memory(\/[^\s]*)?$/;

/** Is the path Claude Code's auto-memory folder, or the MEMORY.md in it? (Its topic files are named only by MEMORY.md.) */
export function isAutoMemoryPath(value: string): boolean {
  const m = FOLDER.exec(value.replace(/\\/g, '/').replace(/[`'"]+$/, ''));
  return !!m && (m[1] === undefined || m[1] === '/' || m[1] === '/MEMORY.md');
}

/** Does the text name an auto-memory folder? Then the session ran with auto memory, and a bare MEMORY.md is that folder's. */
export const showsAutoMemory = (text: string): boolean => text.includes('/memory') && /\.claude[\\/]projects[\\/][^\\/\s]+[\\/]memory\b/.test(text);

/**
 * Is the identifier a path the harness names in every request: the auto-memory folder or its MEMORY.md, written
 * whole, or as `MEMORY.md` (`memory/MEMORY.md`) when the session shows that it ran with auto memory?
 */
export function namedByAutoMemory(id: Pick<Identifier, 'kind' | 'value'>, sessionShowsMemory: boolean): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/\\/g, '/').replace(/^\.\//, '');
  return isAutoMemoryPath(v) || (sessionShowsMemory && /^(?:memory\/)?MEMORY\.md$/.test(v));
}
