import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import type { Item, Session } from '../model/types';
import { assistant, boundary, compaction, marker, response, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { lintSession } from './lint-session';
import { LEAD_ORDERS, teammateBlock } from '../test/team-messages';

const words = (text: string) => text.split(/\s+/).length;
function lint(s: Session) {
  const ctx = sessionContexts(s);
  return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4) });
}
const rules = (s: Session) => lint(s).map((l) => [l.rule, l.itemId]);

const GOOD = '## Conversation Summary\n- **Decisions:** a\n- **Entities:** b\n- **Facts:** c\n- **Open Items:** d';

describe('lintSession', () => {
  it('finds nothing wrong in a clean compaction', () => {
    const s = session([system('s', 'x'), user('u1', 'a'), assistant('a1', 'b'), boundary('b'), summary('sum', GOOD), user('u2', 'c'), assistant('a2', 'd')], {
      compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['a1'] })],
    });
    expect(rules(s)).toEqual([]);
  });

  it('flags a recap inserted with role system after the first message', () => {
    const s = session([system('s', 'x'), user('u1', 'a'), assistant('a1', 'b'), summary('sum', GOOD, 'system'), user('u2', 'c'), assistant('a2', 'd')], {
      compactions: [compaction('c', { atItemId: 'sum', summaryId: 'sum', replacedIds: ['a1'] })],
    });
    expect(rules(s)).toContainEqual(['recap-system-role', 'sum']);
  });

  it('flags missing schema sections, a missing header and an overlong summary', () => {
    const long = `## Conversation Summary\n- **Decisions:** ${'word '.repeat(210)}\n- **Facts:** x`;
    const s = session([user('u1', 'a'), summary('s1', long), assistant('a1', 'b'), summary('s2', '- **Decisions:** a\n- **Facts:** b'), assistant('a2', 'c')]);
    expect(words(long)).toBeGreaterThan(200);
    expect(rules(s)).toEqual(expect.arrayContaining([
      ['summary-section-missing', 's1'],
      ['summary-too-long', 's1'],
      ['summary-header-missing', 's2'],
    ]));
  });

  it('flags a tool result whose call was evicted', () => {
    const s = session([user('u1', 'a'), toolCall('c1', 'k', 'read'), toolResult('r1', 'k', 'out'), boundary('b'), summary('sum', GOOD), assistant('a2', 'd')], {
      compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1'] })],
    });
    s.items[1]!.pairId = 'r1';
    s.items[2]!.pairId = 'c1';
    expect(rules(s)).toContainEqual(['tool-pair-split', 'r1']);
  });

  it('flags a user message placed after the tool call that uses what it says (the LiveKit tail bug)', () => {
    const tail = (said: string) => {
      const s = session([
        system('s', 'x'),
        summary('sum', '[history summary] earbuds'),
        toolCall('c1', 'k', 'create_rma', '{"address":"2150 Grove St, Apt 4B, Oakland, CA 94612"}'),
        toolResult('r1', 'k', '{"rma_id":"RMA-90721"}'),
        user('u', 'Ship to 2150 Grove St, Apt 4B, Oakland, CA 94612. Phone is (510) 555-0136.'),
        assistant('a', 'All set!'),
      ]);
      s.items[2]!.timestamp = '2025-10-14T14:01:46.100Z';
      s.items[4]!.timestamp = said;
      return s;
    };
    // As in the PR's example: the user gave the address at 14:01:44, the tail rebuilt after the summary put it after
    // the call that used it.
    expect(rules(tail('2025-10-14T14:01:44.600Z'))).toContainEqual(['causal-order', 'u']);
    // The lint says how it knows the message came first.
    expect(lint(tail('2025-10-14T14:01:44.600Z')).find((l) => l.rule === 'causal-order')!.message).toBe(
      'user message placed after the tool call c1 (create_rma) that uses what it says, though it was written at 2025-10-14T14:01:44.600Z and the call made at 2025-10-14T14:01:46.100Z',
    );
    // Written after the call, the message answers what the person saw: the order it happened in.
    expect(rules(tail('2025-10-14T14:01:50.000Z')).filter(([r]) => r === 'causal-order')).toEqual([]);
  });

  it('reads words the context held before the call as no sign the call saw the message', () => {
    // Modelled on Bureau-IT/concertacaoamazonia (half A of bench/lints-on-sessions.ts): a message queued mid-turn
    // ("like CrocoBlock's Download Button, …") lands after an Agent call that names "Download Button", a widget the
    // task's summary and the files read had named all along.
    const s = session([
      summary('sum', 'Intent: extend the JetElements Download Button widget to list several files.'),
      toolCall('c1', 'k', 'Agent', '{"prompt":"look for any Download Button widget implementation in plugins/jet-elements"}'),
      toolResult('r1', 'k', 'found download-button.php'),
      user('u', 'like the Download Button of CrocoBlock, add the size in MB beside each file'),
      assistant('a', 'Adding a size field.'),
    ]);
    s.items[1]!.timestamp = '2026-03-13T03:19:46.099Z';
    s.items[3]!.timestamp = '2026-03-13T03:18:55.033Z';
    expect(rules(s).filter(([r]) => r === 'causal-order')).toEqual([]);
    // A call that holds the message's own words did see it.
    s.items[1]!.text = '{"prompt":"add the size in MB beside each file of the Download Button"}';
    expect(rules(s).filter(([r]) => r === 'causal-order')).toEqual([['causal-order', 'u']]);
  });

  it('orders by the record where model responses share one timestamp to the millisecond', () => {
    // Modelled on Tmeister/dotfiles: a resumed session stamped every response of the earlier turns with one time, so a
    // message the person typed later carries an earlier timestamp than the Write before it.
    const stamped = (shared: boolean) => {
      const s = session([
        user('u0', 'document the frontend'),
        { ...toolCall('c1', 'k', 'Write', '{"file_path":"resources/CLAUDE.md","content":"Pages live in resources/js/pages/sops/index.tsx"}'), responseId: 'r-1' },
        toolResult('r1', 'k', 'File created successfully'),
        { ...assistant('a1', 'Created the CLAUDE.md files.'), responseId: 'r-2' },
        user('u', 'a core process needs an editor like resources/js/pages/sops/index.tsx'),
        { ...assistant('a2', 'I will plan it.'), responseId: 'r-3' },
      ]);
      s.items[1]!.timestamp = '2025-06-19T19:23:09.001Z';
      s.items[3]!.timestamp = shared ? '2025-06-19T19:23:09.001Z' : '2025-06-19T19:23:10.500Z';
      s.items[4]!.timestamp = '2025-06-19T19:07:47.507Z';
      return s;
    };
    expect(rules(stamped(true)).filter(([r]) => r === 'causal-order')).toEqual([]);
    // Times that differ are read as written: the message was typed before the call that quotes it.
    expect(rules(stamped(false)).filter(([r]) => r === 'causal-order')).toEqual([['causal-order', 'u']]);
  });

  it('flags stacked and consecutive summaries, and the fallback marker', () => {
    const s = session([user('u1', 'a'), summary('s1', GOOD), summary('s2', GOOD.replace('a', 'z')), marker('m'), assistant('a1', 'b')]);
    expect(rules(s)).toEqual(expect.arrayContaining([
      ['consecutive-summaries', 's2'],
      ['stacked-summaries', 's2'],
      ['fallback-marker', 'm'],
    ]));
  });

  it('flags a recap regenerated at the same position on every call', () => {
    const req = (index: number, recap: string) => ({
      id: `q${index}`, index, model: null, api: 'openai-chat' as const, tools: null, output: [], usage: null, source: { file: 't', line: index + 1 },
      items: [system('s', 'x'), user('u1', 'a'), summary(`sum${index}`, recap), user(`u${index + 2}`, `q${index}`)],
    });
    const s = session([], { requests: [req(0, `${GOOD} v0`), req(1, `${GOOD} v1`), req(2, `${GOOD} v2`)] }, 'request-log');
    expect(rules(s)).toContainEqual(['recap-regenerated', 'sum2']);
    const stable = session([], { requests: [req(0, GOOD), req(1, GOOD), req(2, GOOD)].map((r) => ({ ...r, items: r.items.map((it) => (it.kind === 'summary' ? { ...it, id: 'sum' } : it)) })) }, 'request-log');
    expect(rules(stable).filter(([r]) => r === 'recap-regenerated')).toEqual([]);
  });

  it('does not call recaps that recorded compactions rewrote on consecutive calls a per-turn rewrite', () => {
    // Claude Code's back-to-back /compact (LAF-US/IDAHO-VAULT, 2.1.92): each call after a compaction holds a new summary.
    const req = (index: number, recap: string) => ({
      id: `q${index}`, index, model: null, api: 'openai-chat' as const, tools: null, output: [], usage: null, source: { file: 't', line: index + 1 },
      items: [system('s', 'x'), user('u1', 'a'), summary(`sum${index}`, recap), user(`u${index + 2}`, `q${index}`)],
    });
    const s = session([], { requests: [req(0, `${GOOD} v0`), req(1, `${GOOD} v1`), req(2, `${GOOD} v2`)] }, 'request-log');
    const recorded = session([], { requests: s.requests, compactions: [1, 2].map((k) => compaction(`c${k}`, { replacedIds: [`sum${k - 1}`], summaryId: `sum${k}`, requestId: `q${k}` })) }, 'request-log');
    expect(rules(recorded).filter(([r]) => r === 'recap-regenerated')).toEqual([]);
  });
});

describe('lintSession and the harness', () => {
  const nineSections = `Summary:\n1. Primary Request and Intent:\n${'The user asked for the transcript view to be rebuilt. '.repeat(40)}\n2. Key Technical Concepts:\n- Phoenix LiveView`;
  const claudeCode = () =>
    session(
      [
        user('u1', 'Work on bead spotter-dov.'),
        toolCall('c1', 'k1', 'Bash', '{"command":"mix test 2>&1 | tail -20"}'),
        toolResult('r1', 'k1', '14 doctests, 410 tests, 0 failures'),
        boundary('b'),
        summary('sum', nineSections, 'user'),
        toolCall('c2', 'k2', 'Bash', '{"command":"run_in_background mix test 2>&1 | tail -20"}'),
        toolResult('r2', 'k2', 'Command running in background with ID: b7636e2'),
        user('n', '<task-notification>\n<task-id>b7636e2</task-id>\n<summary>Background command "run_in_background mix test 2>&1 | tail -20" completed</summary>\n</task-notification>'),
        assistant('a2', 'Tests pass.'),
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1'] })] },
      'claude-code',
    );
  // Timed as a context rebuilt out of order would be: the message at item 7 was written before the call at item 5
  // that quotes it, so only who wrote it decides.
  const inverted = (s: Session, message: number, call: number) => {
    s.items[call]!.timestamp = '2026-02-12T10:00:05.000Z';
    s.items[message]!.timestamp = '2026-02-12T10:00:00.000Z';
    return s;
  };
  const lintWith = (s: Session, rules?: Parameters<typeof lintSession>[0]['rules']) => {
    const ctx = sessionContexts(s);
    return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4), rules }).map((l) => [l.rule, l.itemId]);
  };

  it('does not judge a Claude Code summary by the course schema, nor a task notification as a user message', () => {
    expect(wordCountOf(nineSections)).toBeGreaterThan(200);
    expect(lintWith(inverted(claudeCode(), 7, 5))).toEqual([]);
    // The same words typed by a person would be flagged.
    const typed = claudeCode();
    typed.items[7] = user('n', 'Background command "run_in_background mix test 2>&1 | tail -20" completed');
    expect(lintWith(inverted(typed, 7, 5))).toEqual([['causal-order', 'n']]);
  });

  it("does not read a teammate's message as a user message placed after the call that used it", () => {
    // Modelled on Beep206/CyberVPN 8e/d0e76731ba/3 (src/test/team-messages.ts): the lead's note arrives after the
    // teammate already ran what it names, as team messages wait for the next turn.
    const note = teammateBlock('team-lead', 'DOM-4 is complete. Run flutter test test/features/vpn_profiles/ now.', { summary: 'DOM-4 done, run tests' });
    const team = (text: string) =>
      session(
        [
          user('u0', LEAD_ORDERS),
          toolCall('c1', 'k1', 'Bash', '{"command":"flutter test test/features/vpn_profiles/"}'),
          toolResult('r1', 'k1', '00:03 +10: All tests passed!'),
          user('n', text),
          assistant('a2', 'Already done.'),
        ],
        {},
        'claude-code',
      );
    expect(lintWith(inverted(team(note), 3, 1))).toEqual([]);
    // The same words typed by a person would be flagged.
    expect(lintWith(inverted(team('DOM-4 is complete. Run flutter test test/features/vpn_profiles/ now.'), 3, 1))).toEqual([['causal-order', 'n']]);
  });

  it('judges a Claude Code summary by a word limit the user set for Claude Code, and not for Codex', () => {
    expect(lintWith(claudeCode(), { version: 1, rules: { 'summary-too-long': { 'claude-code': { threshold: 300 } } } })).toEqual([['summary-too-long', 'sum']]);
    expect(lintWith(claudeCode(), { version: 1, rules: { 'summary-too-long': { codex: { threshold: 300 } } } })).toEqual([]);
  });

  it('mutes a rule for one harness or for every harness, and moves the stacking threshold', () => {
    const stacked = session([user('u1', 'a'), summary('s1', GOOD), summary('s2', GOOD.replace('a', 'z')), assistant('a1', 'b')]);
    expect(lintWith(stacked)).toContainEqual(['stacked-summaries', 's2']);
    expect(lintWith(stacked, { version: 1, rules: { 'stacked-summaries': { '*': { muted: true } } } })).not.toContainEqual(['stacked-summaries', 's2']);
    expect(lintWith(stacked, { version: 1, rules: { 'stacked-summaries': { [stacked.format]: { muted: true } } } })).not.toContainEqual(['stacked-summaries', 's2']);
    expect(lintWith(stacked, { version: 1, rules: { 'stacked-summaries': { '*': { threshold: 2 } } } })).not.toContainEqual(['stacked-summaries', 's2']);
  });
  describe('unrecorded-drop: the provider counted far fewer tokens with nothing removed in the file', () => {
    const usage = (prompt: number) => ({ input: prompt, output: 100, cacheRead: 0, cacheWrite: null, inputIncludesCache: true });
    // Three calls in one tool loop: 40,000 then 41,000 then 20,000 prompt tokens, the file keeping everything.
    const loop = (third: Item[] = [toolCall('c2', 'k2', 'read'), toolResult('r2', 'k2', 'out')], extra: Partial<Session> = {}) =>
      session([system('s', 'x'), user('u1', 'fix it'), toolCall('c1', 'k1', 'read'), toolResult('r1', 'k1', 'out'), ...third, assistant('a3', 'done')], {
        responses: [response('p1', ['c1'], usage(40_000)), response('p2', [third[0]!.id], usage(41_000)), response('p3', ['a3'], usage(20_000))],
        ...extra,
      });
    const drops = (s: Session, opts: { usagePerTurn?: boolean } = {}) => {
      const ctx = sessionContexts(s);
      return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4), ...opts })
        .filter((l) => l.rule === 'unrecorded-drop')
        .map((l) => [l.callIndex, l.message.slice(0, 60)]);
    };

    it('flags the call whose reported prompt fell by half while the file kept the whole context', () => {
      expect(drops(loop())).toEqual([[2, 'the provider counted 20,000 prompt tokens, 21,000 fewer than']]);
    });

    it('names Claude Code’s microcompact, which clears old tool results unrecorded, in a Claude Code session only', () => {
      const said = (s: Session) => {
        const ctx = sessionContexts(s);
        return lintSession({ format: s.format, items: s.items, calls: ctx.calls, compactions: ctx.compactions, removals: ctx.removals, count: (t) => Math.ceil(t.length / 4) }).find((l) => l.rule === 'unrecorded-drop')!.message;
      };
      expect(said({ ...loop(), format: 'claude-code' })).toMatch(/microcompact clears old tool results/);
      expect(said(loop())).not.toMatch(/microcompact/);
    });

    it('says nothing of a fall a recorded compaction explains, or of usage summed over a turn', () => {
      const compacted = loop([toolCall('c2', 'k2', 'read'), toolResult('r2', 'k2', 'out'), boundary('b'), summary('sum', 'earlier work')], {
        compactions: [compaction('cmp', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1'] })],
      });
      expect(drops(compacted)).toEqual([]);
      expect(drops(loop(), { usagePerTurn: true })).toEqual([]);
    });

    it('says nothing when a new user turn follows reasoning the provider drops, and flags it without the reasoning', () => {
      const thinking: Item = { id: 't1', kind: 'thinking', role: 'assistant', text: 'plan', source: { file: 'test.json', line: null } };
      const withReasoning = session([system('s', 'x'), user('u1', 'fix it'), thinking, toolCall('c1', 'k1', 'read'), toolResult('r1', 'k1', 'out'), assistant('a2', 'ok'), user('u2', 'next'), assistant('a3', 'done')], {
        responses: [response('p1', ['t1', 'c1'], usage(40_000)), response('p2', ['a2'], usage(41_000)), response('p3', ['a3'], usage(20_000))],
      });
      expect(drops(withReasoning)).toEqual([]);
      withReasoning.items = withReasoning.items.filter((it) => it.id !== 't1');
      withReasoning.responses[0]!.itemIds = ['c1'];
      expect(drops(withReasoning).map(([call]) => call)).toEqual([2]);
    });
  });
});

const wordCountOf = (t: string) => t.split(/\s+/).filter(Boolean).length;
