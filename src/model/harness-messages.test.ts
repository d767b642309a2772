import { describe, expect, it } from 'vitest';
import { isFramedReply, isHarnessItem, isHarnessMessage, userWordsOf } from './harness-messages';

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
      // Cline and Roo Code: tool results as user text, notices, the workspace snapshot.
      "[read_file for 'src/x.ts'] Result:\n1 | export const x = 1",
      "[execute_command for 'cd app && npm test'] Result:",
      '[attempt_completion] Result:',
      "[search_files for 'TODO' in '*.ts'] Result:",
      '<environment_details>\n# Current Working Directory (/home/dev/app) Files',
      '[TASK RESUMPTION] This task was interrupted 3 minutes ago.',
      '[ERROR] You did not use a tool in your previous response! Please retry with a tool use.',
    ]) {
      expect(isHarnessMessage(text), text).toBe(true);
    }
  });

  it('leaves what a person typed, also when it quotes a tag later on', () => {
    for (const text of ['continue', 'Why did the <system-reminder> fire?', 'Work on bead spotter-dov.', 'The hook failed, fix it', '[Image #1] why is this red?', 'Result: the [read_file] tool broke']) {
      expect(isHarnessMessage(text), text).toBe(false);
    }
  });
});

describe('userWordsOf', () => {
  const user = (text: string, meta?: Record<string, boolean | string>) => ({ role: 'user' as const, kind: 'message' as const, text, ...(meta ? { meta } : {}) });

  it("gives a person's message whole, and nothing of a record the harness flags", () => {
    expect(userWordsOf(user('fix the build'))).toBe('fix the build');
    const skill = user('Base directory for this skill: /Users/me/.claude/skills/pdf\n\n# PDF', { isMeta: true, sourceToolUseID: 'toolu_1' });
    expect(userWordsOf(skill)).toBeNull();
    expect(isHarnessItem(skill)).toBe(true);
    expect(userWordsOf({ role: 'assistant', kind: 'message', text: 'hi' })).toBeNull();
    expect(userWordsOf({ role: 'user', kind: 'tool_result', text: 'out' })).toBeNull();
  });

  it('keeps only the wrapped words of a turn the harness writes', () => {
    const framed = { wrapsUserWords: true };
    expect(userWordsOf(user('<task>\nAdd a --verbose flag\n</task>', framed))).toBe('Add a --verbose flag');
    expect(userWordsOf(user('<feedback>\ncap it at 3\n</feedback>', framed))).toBe('cap it at 3');
    expect(userWordsOf(user("[ask_followup_question for 'Which one?'] Result:\n<answer>\nThe second\n</answer>"))).toBe('The second');
    expect(userWordsOf(user('New instructions for task continuation:\n<user_message>\ngo on\n</user_message>', framed))).toBe('go on');
    // The output block after a bare `[tool] Result:` header, and a framing sentence: no person's words.
    for (const text of ['Command executed.\nOutput:\nok', 'The user has provided feedback on the results.', '# TODO LIST UPDATE REQUIRED']) {
      expect(userWordsOf(user(text, framed)), text).toBeNull();
      expect(isHarnessItem(user(text, framed))).toBe(true);
    }
    expect(isFramedReply(user('<feedback>\ncap it\n</feedback>', framed))).toBe(true);
    // What a person typed after a Claude Code slash command; a bare command is the harness's alone.
    const command = (args: string) => user(`<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>${args}</command-args>`);
    expect(userWordsOf(command('src/a.ts only'))).toBe('src/a.ts only');
    expect(userWordsOf(command(''))).toBeNull();
    expect(isFramedReply(user('cap it'))).toBe(false);
  });
});
