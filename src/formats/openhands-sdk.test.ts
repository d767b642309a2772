import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles, loadText, type InputFile } from '../load/loader';
import { promptTokens } from '../model/usage';

// The fixture imitates a conversation the OpenHands SDK (software-agent-sdk, v1.x) persisted: base_state.json and
// events/event-NNNNN-<id>.json, modelled on OpenHands/software-agent-sdk .pr/artifacts/*/conversations/*/ and the
// event classes in openhands-sdk/openhands/sdk/event/ (Condensation, ActionEvent, ObservationEvent, …). An
// LLMSummarizingCondenser (keep_first 2) condenses twice; the second condensation forgets the first's summary.
const CONV = fileURLToPath(new URL('./__fixture-folders__/openhands-sdk-conversation/7d3c2a9e4b1f4e8a9c552f6d0b1a8e31', import.meta.url));
const EVENTS = readdirSync(join(CONV, 'events')).sort();
const file = (rel: string, name = rel): InputFile => ({ name, bytes: readFileSync(join(CONV, rel)) });
/** The conversation as the app gets a dropped folder's files: bare names, in any order. */
const dropped = (): InputFile[] => [...EVENTS.map((e) => file(`events/${e}`, e)).reverse(), file('base_state.json')];
const e = (n: number) => `a3f1c0d2-5b6e-4c1a-9d7e-${String(n).padStart(12, '0')}`;

describe('openhandsSdk', () => {
  it('joins the event files and base_state.json into one session, in event-file order', () => {
    const { sessions, issues } = loadFiles(dropped());
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.format).toBe('openhands-sdk');
    expect(s.id).toBe('7d3c2a9e-4b1f-4e8a-9c55-2f6d0b1a8e31');
    expect(s.model).toBe('anthropic/claude-sonnet-4-5-20250929');
    expect(s.contextWindow).toBe(200000);
    expect(s.files).toEqual(['base_state.json', ...EVENTS]);
    expect(s.meta).toEqual({ agentKind: 'Agent', executionStatus: 'finished' });
    expect(s.skipped).toEqual({ CondensationRequest: 1, ConversationStateUpdateEvent: 1 });
    expect(s.items.map((i) => [i.id.replace('a3f1c0d2-5b6e-4c1a-9d7e-0000000000', 'e'), i.role, i.kind])).toEqual([
      ['e00', 'system', 'message'],
      ['e01', 'user', 'message'],
      ['e02.thought', 'assistant', 'message'],
      ['e02', 'assistant', 'tool_call'],
      ['e03', 'tool', 'tool_result'],
      ['e04.thought', 'assistant', 'message'],
      ['e04', 'assistant', 'tool_call'],
      ['e05', 'assistant', 'tool_call'],
      ['e06', 'tool', 'tool_result'],
      ['e07', 'tool', 'tool_result'],
      ['e08', 'system', 'compaction'],
      ['e08-summary', 'user', 'summary'],
      ['e09.thought', 'assistant', 'message'],
      ['e09', 'assistant', 'tool_call'],
      ['e10', 'tool', 'tool_result'],
      ['e11', 'assistant', 'tool_call'],
      ['e12', 'tool', 'tool_result'],
      ['e13', 'assistant', 'tool_call'],
      ['e14', 'tool', 'tool_result'],
      ['e16', 'system', 'compaction'],
      ['e16-summary', 'user', 'summary'],
      ['e17', 'assistant', 'message'],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get(e(0))!.text.startsWith('You are OpenHands agent')).toBe(true);
    expect(byId.get(e(0))!.meta).toEqual({ event: e(0), tools: 3 });
    expect(byId.get(e(2))).toMatchObject({ name: 'terminal', callId: 'toolu_01', pairId: e(3), text: '{"command": "python -m pytest tests/test_dates.py -x -q", "security_risk": "LOW"}', meta: { action: 'TerminalAction' } });
    expect(byId.get(e(3))).toMatchObject({ name: 'terminal', callId: 'toolu_01', pairId: e(2), isError: true, meta: { observation: 'TerminalObservation', exitCode: 1 } });
    expect(byId.get(e(3))!.text).toContain("AttributeError: 'NoneType' object");
    expect(byId.get(e(6))).toMatchObject({ callId: 'toolu_02', pairId: e(4), meta: { observation: 'FileEditorObservation' } });
    expect(byId.get(e(6))!.isError).toBeUndefined();
    // A call the scaffold could not validate: no action, its error answers it.
    expect(byId.get(e(11))).toMatchObject({ callId: 'toolu_05', pairId: e(12), text: '{"command": "python -m pytest tests/test_dates.py -q", "timeout": "ten"}' });
    expect(byId.get(e(12))).toMatchObject({ callId: 'toolu_05', isError: true, meta: { observation: 'AgentErrorEvent' } });
    expect(byId.get(e(14))).toMatchObject({ pairId: e(13), meta: { exitCode: 0 } });
    expect(byId.get(e(14))!.isError).toBeUndefined();
    expect(byId.get(e(17))!.text.startsWith('Fixed: parse_iso sliced the string')).toBe(true);
  });

  it('records each condensation with the items of its forgotten events, its summary and its trigger', () => {
    const s = loadFiles(dropped()).sessions[0]!;
    expect(s.compactions.map(({ source, ...c }) => ({ ...c, file: source.file }))).toEqual([
      {
        id: 'c0',
        index: 0,
        kind: 'condensation',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: [`${e(2)}.thought`, e(2), e(3), `${e(4)}.thought`, e(4), e(5), e(6), e(7)],
        keptIds: [],
        summaryId: `${e(8)}-summary`,
        atItemId: e(8),
        timestamp: '2026-02-10T14:02:21.796299',
        file: EVENTS[8],
      },
      {
        id: 'c1',
        index: 1,
        kind: 'condensation',
        // A CondensationRequest came before it.
        trigger: 'request',
        tokensBefore: null,
        tokensAfter: null,
        // The second condensation forgets the first one's summary too.
        replacedIds: [`${e(8)}-summary`, `${e(9)}.thought`, e(9), e(10), e(11), e(12)],
        keptIds: [],
        summaryId: `${e(16)}-summary`,
        atItemId: e(16),
        timestamp: '2026-02-10T14:02:49.858031',
        file: EVENTS[16],
      },
    ]);
    const summary = s.items.find((i) => i.id === `${e(8)}-summary`)!;
    expect(summary.text.startsWith('USER_CONTEXT: Fix tests/test_dates.py::test_parse_iso')).toBe(true);
    expect(summary.meta).toEqual({ event: e(8), summaryOffset: 2 });
    expect(s.items.find((i) => i.id === e(16))!.meta).toEqual({ event: e(16), forgottenEvents: 5 });
  });

  it('counts each model call once, with its usage from base_state.json, and leaves the condenser calls out', () => {
    const s = loadFiles(dropped()).sessions[0]!;
    // litellm's prompt_tokens include the cache reads and writes, whatever the model: `input` keeps them.
    const u = (input: number, output: number, cacheRead: number, cacheWrite: number) => ({ input, output, cacheRead, cacheWrite, inputIncludesCache: true, contextWindow: 200000 });
    expect(s.responses.map((r) => [r.id, r.index, r.itemIds.length, r.usage])).toEqual([
      ['chatcmpl-b7e1', 0, 2, u(4210, 61, 0, 4180)],
      ['chatcmpl-c02a', 1, 3, u(4890, 118, 4180, 690)],
      ['chatcmpl-e5b3', 2, 2, u(2650, 240, 1950, 690)],
      ['chatcmpl-f81c', 3, 1, u(3010, 75, 2650, 350)],
      ['chatcmpl-0a9d', 4, 1, u(3190, 70, 3010, 172)],
      ['chatcmpl-2d4b', 5, 1, u(2480, 52, 1950, 522)],
    ]);
    expect(s.responses.map((r) => promptTokens(r.usage!))).toEqual([4210, 4890, 2650, 3010, 3190, 2480]);
    expect(s.responses[1]!.itemIds).toEqual([`${e(4)}.thought`, e(4), e(5)]);
    expect(s.responses.every((r) => r.model === 'anthropic/claude-sonnet-4-5-20250929')).toBe(true);
  });

  it('replays the forgotten events as evicted and puts each summary at its summary_offset', () => {
    const s = loadFiles(dropped()).sessions[0]!;
    const { calls, removals } = sessionContexts(s);
    const ids = (i: number) => calls[i]!.entries.map((x) => x.item.id);
    expect(calls).toHaveLength(6);
    // Call 3 (the first after condensation 1): head kept, the summary at view position 2, the rest forgotten.
    expect(calls[2]!.compactionId).toBe('c0');
    expect(ids(2)).toEqual([e(0), e(1), `${e(8)}-summary`]);
    expect(ids(1)).toEqual([e(0), e(1), `${e(2)}.thought`, e(2), e(3)]);
    for (const id of [e(2), e(3), e(4), e(5), e(6), e(7)]) expect(removals.get(id)).toMatchObject({ label: 'summarized', compactionId: 'c0', fromCall: 2 });
    // Call 6: condensation 2 replaced the first summary and events 9–12 with its own summary, again at position 2.
    expect(calls[5]!.compactionId).toBe('c1');
    expect(ids(5)).toEqual([e(0), e(1), `${e(16)}-summary`, `${e(13)}`, e(14)]);
    expect(removals.get(`${e(8)}-summary`)).toMatchObject({ label: 'summarized', compactionId: 'c1', fromCall: 5 });
    expect(calls[5]!.usage).toMatchObject({ input: 2480, output: 52, cacheRead: 1950, cacheWrite: 522 });
    // The events keep the system prompt but not the tools' parameter schemas: the prefix is estimated from usage.
    expect(calls.every((c) => c.prefixUnrecorded)).toBe(true);
  });

  it('reads events one per JSONL line, and warns when a summary_offset is not where the forgotten events were', () => {
    const msg = (id: string, role: string, text: string) => ({ id, kind: 'MessageEvent', source: role === 'user' ? 'user' : 'agent', llm_message: { role, content: [{ type: 'text', text }] }, ...(role === 'assistant' ? { llm_response_id: `r-${id}` } : {}) });
    const lines = [
      msg('m1', 'user', 'first task'),
      msg('m2', 'assistant', 'working'),
      msg('m3', 'user', 'more'),
      msg('m4', 'assistant', 'still working'),
      { id: 'c1', kind: 'Condensation', source: 'environment', forgotten_event_ids: ['m2', 'm3'], summary: 'did things', summary_offset: 0, llm_response_id: 'r-c' },
      msg('m5', 'assistant', 'done'),
    ];
    const { sessions, issues } = loadText('events.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    const s = sessions[0]!;
    expect(s.items.map((i) => i.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'c1', 'c1-summary', 'm5']);
    expect(s.responses.map((r) => r.id)).toEqual(['r-m2', 'r-m4', 'r-m5']);
    expect(s.compactions[0]).toMatchObject({ replacedIds: ['m2', 'm3'], summaryId: 'c1-summary', atItemId: 'c1', source: { file: 'events.jsonl', line: 5 } });
    expect(issues).toEqual([{ file: 'events.jsonl', line: 5, field: null, severity: 'warning', message: expect.stringContaining('puts its summary at view position 0, not where the forgotten events were (1)') }]);
  });

  it('reads the same conversation from one document of events, and warns about forgotten events it does not have', () => {
    const events = EVENTS.map((name) => JSON.parse(readFileSync(join(CONV, 'events', name), 'utf8')) as unknown);
    const whole = loadText('events.json', JSON.stringify({ items: events }));
    expect(whole.issues).toEqual([]);
    expect(whole.sessions[0]!.files).toEqual(['events.json']);
    const folder = loadFiles(dropped()).sessions[0]!;
    expect(whole.sessions[0]!.items.map((i) => i.id)).toEqual(folder.items.map((i) => i.id));
    expect(whole.sessions[0]!.compactions.map((c) => c.replacedIds)).toEqual(folder.compactions.map((c) => c.replacedIds));
    // Only some files: the first condensation names six events that were not loaded.
    const { sessions, issues } = loadFiles([file(`events/${EVENTS[1]}`, EVENTS[1]), file(`events/${EVENTS[8]}`, EVENTS[8]), file(`events/${EVENTS[9]}`, EVENTS[9])]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.compactions[0]!.replacedIds).toEqual([]);
    expect(issues).toEqual([{ file: EVENTS[8], line: null, field: null, severity: 'warning', message: expect.stringContaining('forgets 6 event(s) that are not among the loaded files') }]);
  });

  it('sends no summary for a condensation without summary_offset, as the SDK does: the events are dropped', () => {
    const events = [
      { id: 'u', kind: 'MessageEvent', source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
      { id: 'a', kind: 'MessageEvent', source: 'agent', llm_message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, llm_response_id: 'r1' },
      { id: 'c', kind: 'Condensation', source: 'environment', forgotten_event_ids: ['a'], summary: 'said ok', summary_offset: null, llm_response_id: 'rc' },
      { id: 'b', kind: 'MessageEvent', source: 'agent', llm_message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, llm_response_id: 'r2' },
    ];
    const s = loadText('e.json', JSON.stringify(events)).sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.text])).toEqual([
      ['u', 'message', 'go'],
      ['a', 'message', 'ok'],
      ['c', 'compaction', 'said ok'],
      ['b', 'message', 'done'],
    ]);
    expect(s.compactions[0]).toMatchObject({ replacedIds: ['a'], summaryId: null });
    expect(sessionContexts(s).removals.get('a')).toMatchObject({ label: 'dropped', fromCall: 1 });
  });

  it('keeps two conversations apart by their folders, and names a bad event file and field', () => {
    const other = JSON.stringify({ id: 'b1', kind: 'MessageEvent', source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    const bad = JSON.stringify({ id: 'b2', kind: 'MessageEvent', source: 'user' });
    const { sessions, issues } = loadFiles([
      file(`events/${EVENTS[1]}`, `7d3c2a9e4b1f4e8a9c552f6d0b1a8e31/events/${EVENTS[1]}`),
      { name: 'ffff0000/events/event-00000-b1.json', bytes: new TextEncoder().encode(other) },
      { name: 'ffff0000/events/event-00001-b2.json', bytes: new TextEncoder().encode(bad) },
    ]);
    expect(sessions.map((s) => [s.format, s.items.length])).toEqual([
      ['openhands-sdk', 1],
      ['openhands-sdk', 1],
    ]);
    expect(issues).toEqual([{ file: 'ffff0000/events/event-00001-b2.json', line: 1, field: 'llm_message', message: 'MessageEvent has no `llm_message`', severity: 'error' }]);
  });

  it('reads prompt_tokens as the whole prompt whatever the model, as litellm reports it for every provider', () => {
    const base = JSON.parse(readFileSync(join(CONV, 'base_state.json'), 'utf8')) as { stats: { usage_to_metrics: { agent: { token_usages: { model: string }[] } } } };
    for (const t of base.stats.usage_to_metrics.agent.token_usages) t.model = 'gpt-5-mini';
    const s = loadFiles([...dropped().slice(0, -1), { name: 'base_state.json', bytes: new TextEncoder().encode(JSON.stringify(base)) }]).sessions[0]!;
    expect(s.responses[1]!.usage).toEqual({ input: 4890, output: 118, cacheRead: 4180, cacheWrite: 690, inputIncludesCache: true, contextWindow: 200000 });
    expect(s.responses.map((r) => promptTokens(r.usage!))).toEqual(loadFiles(dropped()).sessions[0]!.responses.map((r) => promptTokens(r.usage!)));
  });

  it('says so when base_state.json is loaded without its events', () => {
    const { sessions, issues } = loadFiles([file('base_state.json')]);
    expect(sessions.map((s) => [s.id, s.items.length, s.responses.length])).toEqual([['7d3c2a9e-4b1f-4e8a-9c55-2f6d0b1a8e31', 0, 0]]);
    expect(issues.map((i) => i.message)).toEqual([expect.stringContaining('none of its events were loaded')]);
  });
});

// A conversation restored with the file editor added (software-agent-sdk openhands/sdk/event/llm_convertible/system.py:
// SystemPromptUpdateEvent, reason tools_changed), and a benchmarks output.jsonl (OpenHands/benchmarks
// benchmarks/utils/models.py EvalOutput) whose records carry the same SDK events as `history`.
describe('openhandsSdk: restored conversations and benchmark outputs', () => {
  const RESTORED = fileURLToPath(new URL('./__fixture-folders__/openhands-sdk-restored/4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d', import.meta.url));
  const restored = (): InputFile[] => [
    { name: '4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d/base_state.json', bytes: readFileSync(join(RESTORED, 'base_state.json')) },
    ...readdirSync(join(RESTORED, 'events')).map((f) => ({ name: `4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d/events/${f}`, bytes: readFileSync(join(RESTORED, 'events', f)) })),
  ];
  const r = (n: number) => `b8d2e4f6-1a3c-4e5f-8a9b-${String(n).padStart(12, '0')}`;

  it('reads a folder with a SystemPromptUpdateEvent as one conversation, the new prompt replacing the old in later calls', () => {
    const { sessions, issues } = loadFiles(restored());
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.items.find((i) => i.id === r(5))).toMatchObject({ role: 'system', kind: 'message', supersedes: r(0), meta: { event: r(5), tools: 3, systemPromptUpdate: 'tools_changed' } });
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => c.entries[0]!.item.id)).toEqual([r(0), r(0), r(5), r(5)]);
    expect(calls.every((c) => c.entries.filter((e) => e.item.role === 'system').length === 1)).toBe(true);
    expect(calls.map((c) => c.usage!.input)).toEqual([3920, 4051, 4372, 4540]);
  });

  it('reads a benchmarks output.jsonl: one session per instance, its history as the conversation, its metrics as usage', () => {
    const text = readFileSync(new URL('./__fixtures__/openhands-sdk-eval-output.jsonl', import.meta.url), 'utf8');
    const { sessions, issues } = loadText('output.jsonl', text);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => [s.format, s.id, s.model, s.responses.length, s.meta['error'] ?? null])).toEqual([
      ['openhands-sdk', 'acme__relnotes-17', 'litellm_proxy/claude-sonnet-4-5-20250929', 4, null],
      ['openhands-sdk', 'acme__relnotes-18', 'litellm_proxy/claude-sonnet-4-5-20250929', 2, 'RuntimeError: the sandbox stopped'],
    ]);
    expect(sessions[0]!.responses.map((x) => promptTokens(x.usage!))).toEqual([3920, 4051, 4372, 4540]);
    // The same events as the persisted folder, read alike.
    expect(sessions[0]!.items.map((i) => i.id)).toEqual(loadFiles(restored()).sessions[0]!.items.map((i) => i.id));
  });
});
