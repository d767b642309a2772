// The audit's rules about what belongs to the project and what backs a value, each on a small hand-made session.
import { describe, expect, it } from 'vitest';
import { auditSummary, backedLoosely } from './audit-summary';
import { callFormIn } from './normalize';
import { ProjectScope } from './project-scope';
import { relevance } from './relevance';
import { inventedInstructions, userWordsInResult } from './invented-instructions';

const file = (path: string) => ({ tool: 'Read', target: path, file: path, writes: false, kind: 'file' as const });
const cmd = (command: string) => ({ tool: 'Bash', target: command, file: null, writes: false, kind: 'command' as const });

describe('kept under another spelling', () => {
  it('keeps a path the summary names by its file name alone, but not by another folder\'s file of that name', () => {
    const sources = ['Read lib/shop/live/checkout_live.ex', 'Read app/services/page.tsx'];
    const alone = auditSummary({ summary: 'Fixed the total in checkout_live.ex.', sources, later: [] });
    expect(alone.kept).toContain('lib/shop/live/checkout_live.ex');
    const other = auditSummary({ summary: 'Edited app/page.tsx.', sources, later: [] });
    expect(other.lost).toContain('app/services/page.tsx');
  });
});

describe('project scope', () => {
  const cwd = '/home/dev/shop';
  it('counts a path the user wrote as a file of the project', () => {
    const scope = new ProjectScope([{ text: 'please read .claude/CLAUDE.md first', role: 'user', kind: 'message' }], cwd);
    expect(scope.shows('.claude/CLAUDE.md')).toBe(true);
    expect(scope.shows('docs/never-seen.md')).toBe(false);
  });

  it('resolves an import specifier without its extension to a file the session shows', () => {
    const scope = new ProjectScope([{ text: 'x', kind: 'tool_call', target: file('/home/dev/shop/shared/avatarPresets.ts') }], cwd);
    expect(scope.showsModule('../../shared/avatarPresets')).toBe(true);
    expect(scope.showsModule('../../shared/otherThing')).toBe(false);
  });

  it('leaves out a bare file name several of the project\'s files share, not one file listed and read', () => {
    const scope = new ProjectScope(
      [
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/app/api/a/route.ts') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/app/api/b/route.ts') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/stores/cartStore.ts') },
        { text: 'stores/cartStore.ts', kind: 'tool_result', target: cmd('ls stores') },
      ],
      cwd,
    );
    expect(scope.sharedName('route.ts')).toBe(true);
    expect(scope.sharedName('cartStore.ts')).toBe(false);
    const occ = [{ text: 'edit route.ts', kind: 'tool_call' }];
    expect(relevance({ kind: 'path', value: 'route.ts', index: 0 }, occ, scope)).toBe('irrelevant');
  });

  it('reads a path after a status column or a command on a shown line as that path, not another file of its name', () => {
    // Modelled on JanDeDobbeleer/oh-my-posh (`git status --short` after an ls) and Schofield90/atlas-fitness-onboarding
    // (a `git add` command whose one quoted argument reads as a path).
    const scope = new ProjectScope(
      [
        { text: 'writer.go\nwriter_hyperlink_test.go', kind: 'tool_result', target: cmd('ls src/terminal/') },
        { text: ' M src/terminal/writer_hyperlink_test.go', kind: 'tool_result', target: cmd('git status --short') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/src/terminal/writer_hyperlink_test.go') },
        { text: 'Bash({"command":"git add app/page.tsx apps/web/DEPLOY.md"})', kind: 'tool_call', target: cmd('git add app/page.tsx apps/web/DEPLOY.md') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/apps/web/DEPLOY.md') },
        { text: 'Bash({"command":"git add scripts/copy.js apps/web/DEPLOY.md"})', kind: 'tool_call', target: cmd('git add scripts/copy.js apps/web/DEPLOY.md') },
        // `git status --short` run in a subfolder prints the path relative to it.
        { text: 'M web/stores/typographyStore.ts', kind: 'tool_result', target: cmd('cd apps && git status --short') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/apps/web/stores/typographyStore.ts') },
      ],
      cwd,
    );
    expect(scope.sharedName('writer_hyperlink_test.go')).toBe(false);
    expect(scope.sharedName('DEPLOY.md')).toBe(false);
    expect(scope.sharedName('typographyStore.ts')).toBe(false);
    expect(relevance({ kind: 'path', value: 'DEPLOY.md', index: 0 }, [{ text: 'Read DEPLOY.md', kind: 'tool_call' }], scope)).toBe('relevant');
    // Two folders' files of one name stay two, also when a command names both.
    const two = new ProjectScope(
      [
        { text: 'Bash({"command":"git add a/DEPLOY.md b/DEPLOY.md"})', kind: 'tool_call', target: cmd('git add a/DEPLOY.md b/DEPLOY.md') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/a/DEPLOY.md') },
        { text: 'x', kind: 'tool_call', target: file('/home/dev/shop/b/DEPLOY.md') },
      ],
      cwd,
    );
    expect(two.sharedName('DEPLOY.md')).toBe(true);
  });

  it('reads a date inside a file name as part of the name', () => {
    const scope = new ProjectScope([], cwd);
    const inName = [{ text: './notes/2024-05-23 - Board meeting.md', kind: 'tool_result' }];
    const inProse = [{ text: 'The release is due 2024-05-23.', kind: 'tool_result' }];
    expect(relevance({ kind: 'date', value: '2024-05-23', index: 0 }, inName, scope)).toBe('irrelevant');
    expect(relevance({ kind: 'date', value: '2024-05-23', index: 0 }, inProse, scope)).toBe('relevant');
  });
});

describe('call form', () => {
  it('finds a name of several words wherever it stands as a word, a one-word name only when called', () => {
    expect(callFormIn('<ChatEmptyState onReset={reset} />', 'ChatEmptyState()')).toBe(true);
    expect(callFormIn('import { loadWorkbook } from "./xl"', 'loadWorkbook()')).toBe(true);
    expect(callFormIn('Date: 2026-03-01', 'Date()')).toBe(false);
    expect(callFormIn('we clear the cache', 'clear()')).toBe(false);
    expect(callFormIn('cache.clear()', 'clear()')).toBe(true);
  });
});

describe('later use through a tool call', () => {
  it('reads a later call by the file it opens, not by the content it writes', () => {
    const audit = auditSummary({
      summary: 'Worked on the cart.',
      sources: ['Read /tmp/cart-dump.json'],
      sourceMeta: [{ role: 'tool', kind: 'tool_call', target: file('/tmp/cart-dump.json') }],
      later: [{ id: 'w', role: 'assistant', kind: 'tool_call', text: 'Write notes.md: see /tmp/cart-dump.json', target: { ...file('notes.md'), writes: true } }],
      project: { cwd: '/home/dev/shop' },
    });
    // A scratch file counts only when a later call opens that exact path; this call opens notes.md.
    expect(audit.lostReferencedLater).toEqual([]);
  });
});

describe('re-fetched after a question', () => {
  it('counts a value the user asked for and a fresh output brought back as re-fetched, not output alone', () => {
    const input = {
      summary: 'Fixed the connection leak.',
      sources: ['ledger-reconcile v2.14.3 (build 8812)'],
      later: [
        { id: 'q', role: 'user', kind: 'message', text: 'Which version introduced the leak?' },
        { id: 'c', role: 'assistant', kind: 'tool_call', text: 'git log --oneline -4', callId: undefined },
        { id: 'r', role: 'tool', kind: 'tool_result', text: 'a41c9e2 (tag: v2.14.3) perf: batch updates', callId: 'c' },
      ],
    };
    expect(auditSummary(input).lostRefetchedLater).toEqual([{ value: 'v2.14.3', itemId: 'c', via: 'reprint', usedIn: 'q' }]);
    const noQuestion = { ...input, later: input.later.slice(1) };
    expect(auditSummary(noQuestion).lostRefetchedLater).toEqual([]);
  });
});

describe('invented, but backed by the source', () => {
  it('backs a path written relative to the working directory, a URL without its glob tail, a loopback address by another name', () => {
    expect(backedLoosely({ kind: 'path', value: '/repo/NOTES.md', index: 0 }, 'see notes.md', '/repo')).toBe(true);
    expect(backedLoosely({ kind: 'url', value: 'https://api.acme.io/auth/v1/*', index: 0 }, 'calls https://api.acme.io/auth/v1/token')).toBe(true);
    expect(backedLoosely({ kind: 'url', value: 'http://localhost:3000/', index: 0 }, 'listening on http://127.0.0.1:3000')).toBe(true);
    expect(backedLoosely({ kind: 'url', value: 'http://localhost:3001/', index: 0 }, 'listening on http://127.0.0.1:3000')).toBe(false);
  });

  it('backs a range of numbered names by its first and last, and a large quantity by its number with another unit', () => {
    expect(backedLoosely({ kind: 'ticket', value: 'EVT2-8', index: 0 }, 'evt2_date, evt3_date, evt8_date')).toBe(true);
    expect(backedLoosely({ kind: 'ticket', value: 'EVT2-9', index: 0 }, 'evt2_date, evt3_date, evt8_date')).toBe(false);
    expect(backedLoosely({ kind: 'quantity', value: '4096MB', index: 0 }, 'node --max-old-space-size=4096')).toBe(true);
    expect(backedLoosely({ kind: 'quantity', value: '40MB', index: 0 }, 'x=40')).toBe(false);
  });
});

describe('invented instructions', () => {
  it('takes the user\'s words from an answered question and from a rejected tool call', () => {
    expect(userWordsInResult('User has answered your questions: "Which DB?"="Use Postgres", "Tests?"="yes". You can now continue')).toEqual(['Use Postgres', 'yes']);
    expect(userWordsInResult("The user doesn't want to proceed with this tool use. the user said:\nkeep the old API")).toEqual(['keep the old API']);
  });

  // Modelled on entireio/cli (half A of session 46's judged flags): the claim goes on past a comma, and what follows
  // is the user's ("go through all issues, and for Critical 2 add also tests").
  it('reads a claim past its comma when the whole of it is mostly the user\'s', () => {
    const users = ['go through all issues, and for Critical 2 add also tests'];
    expect(inventedInstructions('User then requested fixes for all identified issues, with an e2e test for Critical 2.', users)).toEqual([]);
    // The clause alone still counts when the comment after the comma is the summarizer's own.
    expect(inventedInstructions('User requested all issues handled, which the agent did in three commits and a rebase onto main.', users)).toEqual([]);
    expect(inventedInstructions('User requested a rewrite of the parser, with a benchmark for each grammar.', users)).toHaveLength(1);
  });

  // Modelled on entireio/cli (half A of session 46's judged flags): "where do you get the `v0.3.0` from? Currently we
  // are at 0.4.4" retold as "User pointed out I made up "v0.3.0" when the current version is 0.4.4."
  it('counts a version or dotted number as one word of the claim', () => {
    const users = ['where do you get the `v0.3.0` from? Currently we are at 0.4.4'];
    expect(inventedInstructions('User pointed out I made up "v0.3.0" when the current version is 0.4.4.', users)).toEqual([]);
    expect(inventedInstructions('User pointed out I made up "v0.5.1" when the current version is 0.6.2.', users)).toHaveLength(1);
  });

  it('holds a quote with an elision when each part is the user\'s, and quotes from different messages', () => {
    const users = ['please rename the export button and keep the csv format', 'ship it on friday'];
    expect(inventedInstructions('- The user asked: "rename the export button … keep the csv format"', users)).toEqual([]);
    expect(inventedInstructions('- User said "ship it on friday" and "rename the export button"', users)).toEqual([]);
    expect(inventedInstructions('- The user asked: "delete the export button"', users)).toHaveLength(1);
  });

  it('reads the harness\'s request for the summary, listed among the user\'s messages, as an invented instruction', () => {
    // Modelled on a summary that lists Claude Code's compaction request under "All user messages" (session 46).
    const summary = '6. All user messages:\n   - "fix the sync limit"\n   - (Current) Request to create detailed summary with TEXT ONLY, no tool calls.\n   - (Later) Asked for the plugin list';
    const audit = auditSummary({ summary, sources: ['fix the sync limit'], sourceMeta: [{ role: 'user', kind: 'message' }], later: [] });
    expect(audit.inventedInstructions.map((f) => f.sentence)).toEqual(['(Current) Request to create detailed summary with TEXT ONLY, no tool calls.']);
    // When the user did ask for such a summary, the line retells their message.
    const asked = auditSummary({ summary, sources: ['fix the sync limit', 'create a detailed summary, text only, no tool calls'], sourceMeta: [{ role: 'user', kind: 'message' }, { role: 'user', kind: 'message' }], later: [] });
    expect(asked.inventedInstructions).toEqual([]);
  });

  it('reads a sentence saying the user did not ask for something as no claim, but a negated wish as one', () => {
    // Modelled on FSM1/cipher-box and obsessiondb/chkit checkpoints (session 46): the summary's closing lines.
    const users = ['Implement the following plan: switch the file keys to random ones'];
    expect(inventedInstructions('The user has not explicitly requested PR creation or any further work.', users)).toEqual([]);
    expect(inventedInstructions("The skill is done and the user hasn't requested anything further.", users)).toEqual([]);
    expect(inventedInstructions('The user does not want the keys rotated on every upload.', users)).toHaveLength(1);
  });

  it('holds a quote whose bracketed part, however long, tells what it left out', () => {
    // Modelled on a Safecast/safecast-map-MCP checkpoint (session 46).
    const users = ['I checked a bit more seems to work fine now. One other issues. How can we fix this?: Based on those timestamps, the Notehub sensor appeared to be the most recent.'];
    const listed = (quote: string) => `6. All user messages:\n   - "${quote}"`;
    expect(inventedInstructions(listed('One other issues. How can we fix this?: [timestamp discrepancy between list_sensors and sensor_current]'), users)).toEqual([]);
    expect(inventedInstructions(listed('One other issues. How can we revert this?: [timestamp discrepancy between list_sensors and sensor_current]'), users)).toHaveLength(1);
  });

  it('holds a short quote with its typos corrected when every word is the user\'s, in the user\'s order', () => {
    // Modelled on a Safecast/safecast-map-MCP checkpoint (session 46).
    const users = ['You had access beore as far as I know..\nHow I I help you?'];
    const listed = (quote: string) => `6. All user messages:\n   - "${quote}"`;
    expect(inventedInstructions(listed('You had access before as far as I know.. How can I help you?'), users)).toEqual([]);
    expect(inventedInstructions(listed('You know I help as far as you had access?'), users)).toHaveLength(1);
  });

  it('reads words joined by hyphens as the words written apart', () => {
    // Modelled on an entireio/cli checkpoint (session 46): the summary hyphenates what the user wrote apart.
    const users = ['can you summarize our feature set on line level attribution for auto commit and manual commit'];
    expect(inventedInstructions('User asked me to summarize the feature set for auto-commit and manual-commit strategies regarding line-level attribution.', users)).toEqual([]);
    expect(inventedInstructions('User asked me to remove the auto-commit strategy and its line-level attribution.', ['can you summarize our feature set'])).toHaveLength(1);
  });

  it('does not compare an English claim word by word with messages written in Chinese', () => {
    expect(inventedInstructions('- The user asked to translate the README.', ['请把 README 翻译成英文'])).toEqual([]);
    expect(inventedInstructions('- The user asked to translate the README.', ['please fix the login bug'])).toHaveLength(1);
  });
});

describe('test and fixture literals', () => {
  const cwd = '/home/dev/cli';
  const scope = new ProjectScope([{ text: 'x', kind: 'tool_call', target: file('/home/dev/cli/strategy/overlap.go') }], cwd);
  const id = (value: string) => ({ kind: 'path' as const, value, index: 0 });
  const grep = { tool: 'Grep', target: 'filesOverlap in strategy', file: null, writes: false, kind: 'search' as const };
  const write = (path: string) => ({ tool: 'Edit', target: path, file: path, writes: true, kind: 'file' as const });

  it('leaves out a name only a search hit in a test file quotes, or only a test file the agent writes holds', () => {
    const hit = { kind: 'tool_result', role: 'tool', target: grep, text: 'strategy/overlap_test.go:97:\tresult := filesOverlap(repo, []string{"newfile.txt"})' };
    expect(relevance(id('newfile.txt'), [hit], scope)).toBe('irrelevant');
    const written = { kind: 'tool_call', role: 'assistant', target: write('/home/dev/cli/strategy/overlap_test.go'), text: 'Edit({"new_string":"remaining := f(repo, []string{\\"test.txt\\", \\"other.txt\\"})"})' };
    expect(relevance(id('other.txt'), [written], scope)).toBe('irrelevant');
  });

  it('keeps the test file itself, and a name the project\'s own code also holds', () => {
    const hit = { kind: 'tool_result', role: 'tool', target: grep, text: 'strategy/overlap_test.go:97:\tresult := filesOverlap(repo)' };
    const shown = new ProjectScope([{ text: 'x', kind: 'tool_call', target: file('/home/dev/cli/strategy/overlap_test.go') }], cwd);
    expect(relevance(id('strategy/overlap_test.go'), [hit], shown)).toBe('relevant');
    const code = { kind: 'tool_result', role: 'tool', target: grep, text: 'strategy/overlap.go:12:\tconst manifest = "newfile.txt"' };
    const both = new ProjectScope([{ text: 'ls\nnewfile.txt', kind: 'tool_result', target: cmd('ls') }], cwd);
    expect(relevance(id('newfile.txt'), [code], both)).toBe('relevant');
  });
});

describe('invented, but an elided path', () => {
  it('backs a path whose ellipsis stands for segments by a source path with segments there, not by another path', () => {
    const id = { kind: 'path' as const, value: '/repository/files/.../raw', index: 0 };
    expect(backedLoosely(id, 'get(f"{base}/projects/{pid}/repository/files/{encoded_file_path}/raw")')).toBe(true);
    expect(backedLoosely(id, 'get(f"{base}/projects/{pid}/repository/tree")')).toBe(false);
  });
});

describe('module paths', () => {
  const cwd = '/home/dev/cli';
  const scope = new ProjectScope([{ text: 'x', kind: 'tool_call', target: file('/home/dev/cli/cmd/app/session/state.go') }], cwd);
  it('reads a host-rooted module path as an import, needed only when a later call takes it as its argument', () => {
    const read = { kind: 'tool_result', role: 'tool', target: file('/home/dev/cli/cmd/app/cleanup.go'), text: '    15→\t"github.com/acme/cli/cmd/app/session"' };
    expect(relevance({ kind: 'path', value: 'github.com/acme/cli/cmd/app/session', index: 0 }, [read], scope)).toBe('exact-path');
    const audit = auditSummary({
      summary: 'Cleaned up sessions.',
      sources: [read.text],
      sourceMeta: [read],
      later: [
        { id: 'out', role: 'tool', kind: 'tool_result', target: cmd('go test ./...'), text: 'ok  \tgithub.com/acme/cli/cmd/app/session\t(cached)' },
        { id: 'w', role: 'assistant', kind: 'tool_call', target: { ...file('/home/dev/cli/cmd/app/x_test.go'), tool: 'Write', writes: true }, text: 'Write({"content":"import \\"github.com/acme/cli/cmd/app/session\\""})' },
      ],
      project: { cwd },
    });
    expect([...audit.lostReferencedLater, ...audit.lostRefetchedLater]).toEqual([]);
    const run = auditSummary({ ...{ summary: 'Cleaned up sessions.', sources: [read.text], sourceMeta: [read], project: { cwd } }, later: [{ id: 't', role: 'assistant', kind: 'tool_call', target: cmd('go test github.com/acme/cli/cmd/app/session'), text: 'Bash({"command":"go test github.com/acme/cli/cmd/app/session"})' }] });
    expect(run.lostReferencedLater.map((r) => r.value)).toEqual(['github.com/acme/cli/cmd/app/session']);
  });
});
