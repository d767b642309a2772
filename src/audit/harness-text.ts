// Framing text that harnesses wrap around a model-written summary (Claude Code's continuation notice and
// transcript pointer, Codex's summary prefix). The harness wrote it, not the summarizer, so it is neither an
// invented fact nor an injected instruction; the audit takes it out before checking the summary.

const HARNESS_TEXT: RegExp[] = [
  // Claude Code
  /This session is being continued from a previous conversation that ran out of context\.(?:\s*The (?:summary|conversation is summarized) below(?: covers the earlier portion of the conversation)?\.?:?)?/g,
  /If you need specific details from before compaction\b[^\n]*?read the full transcript at:\s*\S+/g,
  /(?:Please )?[Cc]ontinue the conversation from where (?:we|it) left (?:it )?off without asking the user any further questions\.(?:[^\n]*?(?:Continue with the last task that you were asked to work on\.|Pick up the last task as if the break never happened\.))?/g,
  /Recent messages are preserved verbatim\./g,
  // Codex (codex-rs templates/compact/summary_prefix.md)
  /Another language model started to solve this problem and produced a summary of its thinking process\.(?:[^\n]*?use the information in this summary to assist with your own analysis:)?/g,
];

/** The summary with known harness framing removed (replaced by a space, so offsets of the rest shift). */
export function stripHarnessText(summary: string): string {
  return HARNESS_TEXT.reduce((text, re) => text.replace(re, ' '), summary);
}
