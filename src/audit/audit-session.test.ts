import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptySession } from '../formats/adapter';
import { loadText } from '../load/loader';
import type { CompactionEvent, Item, Session } from '../model/types';
import { auditInputFor, auditSession, withoutToolNames, type CompactionAudit } from './audit-session';
import { unrecordedRestoreOf } from './unrecorded-restore';
import { auditSummary } from './audit-summary';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample, SAMPLES_DIR } from '../test/shared-samples';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from '../../bench/generators/claude-code-session';

/** The one compaction of these hand-made sessions: m4 summarizes m1–m3 and keeps m0. */
function summaryOfM1toM3(file: string): CompactionEvent {
  return {
    id: 'c0',
    index: 0,
    kind: 'summary',
    trigger: null,
    tokensBefore: null,
    tokensAfter: null,
    replacedIds: ['m1', 'm2.call0', 'm3'],
    keptIds: ['m0'],
    summaryId: 'm4',
    atItemId: 'm4',
    source: { file, line: null },
  };
}

// The course example as a loaded session: head, evicted middle, a summary in its place, then the tail.
const item = (id: string, role: Item['role'], kind: Item['kind'], text: string, name?: string): Item => ({
  id,
  role,
  kind,
  text,
  source: { file: 'course.json', line: null },
  ...(name ? { name } : {}),
});

function courseSession(summaryText: string): Session {
  const s = emptySession('openai-chat', 'course.json', 'course');
  s.items = [
    item('m0', 'system', 'message', 'You are a coding agent for the payments team.'),
    item('m1', 'user', 'message', 'The nightly job fails. Check the database config.'),
    item('m2.call0', 'assistant', 'tool_call', '{"path":"config/db.yaml"}', 'read_file'),
    item('m3', 'tool', 'tool_result', 'host: db-prod-1\nport: 5432\nticket: FRE-512', 'read_file'),
    item('m4', 'assistant', summaryText.startsWith('[') ? 'omission' : 'summary', summaryText),
    item('m5', 'user', 'message', 'Which host and port again?'),
    item('m6', 'assistant', 'message', 'Which ticket do you mean?'),
  ];
  s.compactions = [summaryOfM1toM3('course.json')];
  return s;
}

describe('auditInputFor', () => {
  it('takes the evicted items as sources, tool calls as name(arguments), the items after the summary as later', () => {
    const s = courseSession('## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512');
    expect(auditInputFor(s, s.compactions[0]!)).toEqual({
      summary: '## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512',
      sources: ['The nightly job fails. Check the database config.', 'read_file({"path":"config/db.yaml"})', 'host: db-prod-1\nport: 5432\nticket: FRE-512'],
      sourceMeta: [
        { role: 'user', kind: 'message', target: null },
        { role: 'assistant', kind: 'tool_call', target: { tool: 'read_file', target: 'config/db.yaml', file: 'config/db.yaml', writes: false, kind: 'file' }, name: 'read_file' },
        // Its tool items are not paired here, so no source is a fetch's result.
        { role: 'tool', kind: 'tool_result', target: null, name: 'read_file' },
      ],
      sourceCalls: [null, null, null],
      later: [
        { id: 'm5', text: 'Which host and port again?', role: 'user', kind: 'message', target: null },
        { id: 'm6', text: 'Which ticket do you mean?', role: 'assistant', kind: 'message', target: null },
      ],
      context: ['You are a coding agent for the payments team.'],
      contextMeta: [{ role: 'system', kind: 'message', target: null }],
      // The system prompt stays in the context, but its names are conventions, not the session's facts.
      keptVerbatim: [],
      sessionDays: [],
      project: { cwd: null },
    });
  });

  it('returns null for a compaction that records no evicted items', () => {
    const s = courseSession('[Earlier messages truncated]');
    expect(auditInputFor(s, { ...s.compactions[0]!, replacedIds: [] })).toBeNull();
  });
});

// Compactions that keep part of what came before verbatim: an OpenHands condensation forgets a middle range and keeps
// its head and the recent events; a Claude Code microcompaction clears old tool results and keeps the rest.
function keepingSession(kind: 'condensation' | 'microcompact'): Session {
  const s = emptySession(kind === 'condensation' ? 'openhands' : 'claude-code', 'keep.json', 'keep');
  const call = (id: string, args: string, name = 'execute_bash') => ({ ...item(id, 'assistant', 'tool_call', args, name), pairId: `${id}.r` });
  const result = (id: string, text: string) => ({ ...item(`${id}.r`, 'tool', 'tool_result', text, 'execute_bash'), pairId: id });
  s.items = [
    item('e0', 'system', 'message', 'You are OpenHands agent.'),
    item('e1', 'user', 'message', 'Review the GitLab PR, then the BitBucket one.'),
    call('e2', '{"command":"cat /tmp/gitlab.diff"}'),
    result('e2', '+    async def get_suggested_tasks(self) -> list[SuggestedTask]:\n+    async def verify_access(self) -> bool:'),
    call('e3', '{"command":"cat /tmp/bb.diff"}'),
    result('e3', '+    async def get_suggested_tasks(self) -> list[SuggestedTask]:'),
    item('e4', 'assistant', 'message', 'Both diffs define get_suggested_tasks.'),
    ...(kind === 'condensation' ? [item('e5', 'user', 'summary', 'USER_CONTEXT: review both PRs\nCOMPLETED: GitLab review posted')] : [item('e5', 'system', 'compaction', 'microcompact')]),
    call('e6', '{"command":"grep -n verify_access openhands/integrations/gitlab/service/base.py"}'),
    call('e7', '{"command":"grep -n get_suggested_tasks openhands/integrations/bitbucket/service/base.py"}'),
  ];
  // The condensation forgets the GitLab diff (e2) and keeps the BitBucket one; the microcompaction clears e2's result only.
  const replacedIds = kind === 'condensation' ? ['e2', 'e2.r'] : ['e2.r'];
  s.compactions = [
    { id: 'c0', index: 0, kind, trigger: 'auto', tokensBefore: null, tokensAfter: null, replacedIds, keptIds: [], summaryId: kind === 'condensation' ? 'e5' : null, atItemId: 'e5', source: { file: 'keep.json', line: null } },
  ];
  return s;
}

describe('what a compaction keeps verbatim', () => {
  for (const kind of ['condensation', 'microcompact'] as const) {
    it(`is not lost (${kind}): an identifier the kept events still hold is not listed, one only the removed slice held is`, () => {
      const s = keepingSession(kind);
      const input = auditInputFor(s, s.compactions[0]!)!;
      expect(input.keptVerbatim!.some((t) => t.includes('bb.diff'))).toBe(true);
      expect(input.keptVerbatim!.some((t) => t.includes('verify_access'))).toBe(false);
      for (const audit of [auditSummary(input), auditSession(s)[0]!]) {
        expect(audit.lost).toContain('verify_access()');
        expect(audit.lost).not.toContain('get_suggested_tasks()');
        expect(audit.lostReferencedLater.map((r) => r.value)).toEqual(['verify_access()']);
      }
    });
  }

  it('is nothing for a summarizing compaction: an item it did not list is not taken as still seen', () => {
    const s = courseSession('## Conversation Summary\n- **Entities:** none');
    expect(auditInputFor(s, { ...s.compactions[0]!, keptIds: [] })!.keptVerbatim).toEqual([]);
    expect(auditInputFor(s, { ...s.compactions[0]!, replacedIds: ['m3'], keptIds: [] })!.keptVerbatim).toEqual([]);
  });

  it('is not what an earlier compaction already replaced', () => {
    const s = keepingSession('condensation');
    // A second condensation forgets the BitBucket diff as well: nothing of the first forgotten range comes back.
    s.items.splice(8, 0, item('e5b', 'assistant', 'message', 'Next: the BitBucket review.'), item('e5c', 'user', 'summary', 'USER_CONTEXT: review both PRs'));
    s.compactions.push({ ...s.compactions[0]!, id: 'c1', index: 1, replacedIds: ['e3', 'e3.r', 'e4', 'e5'], summaryId: 'e5c', atItemId: 'e5c' });
    const kept = auditInputFor(s, s.compactions[1]!)!.keptVerbatim!;
    expect(kept.join('\n')).not.toMatch(/gitlab\.diff|bb\.diff|Both diffs/);
    expect(kept).toContain('Next: the BitBucket review.');
    expect(auditSession(s)[1]!.lost).toContain('get_suggested_tasks()');
  });
});

describe('auditSession', () => {
  it('gives one row per compaction in the CLI shape, keeping db-prod-1, 5432 and FRE-512 in a schema summary', () => {
    const rows = auditSession(courseSession('## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512'));
    expect(rows).toEqual([
      {
        compaction: 0,
        compactionId: 'c0',
        kept: ['db-prod-1', '5432', 'FRE-512'],
        // read_file is a tool: its name is in every call's schema, so it is neither kept nor lost.
        lost: ['config/db.yaml'],
        lostReferencedLater: [],
        lostRefetchedLater: [],
        invented: [],
        instructionLike: [],
        inventedInstructions: [],
        // read_file() is left out of the functions with the tool names.
        survival: {
          paths: { evicted: 1, kept: 0 },
          commands: { evicted: 0, kept: 0 },
          numbers: { evicted: 1, kept: 1 },
          identifiers: { evicted: 1, kept: 1 },
          urls: { evicted: 1, kept: 1 },
          functions: { evicted: 0, kept: 0 },
          instructions: { evicted: 1, kept: 0 },
        },
        kinds: {
          'read_file()': 'function',
          'config/db.yaml': 'path',
          'db-prod-1': 'host',
          '5432': 'port',
          'FRE-512': 'ticket',
        },
      },
    ]);
  });

  it("after a marker fallback, lists host and port as asked for by the user's question, not the assistant's", () => {
    const [row] = auditSession(courseSession('[Earlier messages truncated]'));
    expect(row!.kept).toEqual([]);
    expect(row!.lost).toEqual(['config/db.yaml', 'db-prod-1', '5432', 'FRE-512']);
    expect(row!.lostReferencedLater).toEqual([
      { value: 'db-prod-1', itemId: 'm5', via: 'question' },
      { value: '5432', itemId: 'm5', via: 'question' },
    ]);
  });
});

/** The audit compaction by compaction, as `auditSession` defines it: every later item scanned, tool names left out. */
function referenceAudit(session: Session): CompactionAudit[] {
  const tools = new Set(session.items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));
  const isTool = (v: string) => tools.has(v.replace(/\(\)$/, ''));
  return session.compactions.flatMap((event) => {
    const input = auditInputFor(session, event);
    if (!input) return [];
    const a = auditSummary(input, { indexAboveLost: Infinity });
    const filtered = withoutToolNames(a, tools);
    // The filter's own promise, checked here rather than trusted: no tool name in any list.
    for (const list of [filtered.kept, filtered.lost, filtered.invented]) expect(list.some(isTool)).toBe(false);
    return [{ compaction: event.index, compactionId: event.id, ...filtered, ...unrecordedRestoreOf(session, event, false) }];
  });
}

/**
 * A long made-up session dense in identifiers of every kind, with many overlapping compactions of every
 * shape: summary items, boundary records, markers without either, log summaries, evicted items after the
 * anchor, repeated item ids, user questions, tool calls, summaries that keep, lose and invent facts.
 */
function randomSession(seed: number, size: number): Session {
  const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  const pick = <T>(xs: T[]): T => xs[r(xs.length)]!;
  const n = () => String(pick([7, 20, 30, 1024, 5432, 12345]));
  const facts: (() => string)[] = [
    () => `src/${pick(['db', 'api'])}/${pick(['pool', 'conn', 'retry'])}_${pick(['a', 'b'])}.ts`,
    () => `db-prod-${r(3)}:${pick([5432, 6379])}`,
    () => `FRE-${r(30)}`,
    () => `v1.${r(4)}.${r(3)}`,
    () => `v${r(3)}`,
    () => `${r(90)} ms`,
    () => `${n()}s`,
    () => `$1,0${r(3)}4`,
    () => `${r(3)},${100 + r(900)} rows`,
    () => `pool_size: ${n()}`,
    () => `pool size is ${n()}`,
    () => `getConn${r(4)}()`,
    () => `https://api.example.com/v${r(3)}`,
    () => `${pick(['October', 'Oct', 'Sept'])} ${1 + r(9)}, 202${r(6)}`,
    () => `2025-1${r(3)}-0${1 + r(8)}`,
    () => `in 202${r(6)}`,
    () => `(510) 555-01${r(10)}${r(10)}`,
    () => `510555${r(10)}136`,
    () => `port ${n()}`,
    () => `host: db${r(3)}.internal`,
    () => 'read_file()',
  ];
  const text = (k: number) => Array.from({ length: k }, () => `${pick(['the agent read', 'saw', 'Oct', 'in', 'node'])} ${pick(facts)()}${pick([';', '.', '', '\n'])}`).join(' ');
  const s = emptySession('openai-chat', 'random.json', `random-${seed}`);
  const ask = () => pick(['Which port again?', 'What was the file?', 'Which version?', 'Which pool size was it?', 'What date?', 'Which ticket?', 'ok.']);
  for (let i = 0; i < size; i++) {
    const id = r(40) === 0 && i > 0 ? s.items[r(i)]!.id : `m${i}`;
    const shape = r(10);
    if (shape < 2) s.items.push(item(id, 'user', 'message', `${text(1)} ${ask()}`));
    else if (shape < 4) s.items.push(item(id, 'assistant', 'tool_call', `{"q":"${text(1).replace(/["\\\n]/g, ' ')}"}`, pick(['read_file', 'grep'])));
    else if (shape < 7) s.items.push(item(id, 'tool', 'tool_result', text(3 + r(5)), 'read_file'));
    else if (shape < 8) s.items.push(item(id, 'assistant', 'summary', `${text(2)} You must deploy build ${i}. ${ask()}`));
    else if (shape < 9) s.items.push(item(id, 'system', 'compaction', ''));
    else s.items.push(item(id, 'assistant', 'message', `${text(2)} ${ask()}`));
  }
  const ids = s.items.map((i) => i.id);
  for (let c = 0; c < Math.floor(size / 8); c++) {
    const at = 1 + r(size - 1);
    const from = r(at);
    const replacedIds = ids.slice(from, at).filter(() => r(4) > 0);
    if (r(6) === 0) replacedIds.push(ids[r(size)]!);
    const summary = s.items.slice(at).find((i) => i.kind === 'summary');
    const shape = r(5);
    s.compactions.push({
      id: `c${c}`,
      index: c,
      kind: 'summary',
      trigger: null,
      tokensBefore: null,
      tokensAfter: null,
      replacedIds: r(12) === 0 ? [] : replacedIds,
      keptIds: [],
      summaryId: shape < 2 ? (summary?.id ?? null) : shape === 2 ? 'missing' : null,
      atItemId: shape === 1 || shape === 3 ? ids[at]! : null,
      source: { file: 'random.json', line: null },
      ...(r(3) === 0 ? { log: { strategy: 's', evicted: null, fallback: null, keptIdentifiers: [], lostIdentifiers: [], summary: text(2), sessionId: null, turn: null, requestId: null } } : {}),
    });
  }
  return s;
}

describe('auditSession on many compactions', () => {
  it('gives exactly the compaction-by-compaction audit on made-up sessions with many overlapping compactions', () => {
    for (const seed of [1, 2, 3]) {
      const s = randomSession(seed, 240);
      const rows = auditSession(s);
      expect(rows).toEqual(referenceAudit(s));
      expect(rows.length).toBeGreaterThan(20);
      // The made-up session exercises every part of the audit.
      expect(rows.some((a) => a.lostReferencedLater.some((x) => x.via === 'mention'))).toBe(true);
      expect(rows.some((a) => a.lostReferencedLater.some((x) => x.via === 'question'))).toBe(true);
      expect(rows.some((a) => a.kept.length > 0)).toBe(true);
      expect(rows.some((a) => a.invented.length > 0)).toBe(true);
      expect(rows.some((a) => a.instructionLike.length > 0)).toBe(true);
    }
    // Three sessions, each audited twice (once the slow reference way): seconds on a loaded machine.
  });

  it('gives exactly the compaction-by-compaction audit on every fixture and demo session', () => {
    let compactions = 0;
    for (const dir of ['src/formats/__fixtures__', 'public/demos', 'src/audit/__fixtures__']) {
      for (const f of readdirSync(dir)) {
        for (const s of loadText(f, readFileSync(join(dir, f), 'utf8')).sessions) {
          compactions += s.compactions.length;
          expect(auditSession(s), f).toEqual(referenceAudit(s));
        }
      }
    }
    expect(compactions).toBeGreaterThan(5);
  });

  // The bench's sessions (bench/cli-vs-ccusage.ts) at a quarter of their size: a project's files and functions read,
  // edited and named again after the compaction, so the session walk's memos and look-ups (a lost function declared
  // in the slice and again in a later file, lost identifiers named later) decide rows here.
  it('gives exactly the compaction-by-compaction audit on generated Claude Code sessions of the bench\'s shape', () => {
    let needed = 0;
    for (const seed of [100, 101]) {
      const text = claudeCodeSession({ ...CLAUDE_CODE_TYPICAL, seed, records: 400, bytes: 750_000, compactions: 2 });
      const [s] = loadText(`generated-${seed}.jsonl`, text).sessions;
      const rows = auditSession(s!);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows).toEqual(referenceAudit(s!));
      needed += rows.reduce((n, a) => n + a.lostReferencedLater.length + a.lostRefetchedLater.length, 0);
    }
    expect(needed).toBeGreaterThan(10);
  });
});

describe('auditSession on a background task and a deep path', () => {
  // Modelled on the shared Claude Code sample (marot/spotter): a test run sent to the background, its id and output
  // file lost by the summary, then, after the harness's notice, a Read of that output file by exact path.
  function backgroundSession(): Session {
    const s = emptySession('claude-code', 'bg.jsonl', 'bg');
    s.meta['cwd'] = '/home/dev/app';
    const out = '/tmp/claude-1000/-home-dev-app/tasks/b7636e2.output';
    s.items = [
      item('u1', 'user', 'message', 'Run the SessionLive tests in the background, then look at lib/app/services/poller.ex'),
      item('c1', 'assistant', 'tool_call', '{"command":"mix test test/app_web/live/session_live_test.exs","run_in_background":true}', 'Bash'),
      item('r1', 'tool', 'tool_result', `Command running in background with ID: b7636e2. Output is being written to: ${out}`),
      item('sum', 'user', 'summary', 'This session is being continued from a previous conversation. The user asked to run the tests and look at the poller.'),
      item('n', 'user', 'message', `<task-notification>\n<task-id>b7636e2</task-id>\n<output-file>${out}</output-file>\n<status>completed</status>\n</task-notification>`),
      item('c2', 'assistant', 'tool_call', `{"file_path":"${out}"}`, 'Read'),
      item('r2', 'tool', 'tool_result', '1→Finished in 0.4 seconds\n2→12 tests, 0 failures'),
      item('u2', 'user', 'message', 'why does lib/app/services/poller.ex retry forever?'),
    ];
    s.compactions = [{ id: 'c0', index: 0, kind: 'compact', trigger: 'auto', tokensBefore: null, tokensAfter: null, replacedIds: ['u1', 'c1', 'r1'], keptIds: [], summaryId: 'sum', atItemId: 'sum', source: { file: 'bg.jsonl', line: null } }];
    return s;
  }

  it('needs the task id and its output file that a later call opens, and a deep path named whole, as the reference reading does', () => {
    const s = backgroundSession();
    const [row] = auditSession(s);
    // The notice is the harness's; the Read takes the output file by exact path, whose name is the task's id.
    expect(row!.lostReferencedLater).toEqual([
      { value: 'lib/app/services/poller.ex', itemId: 'u2', via: 'mention' },
      { value: 'b7636e2', itemId: 'c2', via: 'mention' },
      { value: '/tmp/claude-1000/-home-dev-app/tasks/b7636e2.output', itemId: 'c2', via: 'mention' },
    ]);
    expect(auditSession(s)).toEqual(referenceAudit(s));
    // Without the Read, the notice alone shows no need of the id or the file.
    s.items = s.items.filter((i) => i.id !== 'c2' && i.id !== 'r2');
    expect(auditSession(s)[0]!.lostReferencedLater.map((r) => r.value)).toEqual(['lib/app/services/poller.ex']);
  });
});

describeSamples('auditSession on the shared compacted Claude Code sample', () => {
  it('lists the lost background task id and its output file, which a later Read opens, as needed later', () => {
    const s = loadFiles([readSample('claude-code-compacted.jsonl')]).sessions.find((x) => x.compactions.length > 0)!;
    const [row] = auditSession(s);
    expect(row!.lostReferencedLater.map((r) => r.value)).toEqual(['b7636e2', '/tmp/claude-1000/-home-USER-projects-spotter-worktrees-spotter-dov/tasks/b7636e2.output']);
    // One row per file: the bare name, the relative and the absolute spelling of the dependency file are one row, under
    // its path relative to the working directory (labelled rows d0002, d0043, d0044, d0072, d0076).
    const files = row!.lostRefetchedLater.filter((r) => r.value.endsWith('.ex'));
    expect(files.map((r) => [r.value, [...(r.spellings ?? [])].sort()])).toEqual([
      ['deps/ash_computer/lib/ash_computer/live_view.ex', ['/home/USER/projects/spotter-worktrees/spotter-dov/deps/ash_computer/lib/ash_computer/live_view.ex', 'live_view.ex']],
      ['lib/spotter/services/waiting_summary.ex', ['waiting_summary.ex']],
    ]);
  });

  it('gives exactly the compaction-by-compaction audit on every shared sample with a compaction', () => {
    let rows = 0;
    for (const name of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.jsonl'))) {
      for (const s of loadFiles([readSample(name)]).sessions) {
        const audit = auditSession(s);
        rows += audit.length;
        expect(audit, name).toEqual(referenceAudit(s));
      }
    }
    expect(rows).toBeGreaterThan(0);
  });
});

// Modelled on two real Claude Code sessions of the never-studied pool's study part (session 45): a memory note that
// names one project's premises file beside another's (roo-oliv/monodreams), and an nginx site file named after the
// server it serves (Safecast/safecast-map-MCP). Each is one evicted read, a summary, then a later read of the file.
function readThenSummary(note: string, summaryText: string, later: string): Session {
  const s = emptySession('openai-chat', 'kept-spelling.json', 'kept-spelling');
  s.items = [
    item('m0', 'system', 'message', 'You are a coding agent.'),
    item('m1', 'user', 'message', 'Carry on with the task.'),
    item('m2.call0', 'assistant', 'tool_call', '{"path":"notes.md"}', 'read_file'),
    item('m3', 'tool', 'tool_result', note, 'read_file'),
    item('m4', 'assistant', 'summary', summaryText),
    later.startsWith('{') ? item('m5', 'assistant', 'tool_call', later, 'bash') : item('m5', 'user', 'message', later),
  ];
  s.compactions = [summaryOfM1toM3('kept-spelling.json')];
  return s;
}
const neededOf = (a: CompactionAudit) => [...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value);

describe('auditSession: what the summary holds under another spelling', () => {
  const note = 'Line spacing premise added in `rendering-text/docs/premises.md`; the dialogue one is `dialogue/docs/premises.md`.';
  const later = 'Now open rendering-text/docs/premises.md and apply the line spacing premise.';

  it('loses a path whose last two segments the summary writes only under another folder, and finds it needed later', () => {
    const [audit] = auditSession(readThenSummary(note, 'Updated `MonoDreams/dialogue/docs/premises.md` with the UI rendering rule.', later));
    expect(audit!.kept).not.toContain('rendering-text/docs/premises.md');
    expect(audit!.lost).toContain('rendering-text/docs/premises.md');
    expect(neededOf(audit!)).toContain('rendering-text/docs/premises.md');
  });

  it('keeps it when the summary writes it under a longer prefix of the same folders', () => {
    const [audit] = auditSession(readThenSummary(note, 'Updated `MonoDreams/rendering-text/docs/premises.md` with the line spacing rule.', later));
    expect(audit!.kept).toContain('rendering-text/docs/premises.md');
    expect(neededOf(audit!)).not.toContain('rendering-text/docs/premises.md');
  });

  it('does not read a host named in the summary as the file of the same name, when the slice reaches that host', () => {
    const site = 'ssh root@maps.example.org cat /etc/nginx/sites-enabled/maps.example.org\nserver_name maps.example.org;\nlocation /api/ { proxy_pass http://127.0.0.1:3333; }\nsee https://maps.example.org/docs/';
    const s = readThenSummary(site, 'SSH to maps.example.org timed out once; the proxy serves /api/ on port 3333.', '{"command":"ssh root@maps.example.org sed -n 1,40p /etc/nginx/sites-enabled/maps.example.org"}');
    const [audit] = auditSession(s);
    expect(audit!.lost).toContain('/etc/nginx/sites-enabled/maps.example.org');
    expect(neededOf(audit!)).toContain('/etc/nginx/sites-enabled/maps.example.org');
  });

  it('still keeps a file by its name alone when no URL, host:port or user@host of the slice names that host', () => {
    const s = readThenSummary('Wrote the zone file /etc/bind/db.example.org for the new records.', 'Wrote the zone file db.example.org.', 'Open /etc/bind/db.example.org again.');
    const [audit] = auditSession(s);
    expect(audit!.kept).toContain('/etc/bind/db.example.org');
  });
});

describe('auditSession on a slash command whose expanded text prints a lost file', () => {
  // Modelled on tslater/duet (an Entire checkpoint): /commit's expansion, flagged isMeta, holds `git status`, and the
  // git add after it copies a path the summary had lost. The path came back afresh, as a tool's output would bring it.
  function session(meta: Item['meta'], typed?: string): Session {
    const s = emptySession('claude-code', 'commit.jsonl', 'commit');
    s.meta['cwd'] = '/home/u/duet';
    s.items = [
      item('m1', 'user', 'message', 'Tidy the retro command.'),
      item('m2', 'assistant', 'tool_call', '{"command":"git status --short"}', 'Bash'),
      item('m3', 'tool', 'tool_result', ' M commands/retro.md', 'Bash'),
      item('m4', 'user', 'summary', 'This session is being continued. Summary: the user asked to tidy a command; done.'),
      ...(typed ? [item('m4b', 'user', 'message', typed)] : []),
      { ...item('m5', 'user', 'message', '## Context\n\n- Current git status: Changes not staged for commit:\n\tmodified:   commands/retro.md'), meta },
      item('m6', 'assistant', 'tool_call', '{"command":"git add commands/retro.md && git commit -m tidy"}', 'Bash'),
    ];
    s.compactions = [{ ...summaryOfM1toM3('commit.jsonl'), replacedIds: ['m1', 'm2', 'm3'], keptIds: [] }];
    return s;
  }
  it('lists the path as fetched again through the harness-written text, not as needed without a fetch', () => {
    const [a] = auditSession(session({ isMeta: true }));
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain('commands/retro.md');
    expect(a!.lostRefetchedLater.find((r) => r.value === 'commands/retro.md')).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm6' });
  });
  it("still reads a file the harness attaches beside the person's turn as no fetch", () => {
    // (Right after the summary, with no turn of the person's before it, a file attachment is Claude Code's post-compact
    // restoration: restored-files.test.ts.)
    const [attached] = auditSession(session({ isMeta: true, attachment: 'file' }, 'commit the tidy-up'));
    expect(attached!.lostReferencedLater.map((r) => r.value)).toContain('commands/retro.md');
  });
});

describe('auditSession on a listing that prints a lost file relative to the folder it lists', () => {
  const cwd = '/home/u/signalkit';
  const call = (id: string, command: string, pair: string): Item => ({ ...item(id, 'assistant', 'tool_call', JSON.stringify({ command }), 'Bash'), pairId: pair });
  const result = (id: string, text: string, pair: string): Item => ({ ...item(id, 'tool', 'tool_result', text, 'Bash'), pairId: pair });
  const abs = (file: string) => (file.startsWith('/') ? file : `${cwd}/${file}`);
  /** A slice that edits `file`, a summary that names none of it, then `after`. */
  function session(file: string, after: Item[]): Session {
    const s = emptySession('claude-code', 'listing.jsonl', 'listing');
    s.meta['cwd'] = cwd;
    s.items = [
      item('m1', 'user', 'message', `Add the controls to ${file} and the island view.`),
      { ...item('m2', 'assistant', 'tool_call', JSON.stringify({ file_path: abs(file), old_string: 'Controls', new_string: 'Controls: WASD' }), 'Edit'), pairId: 'm3' },
      { ...item('m3', 'tool', 'tool_result', `The file ${abs(file)} has been updated.`, 'Edit'), pairId: 'm2' },
      item('m4', 'user', 'summary', 'This session is being continued. Summary: the user asked for first-person controls; they work now.'),
      ...after,
    ];
    s.compactions = [{ ...summaryOfM1toM3('listing.jsonl'), replacedIds: ['m1', 'm2', 'm3'], keptIds: [] }];
    return s;
  }

  // Modelled on blackgirlbytes/planetfall-seed-signalkit (s51): `git status --short` printed ` M README.md` three times
  // after the compaction before `git diff README.md` took it.
  it('reads a conventional name that git status run in the working directory prints as fetched again, used by the later call', () => {
    const [a] = auditSession(
      session('README.md', [call('m5', 'git status --short', 'm6'), result('m6', ' M PLAN.md\n M README.md\n M src/main.js', 'm5'), call('m7', 'git diff README.md | head -40', 'm8')]),
    );
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain('README.md');
    expect(a!.lostRefetchedLater.find((r) => r.value === 'README.md')).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
  });

  it('keeps the exact-path caution: another folder\'s listing printing the same name does not bring the working directory\'s file back', () => {
    const [a] = auditSession(session('README.md', [call('m5', 'ls docs', 'm6'), result('m6', 'README.md\nsetup.md', 'm5'), call('m7', 'git diff README.md', 'm8')]));
    expect(a!.lostRefetchedLater.map((r) => r.value)).not.toContain('README.md');
    expect(a!.lostReferencedLater.find((r) => r.value === 'README.md')).toMatchObject({ itemId: 'm7', via: 'mention' });
  });

  it('reads a file an ls of its folder prints by name as fetched again, used by the call that opens it', () => {
    // The brief's example: `ls node_modules/three/build/` printed `three.core.js` before the call that used the path.
    const file = 'src/vendor/three/build/three.core.js';
    const [a] = auditSession(session(file, [call('m5', 'ls src/vendor/three/build/', 'm6'), result('m6', 'three.cjs\nthree.core.js\nthree.module.js', 'm5'), call('m7', `grep -n "class Vector3" ${file}`, 'm8')]));
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain(file);
    expect(a!.lostRefetchedLater.find((r) => r.value === file)).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
  });

  // Modelled on w-toguchi83/dynamic-sanmei (s63): `git diff --stat` elided the test file's head as `.../tests/unit/…`
  // before `git show branch:packages/…/test_fortune.py` took it.
  it('reads a path whose head git --stat elided as printed again', () => {
    const file = 'packages/core/tests/unit/calculators/test_fortune.py';
    const stat = ' .../core/src/core/domain/fortune.py |  41 ++++\n .../tests/unit/calculators/test_fortune.py         | 231 +++++++\n 2 files changed, 272 insertions(+)';
    const [a] = auditSession(session(file, [call('m5', `cd ${cwd} && git diff --stat main...worktree-agent-a49b`, 'm6'), result('m6', stat, 'm5'), call('m7', `git show worktree-agent-a49b:${file}`, 'm8')]));
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain(file);
    expect(a!.lostRefetchedLater.find((r) => r.value === file)).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
  });

  // Modelled on Safecast's session (hold-out 3's study part, h3sc2-031): `grep -r 'mcp' /etc/nginx/sites-enabled/` printed
  // the site file's absolute path before the call that read it, a file outside the project (the exact-path branch).
  it('reads an absolute path outside the project that fresh output prints in full as fetched again', () => {
    const file = '/etc/nginx/sites-enabled/maps.example.org';
    const grep = `${file}:    location /mcp {\n${file}:    location /mcp-http {`;
    const [a] = auditSession(session(file, [call('m5', "grep -r 'mcp' /etc/nginx/sites-enabled/", 'm6'), result('m6', grep, 'm5'), call('m7', `grep -A 10 'location /mcp' ${file}`, 'm8')]));
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain(file);
    expect(a!.lostRefetchedLater.find((r) => r.value === file)).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
  });

  // Modelled on Safecast/safecast-map-MCP (s21): `systemctl status` named the deployed binary inside a line before
  // `ssh … md5sum` took it. An absolute path names one file wherever it is printed: that output brought it back.
  it('reads output that names the absolute path inside a line as printing the file again', () => {
    const file = '/root/mcp-server/mcp';
    const status = `● mcp.service - MCP server\n     Active: activating (auto-restart)\n    Process: 676901 ExecStart=${file} (code=exited, status=203/EXEC)`;
    const [a] = auditSession(session(file, [call('m5', 'ssh root@host "systemctl status mcp --no-pager"', 'm6'), result('m6', status, 'm5'), call('m7', `ssh root@host "md5sum ${file}"`, 'm8')]));
    expect(a!.lostReferencedLater.map((r) => r.value)).not.toContain(file);
    expect(a!.lostRefetchedLater.find((r) => r.value === file)).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
  });

  // Modelled on code-insights (hold-out 13's study part, h13ci1-010): a re-read of the server's index printed the
  // health route before a subagent's prompt named it; a longer route that holds it is another thing.
  it('reads a route that a file read prints whole before the use as fetched again, and not one inside a longer route', () => {
    const route = '/api/health';
    const read = (text: string) => [call('m5', 'cat server/src/index.ts', 'm6'), result('m6', text, 'm5'), call('m7', `xh GET localhost:3000 ${route}`, 'm8')];
    const [a] = auditSession(session(route, read(`  app.get('${route}', (c) => c.json({ ok: true }));`)));
    expect(a!.lostRefetchedLater.find((r) => r.value === route)).toMatchObject({ itemId: 'm5', via: 'reprint', usedIn: 'm7' });
    const [b] = auditSession(session(route, read(`  app.get('${route}/deep', (c) => c.json({ ok: true }));`)));
    expect(b!.lostRefetchedLater.map((r) => r.value)).not.toContain(route);
  });

  it('gives the compaction-by-compaction audit the same reading', () => {
    const file = '/etc/nginx/sites-enabled/maps.example.org';
    const sessions = [
      session('README.md', [call('m5', 'git status --short', 'm6'), result('m6', ' M README.md', 'm5'), call('m7', 'git diff README.md', 'm8')]),
      session('lib/three/build/three.core.js', [call('m5', 'ls lib/three/build', 'm6'), result('m6', 'three.core.js', 'm5'), call('m7', 'cat lib/three/build/three.core.js', 'm8')]),
      session(file, [call('m5', 'grep -r mcp /etc/nginx/sites-enabled/', 'm6'), result('m6', `${file}:  location /mcp {`, 'm5'), call('m7', `cat ${file}`, 'm8')]),
    ];
    for (const s of sessions) {
      const rows = auditSession(s);
      expect(rows[0]!.lostRefetchedLater.map((r) => r.via)).toEqual(['reprint']);
      expect(rows).toEqual(referenceAudit(s));
    }
  });
});

describe('auditSession on Claude Code’s plan file', () => {
  // Modelled on paulglx/dcr (the pool's study part, session 59; Claude Code 2.1.79): the agent wrote its plan in plan
  // mode, a /compact evicted the Write, and the agent Read the plan file next. The harness had named the file again
  // (plan mode's reminder; after a compaction, the `plan_file_reference` attachment), in nothing the file records.
  const plan = '/Users/u/.claude/plans/inherited-stargazing-sifakis.md';
  function session(slug: string | undefined): Session {
    const s = emptySession('claude-code', 'dcr.jsonl', 'dcr');
    s.meta['cwd'] = '/Users/u/dcr';
    if (slug) s.meta['slug'] = slug;
    s.items = [
      item('m1', 'user', 'message', 'Add a file explorer as a left pane.'),
      item('m2', 'assistant', 'tool_call', JSON.stringify({ file_path: plan, content: '# Add File Explorer Left Pane' }), 'Write'),
      item('m3', 'tool', 'tool_result', `File created successfully at: ${plan}`, 'Write'),
      item('m4', 'user', 'summary', 'This session is being continued. Summary: the user asked for a file explorer pane; a plan was written.'),
      item('m5', 'user', 'message', 'Now make Enter focus the tag table.'),
      item('m6', 'assistant', 'tool_call', JSON.stringify({ file_path: plan }), 'Read'),
    ];
    s.compactions = [{ ...summaryOfM1toM3('dcr.jsonl'), replacedIds: ['m1', 'm2', 'm3'], keptIds: [] }];
    return s;
  }
  it('does not list the session’s own plan file as lost: the harness names it in every request', () => {
    const [a] = auditSession(session('inherited-stargazing-sifakis'));
    expect(a!.lost).not.toContain(plan);
    expect(neededOf(a!)).not.toContain(plan);
  });
  it('lists it when the records carry another slug, or none', () => {
    expect(neededOf(auditSession(session('another-plan-slug'))[0]!)).toContain(plan);
    expect(neededOf(auditSession(session(undefined))[0]!)).toContain(plan);
  });
});

describe('auditSession on a Claude Code that read files again after compacting without recording which', () => {
  // Claude Code reads the files the agent used last into the context again after a compaction; 2.1.92 and later
  // record them as `file` attachments beside the summary, 2.1.88 and before record nothing (thomas0369/claude_ai,
  // 2.0.19: the agent's thinking names the files read again). The audit cannot tell which: it says so.
  function session(version: string | undefined, kind: CompactionEvent['kind'] = 'compact'): Session {
    const s = emptySession('claude-code', 'restore.jsonl', 'restore');
    if (version) s.meta['version'] = version;
    s.items = [
      item('m1', 'user', 'message', 'Start the server and note its PID in /tmp/server.pid.'),
      { ...item('m2', 'assistant', 'tool_call', JSON.stringify({ file_path: '/tmp/server.pid', content: '119662' }), 'Write'), pairId: 'm3' },
      { ...item('m3', 'tool', 'tool_result', 'File created successfully at: /tmp/server.pid', 'Write'), pairId: 'm2' },
      item('m4', 'user', 'summary', 'This session is being continued. Summary: the server runs.'),
      item('m5', 'assistant', 'tool_call', JSON.stringify({ command: 'ps -p 119662' }), 'Bash'),
    ];
    s.compactions = [{ ...summaryOfM1toM3('restore.jsonl'), kind, replacedIds: ['m1', 'm2', 'm3'], keptIds: [] }];
    return s;
  }
  it('names the version of a compaction whose files read again are not recorded, and no other', () => {
    expect(auditSession(session('2.0.19'))[0]!.restoredUnrecorded).toBe('2.0.19');
    expect(auditSession(session('2.1.88'))[0]!.restoredUnrecorded).toBe('2.1.88');
    expect(auditSession(session('1.0.120'))[0]!.restoredUnrecorded).toBe('1.0.120');
    for (const v of ['2.1.92', '2.1.226', '3.0.1', undefined]) expect(auditSession(session(v))[0]!.restoredUnrecorded).toBeUndefined();
    // A microcompaction clears tool results and reads nothing again.
    expect(auditSession(session('2.0.19', 'microcompact'))[0]?.restoredUnrecorded).toBeUndefined();
  });
  it('still lists what it lost: the note is a caveat, not a verdict', () => {
    expect(neededOf(auditSession(session('2.0.19'))[0]!)).toContain('119662');
  });
});
