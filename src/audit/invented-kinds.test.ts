// Rules about what an invented identifier is, each on a small hand-made session (session 44, from the studied rows'
// false invented flags; docs/audit.md): what the transcript cannot show the summarizer read, a measure under another
// spelling of its unit, a route pattern, alternatives joined with slashes.
import { describe, expect, it } from 'vitest';
import { auditSummary, backedLoosely } from './audit-summary';
import { auditInputFor, auditSession } from './audit-session';
import { piecesBacked, scaledCountBacked } from './invented-backing';
import { loadText } from '../load/loader';
import type { IdentifierKind } from './identifiers';
import type { Item } from '../model/types';
import type { CallTarget } from '../refetch/call-target';
import { assistant, boundary, compaction, session, summary as summaryItem, toolCall, toolResult, user } from '../test/builders';

const CWD = '/home/u/kiosk';
const read = (file: string): CallTarget => ({ tool: 'Read', target: file, file, writes: false, kind: 'file' });
const write = (file: string): CallTarget => ({ tool: 'Write', target: file, file, writes: true, kind: 'file' });
const id = (kind: IdentifierKind, value: string) => ({ kind, value, index: 0 });
const paired = (call: Item, result: Item, isError = false): [Item, Item] => [
  { ...call, pairId: result.id },
  { ...result, pairId: call.id, ...(isError ? { isError: true } : {}) },
];

describe('what the transcript cannot show the summarizer read', () => {
  const base = {
    summary: 'Session tokens live in `src/auth/session_store.ts`.',
    sources: ['Looked at the login flow.'],
    sourceMeta: [{ role: 'assistant', kind: 'message' }],
    project: { cwd: CWD },
  };
  it('a file the session later shows to exist (a read prints it, a listing holds it) is not invented', () => {
    const file = `${CWD}/src/auth/session_store.ts`;
    const later = [
      { id: 'c', role: 'assistant', kind: 'tool_call', target: read(file), text: `Read({"file_path":"${file}"})` },
      { id: 'r', role: 'tool', kind: 'tool_result', callId: 'c', target: read(file), text: '1→export const store = new Map();' },
    ];
    expect(auditSummary({ ...base, later }).invented).toEqual([]);
    // Nothing later: the summary's name stands alone.
    expect(auditSummary({ ...base, later: [] }).invented).toEqual(['src/auth/session_store.ts']);
  });
  it('a read that fails, or the agent writing the file first (following the summary), shows nothing', () => {
    const file = `${CWD}/src/auth/session_store.ts`;
    const failed = [
      { id: 'c', role: 'assistant', kind: 'tool_call', target: read(file), text: `Read({"file_path":"${file}"})` },
      { id: 'r', role: 'tool', kind: 'tool_result', callId: 'c', isError: true, text: `File does not exist: ${file}` },
    ];
    expect(auditSummary({ ...base, later: failed }).invented).toEqual(['src/auth/session_store.ts']);
    const created = [
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write(file), text: `Write({"file_path":"${file}","content":"x"})` },
      { id: 'c', role: 'assistant', kind: 'tool_call', target: read(file), text: `Read({"file_path":"${file}"})` },
      { id: 'r', role: 'tool', kind: 'tool_result', callId: 'c', text: `1→x  (${file})` },
    ];
    expect(auditSummary({ ...base, later: created }).invented).toEqual(['src/auth/session_store.ts']);
  });
  it('a to-do, a task or a prompt that names the file acts on nothing: the file it then writes is still invented', () => {
    const file = `${CWD}/src/auth/session_store.ts`;
    // A task-list call (its arguments name no file, command, pattern or URL): the agent following the summary.
    const task = { id: 't', role: 'assistant', kind: 'tool_call', target: null, text: 'TaskCreate({"subject":"Write tests","description":"Write src/auth/session_store.ts"})' };
    const created = [task, { id: 'w', role: 'assistant', kind: 'tool_call', target: write(file), text: `Write({"file_path":"${file}","content":"x"})` }];
    expect(auditSummary({ ...base, later: created }).invented).toEqual(['src/auth/session_store.ts']);
    // A read that prints it after the task still shows it.
    const shown = [task, { id: 'c', role: 'assistant', kind: 'tool_call', target: read(file), text: `Read({"file_path":"${file}"})` }, { id: 'r', role: 'tool', kind: 'tool_result', callId: 'c', target: read(file), text: '1→export const store = new Map();' }];
    expect(auditSummary({ ...base, later: shown }).invented).toEqual([]);
    const items: Item[] = [
      user('u0', 'why does login loop?'),
      toolCall('c1', 'k1', 'Bash', '{"command":"git log -1"}'),
      toolResult('r1', 'k1', 'commit 1a2b3c4d'),
      boundary('b'),
      summaryItem('sum', 'Next: write tests in `src/auth/session_store.ts`.'),
      ...paired(toolCall('c2', 'k2', 'TaskCreate', '{"subject":"Tests","description":"Write src/auth/session_store.ts"}'), toolResult('r2', 'k2', 'Task #1 created')),
      ...paired(toolCall('c3', 'k3', 'Write', `{"file_path":"${file}","content":"x"}`), toolResult('r3', 'k3', 'File created')),
    ];
    const audited = auditSession(session(items, { meta: { cwd: CWD }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1'] })] }, 'claude-code'));
    expect(audited[0]!.invented).toEqual(['src/auth/session_store.ts']);
  });
  it('a measure or a number is never shown to exist by a later output that happens to hold it', () => {
    const later = [{ id: 'r', role: 'tool', kind: 'tool_result', text: 'timed out after 5 seconds' }];
    expect(auditSummary({ ...base, summary: 'Each probe timed out at ~5 seconds.', later }).invented).toEqual(['5 seconds']);
  });
  it('the instructions file the harness loads into the system prompt (CLAUDE.md, AGENTS.md) is never invented', () => {
    expect(auditSummary({ ...base, summary: 'Follow `~/CLAUDE.md` and `docs/AGENTS.md`.', later: [] }).invented).toEqual([]);
  });
  it('the whole-session audit reads it the same way: a later listing shows the file, a failed read does not', () => {
    const items = (error: boolean): Item[] => [
      user('u0', 'why does login loop?'),
      toolCall('c1', 'k1', 'Bash', '{"command":"git log -1"}'),
      toolResult('r1', 'k1', 'commit 1a2b3c4d'),
      boundary('b'),
      summaryItem('sum', 'The loop is in `src/auth/session_store.ts`.'),
      ...paired(toolCall('c2', 'k2', 'Read', `{"file_path":"${CWD}/src/auth/session_store.ts"}`), toolResult('r2', 'k2', error ? 'File does not exist.' : '1→export const store = new Map();'), error),
    ];
    const audit = (error: boolean) =>
      auditSession(
        session(items(error), { meta: { cwd: CWD }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1'] })] }, 'claude-code'),
      )[0]!.invented;
    expect(audit(false)).toEqual([]);
    expect(audit(true)).toEqual(['src/auth/session_store.ts']);
  });
});

describe('piecesBacked: the same word pieces, in order, with only separators between them', () => {
  it('backs a path under another slash, drive spelling, case or home folder, and a size under another unit spelling', () => {
    expect(piecesBacked(id('path', 'C:\\Users\\ana\\notes\\plan.md'), 'cat /c/users/ana/notes/plan.md')).toBe(true);
    expect(piecesBacked(id('path', '/home/ana/.config/tool/hooks.sh'), 'ls ~/.config/tool/hooks.sh')).toBe(true);
    expect(piecesBacked(id('path', '~/.config/tool/hooks.sh'), 'ls /home/ana/.config/tool/hooks.sh')).toBe(true);
    expect(piecesBacked(id('path', 'Manifest.json'), 'each block has a manifest.json')).toBe(true);
    expect(piecesBacked(id('quantity', '13MB'), '13m\t./cache')).toBe(true);
    expect(piecesBacked(id('quantity', '1,024 tokens'), 'used 1024 tokens')).toBe(true);
    expect(piecesBacked(id('function', 'InputState.X.JustPressed()'), 'if (inputstate.up.justpressed()) move();')).toBe(true);
    expect(piecesBacked(id('path', '/var/.../scratch/body.md'), 'wrote /var/folders/x1/scratch/body.md')).toBe(true);
  });
  it('leaves invented a value with a piece missing or its pieces scattered, or a number inside another', () => {
    expect(piecesBacked(id('path', 'obsidian.json'), 'the .obsidian folder; community-plugins.json')).toBe(false);
    expect(piecesBacked(id('path', '/home/ana/.config/tool/setup.sh'), 'ls ~/.config/tool/hooks.sh')).toBe(false);
    expect(piecesBacked(id('path', '.cache/plugins/'), 'the .cache folder holds the plugin state')).toBe(false);
    expect(piecesBacked(id('quantity', '5s'), 'took 1.5s')).toBe(false);
    expect(piecesBacked(id('quantity', '13MB'), '13 files')).toBe(false);
    expect(piecesBacked(id('path', '/var/.../scratch/body.md'), 'wrote /var/folders/x1/scratch/head.md')).toBe(false);
  });
  it('reads a hand-made session the same way: a respelled path is backed, a proposed file nobody named is invented', () => {
    // Modelled on the studied rows' spellings (a Git Bash path for a Windows one, a manifest name capitalised).
    const audit = auditSummary({
      summary: 'Read `C:\\Users\\ana\\vault\\Plan.md` and each `Manifest.json`; next, write `C:\\Users\\ana\\vault\\triage-notes.md`.',
      sources: ['cat /c/users/ana/vault/plan.md', 'every block ships a manifest.json'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call' }, { role: 'assistant', kind: 'message' }],
      later: [],
    });
    expect(audit.invented).toEqual(['C:\\Users\\ana\\vault\\triage-notes.md']);
  });
});

describe('a file size derived from a listing', () => {
  it('is backed by the byte count the listing prints on that file\'s line, rounded to the stated precision', () => {
    // Modelled on a summary that lists files with their sizes after an `ls -la` (Safecast/safecast-map-MCP).
    const sources = ['-rw-r--r-- 1 ana ana 21873 Mar  2 10:01 server.py\n-rw-r--r-- 1 ana ana  3350 Mar  2 10:01 notes.md'];
    const sourceMeta = [{ role: 'tool', kind: 'tool_result' }];
    const audit = (summary: string) => auditSummary({ summary, sources, sourceMeta, later: [] }).invented;
    expect(audit('- Files: server.py (21KB), notes.md (3.4KB)')).toEqual([]);
    // Another file's count, a size no count rounds to, or a size beside no file name: invented.
    expect(audit('- Files: notes.md (21KB)')).toEqual(['21KB']);
    expect(audit('- Files: server.py (25KB)')).toEqual(['25KB']);
    expect(audit('- The cache grew to 21KB.')).toEqual(['21KB']);
  });
});

describe('a measure under another spelling of its unit', () => {
  it('is the same number with or without a space, short or long (`8.66 s` backs `8.66s`, `2h` backs `2 hours`)', () => {
    expect(backedLoosely(id('quantity', '8.66s'), 'finished in 8.66 s')).toBe(true);
    expect(backedLoosely(id('quantity', '2 hours'), 'ttl=2h')).toBe(true);
    expect(backedLoosely(id('quantity', '16GB'), 'mem: 16 gib')).toBe(true);
    // Another number is not it.
    expect(backedLoosely(id('quantity', '8.66s'), 'finished in 8.67 s')).toBe(false);
    expect(backedLoosely(id('quantity', '6 seconds'), 'took 7 sec')).toBe(false);
    // Another unit is another measure.
    expect(backedLoosely(id('quantity', '8 hours'), 'took 8 minutes')).toBe(false);
  });
});

describe('a route pattern', () => {
  it('is backed by a path with any value in its parameter segments, when two of its segments are literal', () => {
    expect(backedLoosely(id('path', '/ai-agents/chat/[agentId]'), 'created /ai-agents/chat/[id]/page.tsx')).toBe(true);
    expect(backedLoosely(id('path', '/api/conversations/[id]/messages'), 'fetch(`/api/conversations/${convid}/messages`)')).toBe(true);
    expect(backedLoosely(id('path', '/users/:id/posts'), 'get /users/42/posts')).toBe(true);
    // Another literal segment, or only one literal segment, backs nothing.
    expect(backedLoosely(id('path', '/api/conversations/[id]/messages'), 'fetch(`/api/conversations/${convid}/members`)')).toBe(false);
    expect(backedLoosely(id('path', '/chat/[id]'), 'open /chat/7')).toBe(false);
  });
});

describe('alternatives joined with slashes', () => {
  it('are backed by the head with each alternative (`ButtonStyle.DANGER/SUCCESS`), not by the first alone', () => {
    const text = 'buttonstyle.danger = "danger"\nbuttonstyle.success = "success"';
    expect(backedLoosely(id('path', 'ButtonStyle.DANGER/SUCCESS'), text)).toBe(true);
    expect(backedLoosely(id('path', 'ButtonStyle.DANGER/SUCCESS/PRIMARY'), text)).toBe(false);
  });
});

describe('the harness’s words in the user’s turn', () => {
  it('back a quote the summary gives as the user’s (the summarizer reads them as the user’s), never a paraphrase', () => {
    const audit = (claim: string) =>
      auditSession(
        session(
          [
            user('u0', 'only appropriation bills belong in the tracker'),
            { ...user('m1', 'Continue from where you left off.'), meta: { isMeta: true } },
            toolCall('c1', 'k1', 'Bash', '{"command":"ls"}'),
            toolResult('r1', 'k1', 'tracker.xlsx'),
            boundary('b'),
            summaryItem('sum', claim),
          ],
          { meta: { cwd: CWD }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'm1', 'c1', 'r1'] })] },
          'claude-code',
        ),
      )[0]!.inventedInstructions.map((f) => f.sentence);
    expect(audit('The user’s latest request was "Continue from where you left off."')).toEqual([]);
    expect(audit('The user asked to "delete the tracker."')).toHaveLength(1);
  });
});

// Session 46's judged flags (bench/flag-judgements.json, half A): an answer retold in the words of what it answers.
describe('an answer is the user\'s decision in the words of what it answers', () => {
  const audit = (items: Item[], claim: string) =>
    auditSession(
      session([...items, boundary('b'), summaryItem('sum', claim)], {
        meta: { cwd: CWD },
        compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: items.map((i) => i.id) })],
      }, 'claude-code'),
    )[0]!.inventedInstructions.map((f) => f.sentence);
  // Modelled on ElixirTrials/medgemma-hackathon (half A): the agent closes on a proposal, the user answers "yes and …".
  it('a short "yes" to the agent\'s question makes the question\'s words the user\'s', () => {
    const proposal = [
      user('u0', 'profile the test suite'),
      assistant('a1', 'Retries are rare.\n\nShall I update PERF_PLAN.md with these findings and then proceed to Phase 2 execution?'),
    ];
    const claim = 'User confirmed: Update PERF_PLAN.md with Phase 1 findings, then clear context before proceeding to Phase 2 execution.';
    expect(audit([...proposal, user('u2', 'yes and then clear the context first')], claim)).toEqual([]);
    // A reply that is not an assent, or a long message that opens with "yes", is the user's own words alone.
    expect(audit([...proposal, user('u2', 'clear the context first')], claim)).toHaveLength(1);
    expect(audit([...proposal, user('u2', 'yes but first tell me why the retries are rare, and whether the numbers on the staging box match the ones you saw locally')], claim)).toHaveLength(1);
    // An agent's statement with no question proposes nothing.
    expect(audit([user('u0', 'profile the test suite'), assistant('a1', 'I will update PERF_PLAN.md with these findings and proceed to Phase 2 execution.'), user('u2', 'ok')], claim)).toHaveLength(1);
  });
  // Modelled on the AskUserQuestion answers of the judged sessions: "User chose: Both context menu AND details dialog".
  it('an answered question counts with its wording and the chosen option\'s description', () => {
    const input = JSON.stringify({
      questions: [
        {
          question: 'Where should the rename action live?',
          options: [
            { label: 'Context menu', description: 'Right-click on a file row' },
            { label: 'Both', description: 'Context menu AND details dialog' },
          ],
        },
      ],
    });
    const asked = [
      user('u0', 'add renaming files'),
      ...paired(toolCall('q', 'kq', 'AskUserQuestion', input), toolResult('r', 'kq', 'User has answered your questions: "Where should the rename action live?"="Both". You can now continue with the user\'s answers in mind.')),
    ];
    expect(audit(asked, 'User chose: Both context menu AND details dialog for the rename action.')).toEqual([]);
    // An option the user did not choose is not their decision.
    expect(audit(asked, 'User chose the right-click row menu only.')).toHaveLength(1);
  });
  // Modelled on obsessiondb/chkit (half A, a Conductor session): the app serves its own AskUserQuestion over MCP, and
  // its result frames the answer another way ("User responses:\n1. …"). The judged flag was an answer retold.
  it('an answer to a tool that asks the user, served by any MCP server, is the user\'s words', () => {
    const input = JSON.stringify({
      questions: [{ question: 'The subagents cannot write files. How would you like to proceed?', options: ['Wait for the third batch', 'Skip formal evals — just review the skill yourself'] }],
    });
    const asked = (tool: string, result = 'User responses:\n1. Skip formal evals — just review the skill yourself') => [
      user('u0', 'turn the command into a skill'),
      ...paired(toolCall('q', 'kq', tool, input), toolResult('r', 'kq', result)),
    ];
    const claim = 'User asked to skip formal evals and just review the skill.';
    expect(audit(asked('mcp__conductor__AskUserQuestion'), claim)).toEqual([]);
    expect(audit(asked('ask_user'), claim)).toEqual([]);
    // An option the user did not choose, or the same words from a tool that asks nobody, are not the user's.
    expect(audit(asked('mcp__conductor__AskUserQuestion'), 'User asked to wait for the third batch of subagents.')).toHaveLength(1);
    expect(audit(asked('mcp__conductor__Search'), claim)).toHaveLength(1);
    // Modelled on yutakobayashidev/dotnix (session 51, half A): DeepWiki's ask_question asks a documentation service;
    // its answer is the service's, and its question the agent's.
    expect(audit(asked('mcp__deepwiki__ask_question'), claim)).toHaveLength(1);
    // A refused question carries no answer.
    expect(audit(asked('mcp__conductor__AskUserQuestion', "The user doesn't want to proceed with this tool use. Skip formal evals — just review the skill yourself"), claim)).toHaveLength(1);
  });
  // Session 46 noted these rules lived only in the session audit: the audit of a slice or a replay (auditSummary) read
  // a bare "yes" and an answered question as no words of the user's. Both now read the user through `userWordsRead`.
  it('the audit of a slice reads the user as the session audit does', () => {
    const items = [
      user('u0', 'profile the test suite'),
      assistant('a1', 'Shall I update PERF_PLAN.md with these findings and then proceed to Phase 2 execution?'),
      user('u2', 'yes and then clear the context first'),
      ...paired(
        toolCall('q', 'kq', 'AskUserQuestion', JSON.stringify({ questions: [{ question: 'Which runner?', options: [{ label: 'Vitest', description: 'Fast, in-process runs' }] }] })),
        toolResult('r', 'kq', 'User has answered your questions: "Which runner?"="Vitest". You can now continue with the user\'s answers in mind.'),
      ),
    ];
    const s = session([...items, boundary('b'), summaryItem('sum', 'User confirmed: Update PERF_PLAN.md with Phase 1 findings, then clear context.\nUser chose fast in-process runs with Vitest.\nUser asked to delete the tracker.')], {
      meta: { cwd: CWD },
      compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: items.map((i) => i.id) })],
    }, 'claude-code');
    const bySession = auditSession(s)[0]!.inventedInstructions;
    const bySlice = auditSummary(auditInputFor(s, s.compactions[0]!)!).inventedInstructions;
    expect(bySession.map((f) => f.sentence)).toEqual(['User asked to delete the tracker.']);
    expect(bySlice).toEqual(bySession);
  });
});

// Session 45, from the studied rows' remaining false invented flags (invented-backing.ts): a placeholder, a list written
// with slashes, a quote with one word respelled, a span of days derived from two dates.
describe('a documentation placeholder (`file.txt`, `path/to/…`)', () => {
  // Modelled on ebridges/wakil (hold-out 4's study part): the summary writes a command's pattern with `> file.txt`
  // where the agent's commands redirected to `"$SCRATCH/enrich_output.txt"`.
  const sources = ['NO_COLOR=1 COLUMNS=200 uv run wakil enrich 1 --yes > "$SCRATCH/enrich_output.txt" 2>&1'];
  it('names no file, so it is never invented', () => {
    expect(auditSummary({ summary: 'Used `NO_COLOR=1 COLUMNS=200 ... > file.txt` instead of `cat -v`.', sources, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'Point it at `path/to/settings.yaml`.', sources, later: [] }).invented).toEqual([]);
  });
  it('a name of its own, or a placeholder word inside a longer name, is still judged', () => {
    expect(auditSummary({ summary: 'Wrote the run to `enrich_report.txt`.', sources, later: [] }).invented).toEqual(['enrich_report.txt']);
    expect(auditSummary({ summary: 'Helpers moved to `file_utils.py`.', sources, later: [] }).invented).toEqual(['file_utils.py']);
  });
});

describe('words joined with slashes', () => {
  // Modelled on Lightprotocol/light-protocol (hold-out 4's study part): the user sorted proofs into "weak", "unit
  // tests" and "modeling proofs"; the summary writes the tiers as `weak/modeling/unit-test`.
  const sources = ['remove all of these ~7 are weak -- they test trivial constructors. ~9 are unit tests dressed up as proofs. ~7 are modeling proofs'];
  it('are a list, backed when the sources name each word in any plain form (`unit-test` by "unit tests")', () => {
    expect(auditSummary({ summary: 'Removed 9 weak/modeling/unit-test proofs.', sources, later: [] }).invented).toEqual([]);
  });
  it('a word the sources never name leaves the list unbacked', () => {
    expect(auditSummary({ summary: 'Removed 9 weak/modeling/fuzz-test proofs.', sources, later: [] }).invented).toEqual(['weak/modeling/fuzz-test']);
  });
});

describe('file names joined with a slash', () => {
  // Modelled on ebridges/wakil: "completes the trio with entity-model.md/entity-resolution.md", two project docs.
  it('are a list of files, backed when the sources hold each name', () => {
    const sources = ['docs/entity-model.md\ndocs/index.md', 'Edit({"file_path":"docs/entity-resolution.md"})'];
    expect(auditSummary({ summary: 'Intro (completes the trio with entity-model.md/entity-resolution.md)', sources, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'Intro (completes the trio with entity-model.md/entity-merging.md)', sources, later: [] }).invented).toEqual(['entity-model.md/entity-merging.md']);
  });
  // Modelled on the pool's study part (session 59): paulglx/dcr's "clippy fixes in ui.rs/main.rs/tests" after clippy
  // printed src/ui.rs, src/main.rs and tests/…; a summary's "scripts/pull-models.sh/.bat" for a script pair.
  it('two file names in a row make a list whatever else it holds: an extension alone and a word are items too', () => {
    const clippy = ['--> src/ui.rs:116:37\n--> src/main.rs:122:5\nFixes the broken `tests/app_tests.rs`.'];
    expect(auditSummary({ summary: 'Fixed clippy warnings in ui.rs/main.rs/tests.', sources: clippy, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'Fixed clippy warnings in ui.rs/app.rs/tests.', sources: clippy, later: [] }).invented).toEqual(['ui.rs/app.rs/tests']);
    const scripts = ['Write({"file_path":"scripts/pull-models.sh"})', 'Write({"file_path":"scripts/pull-models.bat"})'];
    expect(auditSummary({ summary: 'Added scripts/pull-models.sh/.bat.', sources: scripts, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'Added scripts/pull-models.sh/.ps1.', sources: scripts, later: [] }).invented).toEqual(['scripts/pull-models.sh/.ps1']);
  });
});

describe('a quote of what the summarizer read, one word respelled', () => {
  // Modelled on Lightprotocol/light-protocol: the user asked for a `dispact_compress.md` file; the summary quotes the
  // message with the name's typo corrected.
  const sources = ['ok can you write up the properties in a dispact_compress.md file where would be the best place to put it?'];
  it('backs the respelled word: the rest of the passage is word for word what the user wrote', () => {
    const summary = 'All user messages:\n   - "ok can you write up the properties in a dispatch_compress.md file where would be the best place to put it?"';
    expect(auditSummary({ summary, sources, later: [] }).invented).toEqual([]);
  });
  it('a quote that puts another name in its place, or a name outside any quote, is not a respelling', () => {
    const misquote = '- "ok can you write up the properties in a settings_loader.md file where would be the best place to put it?"';
    expect(auditSummary({ summary: misquote, sources, later: [] }).invented).toEqual(['settings_loader.md']);
    expect(auditSummary({ summary: 'Next: write the properties into `dispatch_compress.md`.', sources, later: [] }).invented).toEqual(['dispatch_compress.md']);
  });
});

describe('a span of days between two dates', () => {
  // Modelled on LAF-US/IDAHO-VAULT (test half): "minidata in vault is 7 days stale (April 3)", where the agent had
  // read a file dated April 3rd and written "today is April 10th".
  const sources = ['date created: Friday, April 3rd 2026', 'the latest minidata is from April 3rd, but today is April 10th'];
  it('is derived when it is the distance from the date beside it to a date the summarizer read or the session’s day', () => {
    expect(auditSummary({ summary: '- minidata is 7 days stale (April 3); vetoes came after', sources, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: '- minidata is 1 week stale (April 3)', sources, later: [] }).invented).toEqual([]);
    const noTenth = ['date created: Friday, April 3rd 2026'];
    expect(auditSummary({ summary: '- minidata is 7 days stale (April 3)', sources: noTenth, later: [], sessionDays: ['2026-04-10'] }).invented).toEqual([]);
  });
  it('another span, or a span with no date beside it, is still judged', () => {
    expect(auditSummary({ summary: '- minidata is 9 days stale (April 3)', sources, later: [] }).invented).toEqual(['9 days']);
    expect(auditSummary({ summary: '- minidata expires after 7 days', sources, later: [] }).invented).toEqual(['7 days']);
  });
});

// Session 45, second batch: from extra sessions of the studied repositories (entireio/cli, FitToday, chkit checkpoints
// not in the labelled set), judged by hand; the pool was not read.
describe('a file cut from a longer session', () => {
  // Modelled on entireio/cli's checkpoint files: the first record is a hook's summary naming a parent the file does
  // not hold; a microcompaction comes before the first summary, which still covers the turns before the cut.
  const line = (o: Record<string, unknown>) => JSON.stringify({ sessionId: 's', cwd: '/w/cli', version: '2.1.14', slug: 'zany-churning-pearl', timestamp: '2026-01-21T10:00:00.000Z', ...o });
  const file = (firstParent: string | null) =>
    [
      line({ type: 'system', subtype: 'stop_hook_summary', parentUuid: firstParent, uuid: 'h1' }),
      line({ type: 'user', parentUuid: 'h1', uuid: 'u1', message: { role: 'user', content: 'keep going' } }),
      line({ type: 'system', subtype: 'microcompact_boundary', parentUuid: 'u1', uuid: 'm1', content: 'Context microcompacted', microcompactMetadata: { trigger: 'auto', compactedToolIds: [] } }),
      line({ type: 'assistant', parentUuid: 'm1', uuid: 'a1', message: { id: 'msg1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 10, output_tokens: 2 } } }),
      line({ type: 'system', subtype: 'compact_boundary', parentUuid: null, logicalParentUuid: 'a1', uuid: 'b1', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 150000 } }),
      line({
        type: 'user',
        parentUuid: 'b1',
        uuid: 'u2',
        isCompactSummary: true,
        message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary:\n- Fixed `cmd/entire/cli/strategy/manual_commit_git.go`.' },
      }),
    ].join('\n');
  const invented = (firstParent: string | null) => {
    const s = loadText('cut.jsonl', file(firstParent)).sessions.find((x) => x.compactions.length > 0)!;
    return { mid: s.meta['startsMidConversation'] === true, invented: auditSession(s).flatMap((a) => a.invented) };
  };
  it('is told by its first record of any kind, and its first real summary (after a microcompaction) is not judged', () => {
    expect(invented('gone-before-the-cut')).toEqual({ mid: true, invented: [] });
  });
  it('a file that starts the conversation judges the same summary', () => {
    expect(invented(null)).toEqual({ mid: false, invented: ['cmd/entire/cli/strategy/manual_commit_git.go'] });
  });
});

describe('what a harness reminder showed the summarizer', () => {
  it('the plan file Claude Code names by the session’s slug is not invented; another name under plans/ is', () => {
    const items: Item[] = [user('u0', 'plan the sync repair'), boundary('b'), summaryItem('sum', 'Plan written to `C:\\Users\\lf\\.claude\\plans\\cheerful-baking-valley.md`.')];
    const audit = (slug: string) =>
      auditSession(session(items, { meta: { cwd: CWD, slug }, compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0'] })] }, 'claude-code'))[0]!.invented;
    expect(audit('cheerful-baking-valley')).toEqual([]);
    expect(audit('mossy-jingling-piglet')).toEqual(['C:\\Users\\lf\\.claude\\plans\\cheerful-baking-valley.md']);
  });
  it('a name on a summary line that says a system reminder or the IDE showed it is not judged', () => {
    // Modelled on entireio/cli: "the system reminder showed they opened settings.go", which no record holds.
    const sources = ['commit this'];
    expect(auditSummary({ summary: 'The user said "commit this" and the system reminder showed they opened settings.go.', sources, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'The user had `config/loader.go` open in the IDE.', sources, later: [] }).invented).toEqual([]);
    expect(auditSummary({ summary: 'The user wants settings.go committed.', sources, later: [] }).invented).toEqual(['settings.go']);
  });
});

describe('a measure the code sets in its own spelling', () => {
  it('is backed by the number times the unit’s constant, or by the unit’s named argument', () => {
    expect(backedLoosely(id('quantity', '30min'), 'const stalelockthreshold = 30 * time.minute')).toBe(true);
    expect(backedLoosely(id('quantity', '10 seconds'), 'await tester.pump(const duration(seconds: 10));')).toBe(true);
    expect(backedLoosely(id('quantity', '7 days'), 'cutoff = now - timedelta(days=7)')).toBe(true);
    // Another number, or another unit, is another measure.
    expect(backedLoosely(id('quantity', '15min'), 'const stalelockthreshold = 30 * time.minute')).toBe(false);
    expect(backedLoosely(id('quantity', '30min'), 'const stalelockthreshold = 30 * time.second')).toBe(false);
  });
  it('is backed by a range of the number the code counts in the unit', () => {
    // Modelled on Viniciuscarvalho/FitToday (half A of bench/flag-judgements.json, s27): "Bar chart showing 8 weeks".
    const swift = 'return (0..<8).reversed().compactmap { weeksago -> weeklyvolumeentry? in';
    expect(backedLoosely(id('quantity', '8 weeks'), swift)).toBe(true);
    expect(backedLoosely(id('quantity', '7 days'), 'for offset in range(7):  # days back')).toBe(true);
    // Another count, or a range that counts something else, is not that span.
    expect(backedLoosely(id('quantity', '4 weeks'), swift)).toBe(false);
    expect(backedLoosely(id('quantity', '8 weeks'), 'return (0..<8).map { index -> row in')).toBe(false);
  });
});

describe('a measure a constant names in its unit', () => {
  it('is backed by a name that ends in the unit set to the number (`EXPIRY_HOURS = 72` backs `72h`)', () => {
    // Modelled on the Odoo module of Eduardodmb/ClaudeWork (hold-out 14's study part): "default 72h" for a token
    // lifetime the code reads as `_DEFAULT_EXPIRY_HOURS = 72`.
    expect(backedLoosely(id('quantity', '72h'), '_default_expiry_hours = 72')).toBe(true);
    expect(backedLoosely(id('quantity', '30 seconds'), 'timeout_seconds=30')).toBe(true);
    // Another number, another unit, or a name that only holds the unit's letters, is not.
    expect(backedLoosely(id('quantity', '48h'), '_default_expiry_hours = 72')).toBe(false);
    expect(backedLoosely(id('quantity', '72 days'), '_default_expiry_hours = 72')).toBe(false);
    expect(backedLoosely(id('quantity', '72h'), 'vouchers = 72')).toBe(false);
  });
});

describe('a setting written as name=value', () => {
  it('is backed when the code gives the name a constant and the constant that value', () => {
    // Modelled on a judged flag of bench/flag-judgements.json (half A, s80): the pipeline the agent wrote has
    // `_MAX_RETRIES = 2` and `max_qa_retries: int = _MAX_RETRIES`; the summary writes `max_qa_retries=2`.
    const code = '_max_retries = 2\n\n@dataclass\nclass pipelineconfig:\n    max_qa_retries: int = _max_retries\n';
    expect(backedLoosely(id('quantity', 'max_qa_retries=2'), code)).toBe(true);
    expect(backedLoosely(id('quantity', 'hold_ms=30000'), 'default_hold = 30_000\nhold_ms: u64 = default_hold')).toBe(true);
    // Another value, or a constant set to another value, is not that setting.
    expect(backedLoosely(id('quantity', 'max_qa_retries=3'), code)).toBe(false);
    expect(backedLoosely(id('quantity', 'max_qa_retries=2'), 'max_qa_retries: int = default_retries\n_max_retries = 2')).toBe(false);
  });
});

describe('the values of one setting joined with slashes', () => {
  it('are backed when the sources hold each as a quoted string, whatever the first word', () => {
    // Modelled on Eduardodmb/ClaudeWork (hold-out 14's study part): a Selection field's choices, `internal/candidate/both`.
    const code = "upload_by = fields.selection([('internal', 'internal (hr staff only)'), ('candidate', 'candidate uploads'), ('both', 'both')])";
    expect(backedLoosely(id('path', 'internal/candidate/both'), code)).toBe(true);
    // A value the sources do not quote, or a folder path whose segments are no strings, is still judged.
    expect(backedLoosely(id('path', 'internal/candidate/admin'), code)).toBe(false);
    expect(backedLoosely(id('path', 'internal/candidate/both'), 'ls internal/candidate/ and both')).toBe(false);
  });
});

describe('a metasyntactic folder', () => {
  it('names a pattern (`foo/mod.rs`), not a file, so it is never invented', () => {
    // Modelled on paulglx/dcr (hold-out 8's study part): "converting single files to directory modules (`foo.rs` → `foo/mod.rs`)".
    const sources = ['Split dicom.rs into dicom/mod.rs, tag.rs, loader.rs'];
    expect(auditSummary({ summary: 'Rust modules: `foo.rs` → `foo/mod.rs` + subfiles.', sources, later: [] }).invented).toEqual([]);
    // A folder of its own name, or `foo` inside a longer name, is still judged.
    expect(auditSummary({ summary: 'Moved it to `scanner/mod.rs`.', sources, later: [] }).invented).toEqual(['scanner/mod.rs']);
    expect(auditSummary({ summary: 'Moved it to `food/mod.rs`.', sources, later: [] }).invented).toEqual(['food/mod.rs']);
  });
});

describe('a number the summary works out', () => {
  // Modelled on a WordPress session (hold-out 10's study part): the summary derives an offset from an ID and the
  // occurrence it read, and shows the working.
  const sources = ['provisional id 10001315', 'occurrence_id=1315 post_id=89737'];
  it('is derived when it is a term of an equation on its line that holds, whose other terms the summarizer read', () => {
    expect(auditSummary({ summary: 'The offset appears to be `10000000`, so `10001315 - 10000000 = 1315`.', sources, later: [] }).invented).toEqual([]);
  });
  it('an equation that does not hold, or one whose other terms nothing read holds, is still judged', () => {
    expect(auditSummary({ summary: 'The offset is `10000000`, so `10001315 - 10000000 = 1316`.', sources, later: [] }).invented).toContain('10000000');
    expect(auditSummary({ summary: 'The offset is `20000000`, so `20001315 - 20000000 = 1315`.', sources, later: [] }).invented).toContain('20000000');
  });
});

describe('a file named after the type it holds', () => {
  it('is backed by the type’s name when a file of the sources has that extension', () => {
    // Modelled on Viniciuscarvalho/FitToday: the agent updated the class `NewOpenAIWorkoutComposerTests`.
    const lower = 'now let me update the `newopenaiworkoutcomposertests` that references the old init.\nedit newopenaiclient.swift';
    expect(backedLoosely(id('path', 'NewOpenAIWorkoutComposerTests.swift'), lower)).toBe(true);
    // No file of that kind, another type, or a lower-case name the sources use as a word: not this.
    expect(backedLoosely(id('path', 'NewOpenAIWorkoutComposerTests.kt'), lower)).toBe(false);
    expect(backedLoosely(id('path', 'OpenAIWorkoutPlannerTests.swift'), lower)).toBe(false);
    expect(backedLoosely(id('path', 'obsidian.json'), 'the .obsidian folder; community-plugins.json')).toBe(false);
  });
});

describe('a path with folders left out', () => {
  it('is backed by a path holding its segments in order, with folders between them', () => {
    // Modelled on obsessiondb/chkit: `clickhouse/index.ts` for `packages/clickhouse/src/index.ts`.
    expect(backedLoosely(id('path', 'clickhouse/index.ts'), 'in `packages/clickhouse/src/index.ts`, the query')).toBe(true);
    // Another file, or a segment no path holds, is not.
    expect(backedLoosely(id('path', 'clickhouse/client.ts'), 'in `packages/clickhouse/src/index.ts`, the query')).toBe(false);
    expect(backedLoosely(id('path', 'postgres/index.ts'), 'in `packages/clickhouse/src/index.ts`, the query')).toBe(false);
    // A folder every project has, or two paths it could stand for, names no one file.
    expect(backedLoosely(id('path', 'src/index.ts'), 'edited `src/auth/index.ts`')).toBe(false);
    expect(backedLoosely(id('path', 'clickhouse/index.ts'), 'packages/clickhouse/src/index.ts and packages/clickhouse/test/index.ts')).toBe(false);
  });
});

// Session 46: from the never-studied pool's study part (its score part not read).
describe('a file’s size in kilobytes', () => {
  // Modelled on Safecast/safecast-map-MCP: the summary lists the files an `ls -la` showed with their sizes rounded.
  const sources = ['-rw-rw-r-- 1 rob rob 19479 Feb 26 15:13 index.html\n-rw-rw-r-- 1 rob rob  2443 Feb 26 15:13 notes.md'];
  it('is derived from the bytes a listing printed for a file the summary names, over 1000 or 1024, rounded as written', () => {
    expect(auditSummary({ summary: '- Files: index.html (19KB), notes.md (2.4KB)', sources, later: [] }).invented).toEqual([]);
  });
  it('another size, or a size beside a file the listing does not show, is still judged', () => {
    expect(auditSummary({ summary: '- Files: index.html (23KB)', sources, later: [] }).invented).toEqual(['23KB']);
    expect(auditSummary({ summary: '- Files: server.go (19KB)', sources, later: [] }).invented).toContain('19KB');
  });
});

describe('a file planned in a folder the agent made', () => {
  // Modelled on roo-oliv/monodreams: the agent made `registry/cursor` and the plan says each block is a folder with a
  // `block.json`; the summary names the next step, `registry/cursor/block.json`.
  const sources = ['Bash({"command":"mkdir -p registry/cursor && ls registry"})', 'Each block is a folder with a `block.json` manifest.'];
  it('of a name the sources give such files is the next step, not invented', () => {
    expect(auditSummary({ summary: 'Next: create `registry/cursor/block.json` as the worked example.', sources, later: [] }).invented).toEqual([]);
  });
  it('in a folder nobody made, or of a name the sources never give, is still judged', () => {
    expect(auditSummary({ summary: 'Next: create `registry/camera/block.json`.', sources, later: [] }).invented).toEqual(['registry/camera/block.json']);
    expect(auditSummary({ summary: 'Next: create `registry/cursor/manifest.yaml`.', sources, later: [] }).invented).toEqual(['registry/cursor/manifest.yaml']);
  });
});

describe('claims about the user the list cannot judge', () => {
  it('are said apart by both audits, not listed as invented', () => {
    const items = [user('u0', 'Realize a tarefa da issue, com todos os critérios de aceite sendo preenchidos, testes validados, e crie uma branch separada.')];
    const claim = 'The user wanted all acceptance criteria fulfilled and a separate branch created.';
    const s = session([...items, boundary('b'), summaryItem('sum', claim)], {
      meta: { cwd: CWD },
      compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0'] })],
    }, 'claude-code');
    const bySession = auditSession(s)[0]!;
    expect(bySession.inventedInstructions).toEqual([]);
    expect(bySession.instructionsNotJudged).toEqual([claim]);
    expect(auditSummary(auditInputFor(s, s.compactions[0]!)!).instructionsNotJudged).toEqual([claim]);
  });
});

// Modelled on wfc (half A of bench/flag-judgements.json, s79, session 52): "~14,000 tokens … 70,000 tokens per review"
// retold as "~14k tokens per reviewer × 5 = 70k tokens per review".
describe('a count written with a thousands suffix', () => {
  const lower = '~14,000 tokens each. with 5 reviewers, that is 70,000 tokens; measured 69,250.';
  const q = (value: string) => ({ value, kind: 'quantity' as const, index: 0 });
  it('is backed by the number written out, or rounded to its scale', () => {
    expect(scaledCountBacked(q('70k'), lower)).toBe(true);
    expect(scaledCountBacked(q('69k'), lower)).toBe(true);
    expect(scaledCountBacked(q('14K'), lower)).toBe(true);
  });
  it('is not backed by another count or a bare small number', () => {
    expect(scaledCountBacked(q('80k'), lower)).toBe(false);
    expect(scaledCountBacked(q('5k'), lower)).toBe(false);
  });
});
