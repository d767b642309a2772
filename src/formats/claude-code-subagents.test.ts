import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sidechainSession, sidechainSummaries } from '../analysis/sidechain-summary';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles, loadText } from '../load/loader';
import { describeSamples, readSample } from '../test/shared-samples';

// Fixtures written after the record layout of Claude Code 2.1 subagents as public tools document it
// (mrf/agent-racer docs/SUBAGENT-PLAN.md: `progress` records with `data.type:"agent_progress"`, `agentId`,
// `parentToolUseID` naming the Task call, `data.message` holding one subagent message with its usage;
// sonnes/chitragupt docs/specs/004-subagents.md: `<session>/subagents/agent-<id>.jsonl` with `isSidechain:true`
// and `agentId`, linked by the Task result's `agentId`). Subagent a51c0de is in the parent's progress records;
// a7e11f0 only in its own sidechain file.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const PARENT = 'claude-code-subagent.jsonl';
const SIDE = 'claude-code-subagent.agent-a7e11f0.jsonl';
const both = () => loadFiles([PARENT, SIDE].map((name) => ({ name, bytes: new TextEncoder().encode(fixture(name)) })));

describe('claudeCode subagents', () => {
  it('keeps the parent conversation as it was, without counting the subagent records as skipped', () => {
    const { sessions, issues } = loadText(PARENT, fixture(PARENT));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.callId ?? null])).toEqual([
      ['u-001', 'message', null],
      ['a-002', 'tool_call', 'toolu_T1'],
      ['u-007', 'tool_result', 'toolu_T1'],
      ['a-008', 'tool_call', 'toolu_T2'],
      ['u-009', 'tool_result', 'toolu_T2'],
      ['a-010', 'message', null],
    ]);
    expect(s.responses.map((r) => [r.id, r.usage?.cacheRead])).toEqual([
      ['msg_p1', 9800],
      ['msg_p2', 11900],
      ['msg_p3', 12210],
    ]);
    expect(s.skipped).toEqual({});
    expect(s.compactions).toEqual([]);
  });

  it('reads the agent_progress records as a sidechain with its items, calls and usage, linked to its Task call', () => {
    const s = loadText(PARENT, fixture(PARENT)).sessions[0]!;
    const sc = s.sidechains.find((c) => c.id === 'a51c0de')!;
    expect(sc).toMatchObject({ purpose: 'subagent', file: PARENT, compactionId: null });
    expect(sc.items.map((i) => [i.id, i.kind, i.role, i.source.line])).toEqual([
      ['s1-001', 'message', 'user', 3],
      ['s1-002', 'tool_call', 'assistant', 4],
      ['s1-003', 'tool_result', 'tool', 5],
      ['s1-004', 'message', 'assistant', 6],
    ]);
    expect(sc.items[1]).toMatchObject({ name: 'Grep', callId: 'toolu_S1' });
    expect(sc.items[2]).toMatchObject({ callId: 'toolu_S1', pairId: 's1-002', name: 'Grep' });
    expect(sc.responses!.map((r) => [r.id, r.model, r.itemIds, r.usage])).toEqual([
      ['msg_s1', 'claude-haiku-4-5-20251001', ['s1-002'], { input: 3, output: 40, cacheRead: 0, cacheWrite: 5200, inputIncludesCache: false }],
      ['msg_s2', 'claude-haiku-4-5-20251001', ['s1-004'], { input: 5, output: 60, cacheRead: 5200, cacheWrite: 80, inputIncludesCache: false }],
    ]);
    expect(sc.parent).toEqual({ toolUseId: 'toolu_T1', callItemId: 'a-002', resultItemId: 'u-007', reportedTotalTokens: 10588, agentType: 'Explore', description: 'Find retry config' });
  });

  it('knows a subagent from its Task result alone, and fills it from its sidechain file when loaded too', () => {
    const alone = loadText(PARENT, fixture(PARENT)).sessions[0]!.sidechains.find((c) => c.id === 'a7e11f0')!;
    expect(alone.items).toEqual([]);
    expect(alone.parent).toMatchObject({ toolUseId: 'toolu_T2', callItemId: 'a-008', resultItemId: 'u-009', reportedTotalTokens: 4410 });

    const { sessions, issues } = both();
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.files).toEqual([PARENT, SIDE]);
    expect(s.sidechains.map((c) => c.id)).toEqual(['a51c0de', 'a7e11f0']);
    const sc = s.sidechains[1]!;
    expect(sc.file).toBe(SIDE);
    expect(sc.items.map((i) => [i.id, i.kind])).toEqual([
      ['s2-001', 'message'],
      ['s2-002', 'tool_call'],
      ['s2-003', 'tool_result'],
      ['s2-004', 'message'],
    ]);
    expect(sc.responses!.map((r) => [r.id, r.usage])).toEqual([
      ['msg_c1', { input: 3, output: 38, cacheRead: 0, cacheWrite: 4100, inputIncludesCache: false }],
      ['msg_c2', { input: 2, output: 68, cacheRead: 4100, cacheWrite: 40, inputIncludesCache: false }],
    ]);
    expect(sc.parent).toMatchObject({ toolUseId: 'toolu_T2', callItemId: 'a-008', agentType: 'general-purpose' });
  });

  it('reports a broken subagent message at its place under data.message and keeps the rest', () => {
    const lines = fixture(PARENT).trimEnd().split('\n');
    const broken = JSON.parse(lines[3]!);
    broken.data.message.message = 'not an object';
    lines[3] = JSON.stringify(broken);
    const { sessions, issues } = loadText(PARENT, lines.join('\n'));
    expect(issues.map((i) => [i.line, i.field, i.severity])).toEqual([[4, 'data.message.message', 'error']]);
    expect(sessions[0]!.sidechains[0]!.items.map((i) => i.id)).toEqual(['s1-001', 's1-003', 's1-004']);
  });
});

describe('sidechainSummaries', () => {
  it('gives each subagent its calls, summed usage, 1-based parent call and the tokens its result cost the parent', () => {
    const s = both().sessions[0]!;
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    expect(sidechainSummaries(s, words)).toEqual([
      {
        id: 'a51c0de',
        purpose: 'subagent',
        file: PARENT,
        items: 4,
        calls: 2,
        usage: { input: 8, output: 100, cacheRead: 5200, cacheWrite: 5280 },
        promptTokens: 8 + 5200 + 5280,
        parentCall: 1,
        toolUseId: 'toolu_T1',
        agentType: 'Explore',
        description: 'Find retry config',
        resultTokens: words(s.items.find((i) => i.id === 'u-007')!.text),
        reportedTotalTokens: 10588,
      },
      expect.objectContaining({ id: 'a7e11f0', file: SIDE, items: 4, calls: 2, parentCall: 2, usage: { input: 5, output: 106, cacheRead: 4100, cacheWrite: 4140 }, promptTokens: 5 + 4100 + 4140, reportedTotalTokens: 4410 }),
    ]);
    expect(sidechainSummaries(s)[0]!.resultTokens).toBeNull();
  });
});

describe('sidechainSession', () => {
  it('opens a subagent as a session whose calls have the subagent context and reported usage', () => {
    const parent = both().sessions[0]!;
    const s = sidechainSession(parent, parent.sidechains[0]!);
    expect(s).toMatchObject({ id: '5b1e0c2a-9f4d-4e61-8a3b-2c7d90e1f3aa/a51c0de', format: 'claude-code', model: 'claude-haiku-4-5-20251001', files: [PARENT] });
    expect(s.title).toBe('Subagent a51c0de: Find retry config (of claude-code-subagent.jsonl)');
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => [c.entries.map((e) => e.item.id), c.usage?.cacheRead])).toEqual([
      [['s1-001'], 0],
      [['s1-001', 's1-002', 's1-003'], 5200],
    ]);
  });
});

describeSamples('claude-code subagents in a real 2.1.39 session', () => {
  it('reads its Explore subagent from 67 agent_progress records, linked to the Task call that started it', () => {
    const sample = readSample('claude-code-compacted.jsonl');
    const { sessions } = loadFiles([sample]);
    const s = sessions[0]!;
    const sc = s.sidechains.find((c) => c.id === 'a2898e3')!;
    expect(sc.purpose).toBe('subagent');
    expect(sc.responses).toHaveLength(11);
    expect(sc.parent).toMatchObject({ toolUseId: 'toolu_017pLRuPHYTX5t99EnLyV53m', agentType: 'Explore', reportedTotalTokens: 76365 });
    expect(sidechainSummaries(s).find((c) => c.id === 'a2898e3')!.parentCall).toBe(4);
    // Only the other progress records (hooks, bash output) are still counted as skipped.
    const records = new TextDecoder().decode(sample.bytes).trim().split('\n').map((l) => JSON.parse(l) as { type?: string; data?: { type?: string } });
    const progress = records.filter((r) => r.type === 'progress');
    expect(progress.filter((r) => r.data?.type === 'agent_progress')).toHaveLength(67);
    expect(s.skipped['progress']).toBe(progress.length - 67);
  });
});
