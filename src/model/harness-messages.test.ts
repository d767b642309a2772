import { describe, expect, it } from 'vitest';
import { isHarnessMessage } from './harness-messages';

describe('isHarnessMessage', () => {
  it('recognizes the messages Claude Code and Codex write into the user turn', () => {
    for (const text of [
      '<task-notification>\n<task-id>b7636e2</task-id>\n<status>completed</status>',
      '<system-reminder>The TodoWrite tool has not been used recently.</system-reminder>',
      '<command-name>/compact</command-name>\n<command-message>compact</command-message>',
      '<local-command-stdout>Compacted</local-command-stdout>',
      '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>',
      '# AGENTS.md instructions for /repo',
      '[Request interrupted by user for tool use]',
      'PreToolUse:Bash hook error: blocked',
    ]) {
      expect(isHarnessMessage(text), text).toBe(true);
    }
  });

  it('leaves what a person typed, also when it quotes a tag later on', () => {
    for (const text of ['continue', 'Why did the <system-reminder> fire?', 'Work on bead spotter-dov.', 'The hook failed, fix it']) {
      expect(isHarnessMessage(text), text).toBe(false);
    }
  });
});
