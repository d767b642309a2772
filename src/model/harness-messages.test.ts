import { describe, expect, it } from 'vitest';
import { byPerson, directionsOf, isFramedReply, isHarnessItem, isHarnessMessage, teammateMessages, teammateWordsOf, userWordsOf } from './harness-messages';
import { ASSIGNMENT_AND_PEER_NOTE, IDLE_AND_SHUTDOWN, LEAD_ORDERS, TEAMMATE_REPORT } from '../test/team-messages';

describe('isHarnessMessage', () => {
  it('recognizes the messages Claude Code and Codex write into the user turn', () => {
    for (const text of [
      '<task-notification>\n<task-id>b7636e2</task-id>\n<status>completed</status>',
      '<system-reminder>The TodoWrite tool has not been used recently.</system-reminder>',
      '<command-name>/compact</command-name>\n<command-message>compact</command-message>',
      '<local-command-stdout>Compacted</local-command-stdout>',
      '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>',
      // Claude Code's IDE extension, a text block before the person's words (caochitam/aos, 2.1.38).
      '<ide_opened_file>The user opened the file /root/.claude.json.backup in the IDE. This may or may not be related to the current task.</ide_opened_file>',
      '<ide_selection>The user selected the lines 3 to 9 from /repo/src/a.ts:\nconst x = 1;\n\nThis may or may not be related to the current task.</ide_selection>',
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

describe('teammate messages (Claude Code agent teams)', () => {
  const user = (text: string) => ({ role: 'user' as const, kind: 'message' as const, text });

  it('reads each block: its sender, its summary (a `>` in it too), its body, and a JSON body as the protocol', () => {
    expect(teammateMessages(ASSIGNMENT_AND_PEER_NOTE)).toEqual([
      { from: 'team-lead', body: expect.stringContaining('"task_assignment"'), protocol: 'task_assignment' },
      { from: 'ui-dev', summary: 'ProfileListScreen done -> wire the nav', body: 'ProfileListScreen is ready for navigation. Golden tests for ProfileCard are still pending.' },
    ]);
    expect(teammateMessages(IDLE_AND_SHUTDOWN).map((m) => [m.from, m.protocol])).toEqual([
      ['proxy-fix', 'idle_notification'],
      ['system', 'teammate_terminated'],
      ['proxy-fix', 'shutdown_approved'],
    ]);
    // A person who writes about the tag is no teammate.
    expect(teammateMessages('why does <teammate-message teammate_id="x"> show as mine?')).toEqual([]);
  });

  it('gives none of it as the words of a person, yet shows the words an agent wrote apart from the harness', () => {
    for (const text of [LEAD_ORDERS, ASSIGNMENT_AND_PEER_NOTE, TEAMMATE_REPORT, IDLE_AND_SHUTDOWN]) expect(userWordsOf(user(text)), text).toBeNull();
    expect(isHarnessItem(user(LEAD_ORDERS))).toBe(false);
    expect(isHarnessItem(user(TEAMMATE_REPORT))).toBe(false);
    expect(teammateWordsOf(user(ASSIGNMENT_AND_PEER_NOTE)).map((m) => m.from)).toEqual(['ui-dev']);
    // Protocol alone (an idle notice, a shutdown, the system's notice) is the harness's traffic.
    expect(isHarnessItem(user(IDLE_AND_SHUTDOWN))).toBe(true);
    expect(teammateWordsOf(user(IDLE_AND_SHUTDOWN))).toEqual([]);
  });

  it("reads another Claude session's message (SendMessage across sessions) as that session's words, directing nobody", () => {
    // The envelope as tools that read Claude Code's prompts parse it (from about 2.1.224): a preamble, the block, a coda.
    const fromPeer =
      'Another Claude session sent a message:\n<cross-session-message from="uds:/tmp/cc-socks/45035.sock" from-name="api" from-mode="prompting">\ntests are green on the api branch\n</cross-session-message>\nThis came from another Claude session. Reply via SendMessage.';
    expect(userWordsOf(user(fromPeer))).toBeNull();
    expect(isHarnessItem(user(fromPeer))).toBe(false);
    expect(teammateWordsOf(user(fromPeer))).toEqual([{ from: 'api', body: 'tests are green on the api branch' }]);
    expect(directionsOf(user(fromPeer))).toBeNull();
    // Without a name, the address it came from.
    expect(teammateMessages('<cross-session-message from="a">hello</cross-session-message>')).toEqual([{ from: 'a', body: 'hello' }]);
    // A person who writes about the tag is still the person.
    expect(userWordsOf(user('what is a <cross-session-message> block?'))).toBe('what is a <cross-session-message> block?');
  });

  it("takes the lead's words as what directs a teammate, and a peer's note or a report to the lead as directing nobody", () => {
    expect(directionsOf(user(LEAD_ORDERS))).toContain('Task INT-5: disconnect the VPN before switching profiles.');
    expect(directionsOf(user(ASSIGNMENT_AND_PEER_NOTE))).toBeNull();
    expect(directionsOf(user(TEAMMATE_REPORT))).toBeNull();
    expect(directionsOf(user('fix the build'))).toBe('fix the build');
  });
});

describe('byPerson', () => {
  it("takes origin human, or none, as the person's, and any other origin as someone else's", () => {
    expect(byPerson(undefined)).toBe(true);
    expect(byPerson({ isMeta: true })).toBe(true);
    expect(byPerson({ origin: 'human' })).toBe(true);
    // Kinds seen in public sessions and named in Claude Code's own code; a kind never seen is read the same way.
    for (const origin of ['task-notification', 'peer', 'auto-continuation', 'a-kind-not-yet-named']) expect(byPerson({ origin }), origin).toBe(false);
  });
});

describe('userWordsOf on a record that names its origin', () => {
  const said = (text: string, meta: Record<string, string | boolean>) => userWordsOf({ role: 'user', kind: 'message', text, meta });
  it("reads the person's words under origin human, and none under any other, whatever the text opens with", () => {
    expect(said('run the migration again', { origin: 'human' })).toBe('run the migration again');
    expect(said('run the migration again', { origin: 'task-notification' })).toBeNull();
    expect(isHarnessItem({ role: 'user', kind: 'message', text: 'run the migration again', meta: { origin: 'task-notification' } })).toBe(true);
    // A harness text stays the harness's under origin human (a slash command's echo with no arguments), and an
    // `isMeta` record too (its expansion); the person's words in the echo's arguments stay theirs.
    expect(said('<command-message>create-pr</command-message>\n<command-name>/create-pr</command-name>', { origin: 'human' })).toBeNull();
    expect(said('## Context\n\n- Current branch: main', { origin: 'human', isMeta: true })).toBeNull();
    expect(said('<command-name>/review</command-name>\n<command-args>src/a.ts</command-args>', { origin: 'human' })).toBe('src/a.ts');
  });

  it("still reads another agent's block as that agent's words under a non-human origin", () => {
    const item = { role: 'user' as const, kind: 'message' as const, text: TEAMMATE_REPORT, meta: { origin: 'peer' } };
    expect(userWordsOf(item)).toBeNull();
    expect(teammateWordsOf(item).length).toBeGreaterThan(0);
    expect(isHarnessItem(item)).toBe(false);
  });
});
