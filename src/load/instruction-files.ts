// Files a harness puts in every request without recording them in the session: project and user instructions
// (Claude Code's CLAUDE.md, CLAUDE.local.md and .claude/rules/*.md, Codex's AGENTS.md, Gemini CLI's GEMINI.md) and
// Claude Code's auto memory (MEMORY.md). Told by name alone, before any byte is read, so a drop of them with a session
// (or onto one) adds them to it instead of loading them as sessions. No engine imports: the drop zone reads it up front.

/** The names harnesses load as instructions or memory, in any letter case (a user's copy may be renamed so). */
const NAMES = new Set(['claude.md', 'claude.local.md', 'agents.md', 'agents.override.md', 'gemini.md', 'memory.md']);

/** A Markdown file under a `.claude/rules/` folder (Claude Code loads every one, in subfolders too). */
const RULES = /(^|\/)\.claude\/rules\/(.+\/)?[^/]+\.md$/i;

/** Whether `path` (a file's name, or its path under a dropped folder) names an instruction or memory file. */
export function isInstructionFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return NAMES.has(name) || RULES.test(path);
}

/** Whether a dropped folder is one a harness keeps such files in (`.claude`): walked although its name starts with a dot. */
export function isInstructionFolder(name: string): boolean {
  return name === '.claude';
}
