import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';

// The fixture imitates an OpenHands CodeActAgent trajectory export (`save_trajectory`, v0.4x):
// function-calling events with tool_call_metadata, a recall pair, a think tool and an LLM-summarizing condensation.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('openhands', () => {
  it('turns actions and observations into items paired through their cause', () => {
    const { sessions, issues } = loadText('oh.json', fixture('openhands-condensation.json'));
    expect(issues).toEqual([]);
    const [s] = sessions;
    expect(s!.format).toBe('openhands');
    expect(s!.model).toBe('claude-sonnet-4-20250514');
    expect(s!.meta).toEqual({ openhandsVersion: '0.48.0', agentClass: 'CodeActAgent' });
    expect(s!.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['e0', 'system', 'message'],
      ['e1', 'user', 'message'],
      ['e4.thought', 'assistant', 'message'],
      ['e4', 'assistant', 'tool_call'],
      ['e5', 'assistant', 'tool_call'],
      ['e6', 'tool', 'tool_result'],
      ['e7', 'tool', 'tool_result'],
      ['e8', 'assistant', 'thinking'],
      ['e11', 'assistant', 'tool_call'],
      ['e12', 'tool', 'tool_result'],
      ['e13', 'system', 'compaction'],
      ['e13.summary', 'user', 'summary'],
      ['e14.thought', 'assistant', 'message'],
      ['e14', 'assistant', 'tool_call'],
      ['e15', 'tool', 'tool_result'],
      ['e16', 'assistant', 'tool_call'],
      ['e17', 'tool', 'tool_result'],
      ['e18', 'assistant', 'message'],
      ['e19', 'assistant', 'tool_call'],
    ]);
    const byId = new Map(s!.items.map((i) => [i.id, i]));
    expect(byId.get('e4')).toMatchObject({ name: 'execute_bash', callId: 'toolu_01', pairId: 'e6', text: '{"command": "cat config/export.yaml"}', timestamp: '2025-10-14T09:00:06.500000' });
    expect(byId.get('e5')).toMatchObject({ name: 'str_replace_editor', callId: 'toolu_02', pairId: 'e7' });
    expect(byId.get('e6')).toMatchObject({ callId: 'toolu_01', pairId: 'e4', name: 'execute_bash', meta: { observation: 'run', exitCode: 0 } });
    expect(byId.get('e6')!.isError).toBeUndefined();
    expect(byId.get('e12')).toMatchObject({ pairId: 'e11', isError: true, meta: { exitCode: 1 } });
    expect(byId.get('e17')).toMatchObject({ pairId: 'e16', isError: true, meta: { observation: 'error' } });
    expect(byId.get('e8')!.text).toBe('The config points at port 6543 (PgBouncer) but the database listens on 5432.');
    expect(byId.get('e19')).toMatchObject({ name: 'finish', text: '{"message": "Changed the export DB port from 6543 to 5432.", "task_completed": "true"}' });
    expect(s!.skipped).toEqual({ 'action:recall': 1, 'observation:recall': 1, 'observation:think': 1, 'observation:agent_state_changed': 1 });
  });

  it('records a condensation with the items of its forgotten range and its summary', () => {
    const s = loadText('oh.json', fixture('openhands-condensation.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'c0',
        index: 0,
        kind: 'condensation',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['e4.thought', 'e4', 'e5', 'e6', 'e7', 'e8'],
        keptIds: [],
        summaryId: 'e13.summary',
        atItemId: 'e13',
        timestamp: '2025-10-14T09:00:16.200000',
        source: { file: 'oh.json', line: null },
      },
    ]);
    const summary = s.items.find((i) => i.id === 'e13.summary')!;
    expect(summary.text.startsWith('USER_CONTEXT: Fix the nightly export job')).toBe(true);
    expect(summary.meta).toEqual({ summaryOffset: 2 });
    expect(s.items.find((i) => i.id === 'e13')!.meta).toEqual({ forgottenEvents: 6 });
  });

  it('counts each model response once, from tool_call_metadata or the llm_metrics of a plain message', () => {
    // litellm's prompt_tokens include Anthropic's cache reads and writes: both are kept, as parts of the prompt.
    const s = loadText('oh.json', fixture('openhands-condensation.json')).sessions[0]!;
    expect(s.responses.map((r) => [r.id, r.itemIds, r.usage])).toEqual([
      ['chatcmpl-r1', ['e4.thought', 'e4', 'e5'], { input: 5120, output: 88, cacheRead: 0, cacheWrite: 5010, inputIncludesCache: true }],
      ['chatcmpl-r2', ['e8'], { input: 6400, output: 120, cacheRead: 5120, cacheWrite: 1200, inputIncludesCache: true }],
      ['chatcmpl-r3', ['e11'], { input: 6700, output: 64, cacheRead: 6400, cacheWrite: 280, inputIncludesCache: true }],
      ['chatcmpl-r4', ['e14.thought', 'e14'], { input: 3900, output: 150, cacheRead: 0, cacheWrite: 3800, inputIncludesCache: true }],
      ['chatcmpl-r5', ['e16'], { input: 4300, output: 40, cacheRead: 3900, cacheWrite: 250, inputIncludesCache: true }],
      ['chatcmpl-r6', ['e18'], { input: 4400, output: 52, cacheRead: 4300, cacheWrite: 100, inputIncludesCache: true, contextWindow: 200000 }],
      ['chatcmpl-r7', ['e19'], { input: 4500, output: 60, cacheRead: 4400, cacheWrite: 100, inputIncludesCache: true }],
    ]);
    expect(s.responses.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(s.contextWindow).toBe(200000);
    expect(s.items.find((i) => i.id === 'e5')!.responseId).toBe('chatcmpl-r1');
  });

  it('reads a Claude model through LiteLLM as LiteLLM reports it: prompt_tokens hold the reads and writes, never added again', () => {
    const s = loadText('oh.json', fixture('openhands-condensation.json')).sessions[0]!;
    const a = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) });
    const prompts = [5120, 6400, 6700, 3900, 4300, 4400, 4500];
    expect(a.calibration.calls.map((c) => c.reportedPrompt)).toEqual(prompts);
    expect([a.facts.peakContextTokens, a.facts.peakCall]).toEqual([6700, 3]);
    const reads = [0, 5120, 6400, 0, 3900, 4300, 4400];
    expect(a.facts.cache!.hitRate).toBeCloseTo(reads.reduce((x, y) => x + y) / prompts.reduce((x, y) => x + y), 6);
    // The writes LiteLLM kept beside the prompt are the calls' cache writes; the uncached rest is what is left.
    expect(a.contexts.calls.map((c) => c.usage!.cacheWrite)).toEqual([5010, 1200, 280, 3800, 250, 100, 100]);
  });

  it('reads forgotten_event_ids, a condensation request and the {events} wrapper', () => {
    const text = JSON.stringify({
      id: 'conv-42',
      events: [
        { id: 1, source: 'user', action: 'message', args: { content: 'hi' } },
        { id: 2, source: 'agent', action: 'run', args: { command: 'ls', thought: '', blocking: false } },
        { id: 3, source: 'agent', cause: 2, observation: 'run', content: 'a b', extras: { metadata: { exit_code: 0 } } },
        { id: 4, source: 'user', action: 'condensation_request', args: {} },
        { id: 5, source: 'agent', action: 'condensation', args: { forgotten_event_ids: [2, 3], summary: null, summary_offset: null } },
      ],
    });
    const { sessions, issues } = loadText('conv.json', text);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.id).toBe('conv-42');
    expect(s.items.map((i) => i.id)).toEqual(['e1', 'e2', 'e3', 'e5']);
    expect(s.items[1]).toMatchObject({ name: 'run', callId: 'e2', text: '{"command":"ls"}', pairId: 'e3' });
    expect(s.compactions[0]).toMatchObject({ kind: 'condensation', trigger: 'request', replacedIds: ['e2', 'e3'], summaryId: null, atItemId: 'e5' });
  });

  it('makes one session per evaluation record and names the line and field of a bad event', () => {
    const msg = (id: number) => ({ id, source: 'user', action: 'message', args: { content: `fix ${id}` } });
    const line1 = JSON.stringify({ instance_id: 'django__django-11099', history: [msg(0), msg(1), msg(2), msg(3), 'oops'] });
    const line2 = JSON.stringify({ instance_id: 'astropy__astropy-12907', history: [{ id: 0, source: 'agent', cause: 7, observation: 'run', content: 'x' }] });
    const { sessions, issues } = loadText('output.jsonl', `${line1}\n${line2}\n`);
    expect(sessions.map((s) => [s.id, s.format, s.items.length])).toEqual([
      ['django__django-11099', 'openhands', 4],
      ['astropy__astropy-12907', 'openhands', 1],
    ]);
    expect(issues).toEqual([
      { file: 'output.jsonl', line: 1, field: 'history[4]', message: expect.stringContaining('expected an OpenHands event'), severity: 'error' },
      { file: 'output.jsonl', line: 2, field: 'history[0].cause', message: expect.stringContaining('answers event 7'), severity: 'warning' },
    ]);
  });
});
