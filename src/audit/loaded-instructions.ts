// Claude Code sends the project's CLAUDE.md files in every request under their paths ("Contents of
// /home/u/shop/CLAUDE.md (project instructions, checked into the codebase):"): the working directory's and each
// folder's above it, CLAUDE.local.md and .claude/CLAUDE.md beside them, and the user's ~/.claude/CLAUDE.md; it loads
// them again after a compaction, and no session file records them. So such a path was never out of the model's
// context: it is not lost, whether or not the files themselves are given (what they say counts only then).
import { FOLDER_INSTRUCTION_FILES } from '../load/instruction-files';
import type { FormatId } from '../model/types';
import { namedByAutoMemory, showsAutoMemory } from './auto-memory';
import type { Identifier } from './identifiers';

const NAMES: readonly string[] = FOLDER_INSTRUCTION_FILES.filter((f) => f.harness === 'claude-code').map((f) => f.path);

/** Is the path one of the CLAUDE.md files Claude Code loads for a session run in `cwd`? */
export function loadedByClaudeCode(id: Pick<Identifier, 'kind' | 'value'>, cwd: string | null): boolean {
  if (id.kind !== 'path') return false;
  const v = id.value.replace(/\\/g, '/').replace(/^\.\//, '').replace(/[`'"]+$/, '');
  if (NAMES.includes(v) || v === '~/.claude/CLAUDE.md' || /^\/(?:home\/[^/]+|Users\/[^/]+|root)\/\.claude\/CLAUDE\.md$/.test(v)) return true;
  const c = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (!c || !v.startsWith('/')) return false;
  // Absolute: in the working directory or a folder above it.
  const name = NAMES.find((n) => v.endsWith(`/${n}`));
  if (!name) return false;
  const folder = v.slice(0, v.length - name.length - 1);
  return folder === c || c.startsWith(`${folder}/`) || folder === '';
}

// Claude Code's system prompt also tells the model how to sign a commit or a pull request it writes ("🤖 Generated with
// [Claude Code](https://claude.com/claude-code)", `https://claude.ai/code` in older versions, "Co-Authored-By: Claude
// <noreply@anthropic.com>"): those addresses are in every request too.
const CLAUDE_CODE_SIGNATURE = /^(?:https?:\/\/claude\.(?:com\/claude-code|ai\/code)\/?|noreply@anthropic\.com)$/i;

/** Is the value an address of the signature Claude Code's system prompt gives commits and pull requests? */
export const inClaudeCodeSignature = (id: Pick<Identifier, 'kind' | 'value'>): boolean => (id.kind === 'url' || id.kind === 'email') && CLAUDE_CODE_SIGNATURE.test(id.value);

/**
 * Claude Code's plan file, `~/.claude/plans/<slug>.md`, where the slug is the one every record of the session carries.
 * In plan mode the harness names it in a reminder each turn, and after a compaction it attaches the file again
 * (`plan_file_reference`: its path and content, "to preserve the plan across compaction boundaries"); older versions
 * record neither in the session file.
 */
export const isPlanFile = (value: string, slug: string): boolean => {
  const v = value.replace(/[`'"]+$/, '').replace(/\\/g, '/');
  return v.toLowerCase().endsWith(`/plans/${slug.toLowerCase()}.md`);
};

/**
 * For one session, whether a lost identifier is a path the harness names in every request without recording it: its
 * auto-memory folder and MEMORY.md (auto-memory.ts; a bare `MEMORY.md` once `texts` show the folder) and, in a Claude
 * Code session, the CLAUDE.md files it loads, the session's plan file (given its `slug`) and its signature's addresses.
 * Both audits read lost identifiers through it.
 */
export function namedInEveryRequest(texts: () => Iterable<string>, format: FormatId | undefined, cwd: string | null, slug?: string | null): (id: Identifier) => boolean {
  let autoMemory: boolean | undefined;
  const showsMemory = () => {
    if (autoMemory === undefined) {
      autoMemory = false;
      for (const t of texts()) if (showsAutoMemory(t)) {
        autoMemory = true;
        break;
      }
    }
    return autoMemory;
  };
  return (id) =>
    (id.kind === 'path' &&
      (namedByAutoMemory(id, /MEMORY\.md$/.test(id.value) && showsMemory()) || (format === 'claude-code' && (loadedByClaudeCode(id, cwd) || (!!slug && isPlanFile(id.value, slug)))))) ||
    (format === 'claude-code' && inClaudeCodeSignature(id));
}
