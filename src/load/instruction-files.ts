// Files a harness puts in every request without recording them in the session: project and user instructions
// (Claude Code's CLAUDE.md, CLAUDE.local.md and .claude/rules/*.md, Codex's AGENTS.md, Gemini CLI's GEMINI.md) and
// Claude Code's auto memory (MEMORY.md). Told by name alone, before any byte is read, so a drop of them with a session
// (or onto one) adds them to it instead of loading them as sessions. No engine imports: the drop zone reads it up front.

/** The files each harness reads from a project folder, in the order it reads them (Claude Code's rules come apart). */
export const FOLDER_INSTRUCTION_FILES = [
  { path: 'CLAUDE.md', harness: 'claude-code' },
  { path: 'CLAUDE.local.md', harness: 'claude-code' },
  { path: '.claude/CLAUDE.md', harness: 'claude-code' },
  { path: 'AGENTS.md', harness: 'codex' },
  { path: 'GEMINI.md', harness: 'gemini-cli' },
] as const;

/** The harness that reads a file of that name from a project folder (a rule file is Claude Code's). */
export function instructionHarnessOf(path: string): (typeof FOLDER_INSTRUCTION_FILES)[number]['harness'] {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return FOLDER_INSTRUCTION_FILES.find((f) => f.path === name)?.harness ?? 'claude-code';
}

/**
 * The names a drop is told by, in any letter case (a user's copy may be renamed so): the folder files, Codex's
 * override and Claude Code's auto memory, which the user may drop but no folder lookup reads.
 */
const NAMES = new Set([...FOLDER_INSTRUCTION_FILES.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1).toLowerCase()), 'agents.override.md', 'memory.md']);

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

/** Claude Code loads the first 200 lines of auto memory's MEMORY.md into the system prompt, no more. */
export const MEMORY_LINES = 200;

/** A file's text as its harness loads it: MEMORY.md cut after MEMORY_LINES lines, any other file whole. */
export function asLoaded(path: string, text: string): string {
  return /(?:^|[\\/])MEMORY\.md$/i.test(path) ? text.split('\n').slice(0, MEMORY_LINES).join('\n') : text;
}
