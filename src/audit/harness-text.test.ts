import { describe, expect, it } from 'vitest';
import { stripHarnessText } from './harness-text';

describe('stripHarnessText', () => {
  it("removes Claude Code's continuation notice, transcript pointer and resume order, keeping the summary", () => {
    // Shape of a Claude Code `isCompactSummary` message: notice, model summary, pointer, resume order.
    const text =
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n' +
      'Summary:\n1. Fixed config/db.yaml.\n\n' +
      'If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/u/.claude/projects/-home-u-app/4d5611e5-241a-462a-8d15-5122611a9569.jsonl\n' +
      'Please continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.';
    expect(stripHarnessText(text).trim()).toBe('Summary:\n1. Fixed config/db.yaml.');
  });

  it('removes the newer resume order and a resume order glued to the end of the last line', () => {
    const newer =
      'Done.\nContinue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, do not recap what was happening, do not preface with "I\'ll continue" or similar. Pick up the last task as if the break never happened.';
    expect(stripHarnessText(newer).trim()).toBe('Done.');
    const glued = 'Next: wait for feedback.. Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.';
    expect(stripHarnessText(glued).trim()).toBe('Next: wait for feedback..');
  });

  it("removes Codex's summary prefix", () => {
    const text =
      'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\nThe build is green.';
    expect(stripHarnessText(text).trim()).toBe('The build is green.');
  });

  it('leaves a summary without harness framing unchanged', () => {
    expect(stripHarnessText('## Conversation Summary\n- **Facts:** continue the migration')).toBe('## Conversation Summary\n- **Facts:** continue the migration');
  });
});
