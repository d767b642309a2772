import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';

// The fixtures imitate Gemini CLI chat recordings, modelled on google-gemini/gemini-cli
// packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts: the JSONL form (0.2x: a metadata
// line, message records updated by id, `$set` metadata and a `$set.messages` history written after a chat
// compression) and the older single-JSON ConversationRecord (0.1x, string content).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const jsonl = () => loadText('session-2026-01-20T09-00-6f1c2a9e.jsonl', fixture('gemini-cli-session.jsonl'));

describe('gemini-cli', () => {
  it('reads the JSONL recording: metadata, messages updated by id, tool calls with their results', () => {
    const { sessions, issues } = jsonl();
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect([s.format, s.id, s.title, s.model]).toEqual(['gemini-cli', '6f1c2a9e-4b7d-4e21-9c3a-2d8e5f0b7a11', 'Fix the failing date test in packages/api', 'gemini-2.5-pro']);
    expect(s.meta).toEqual({ projectHash: '9a8b7c6d5e4f30211f2e3d4c5b6a79880a1b2c3d4e5f60718293a4b5c6d7e8f9', startTime: '2026-01-20T09:00:00.000Z', lastUpdated: '2026-01-20T09:01:31.000Z', kind: 'main' });
    expect(s.items.map((i) => `${i.id}:${i.role}:${i.kind}`)).toEqual([
      'a1e0c7b2-0001:user:message',
      'b2f1d8c3-0002.t0:assistant:thinking',
      'b2f1d8c3-0002.call0:assistant:tool_call',
      'b2f1d8c3-0002.result0:tool:tool_result',
      'c3a2e9d4-0003.call0:assistant:tool_call',
      'c3a2e9d4-0003.result0:tool:tool_result',
      'd4b3f0e5-0004:assistant:message',
      'e5c4a1f6-0005:user:message',
      'f6d5b2a7-0006.call0:assistant:tool_call',
      'f6d5b2a7-0006.call1:assistant:tool_call',
      'f6d5b2a7-0006.result0:tool:tool_result',
      'f6d5b2a7-0006.result1:tool:tool_result',
      '18f7d4c9-0008:user:summary',
      '29a8e5da-0009:assistant:message',
      '3ab9f6eb-0010:assistant:message',
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    // The second line for the first reply (status success, result) replaced the first (executing, no result).
    expect(byId.get('b2f1d8c3-0002.result0')).toMatchObject({ name: 'run_shell_command', callId: 'run_shell_command-1768899609-1', pairId: 'b2f1d8c3-0002.call0', text: "FAIL src/date.test.ts\n  formatDay: expected '2026-01-20' received '2026-01-19'" });
    expect(byId.get('b2f1d8c3-0002.t0')!.text).toBe('Reproducing the failure: Run the api tests first to see the error.');
    expect(byId.get('f6d5b2a7-0006.result1')).toMatchObject({ isError: true, text: 'Command exited with code 1: 1 snapshot obsolete' });
    expect(s.skipped).toEqual({ info: 1 });
  });

  it('makes each gemini message a call with its token counts as usage; the harness acknowledgement is none', () => {
    const s = jsonl().sessions[0]!;
    expect(s.responses.map((r) => [r.index, r.id, r.itemIds.length, r.usage, r.model])).toEqual([
      [0, 'b2f1d8c3-0002', 2, { input: 8210, output: 184, cacheRead: 0, cacheWrite: null, inputIncludesCache: true }, 'gemini-2.5-pro'],
      [1, 'c3a2e9d4-0003', 1, { input: 8402, output: 71, cacheRead: 8100, cacheWrite: null, inputIncludesCache: true }, 'gemini-2.5-pro'],
      [2, 'd4b3f0e5-0004', 1, { input: 8560, output: 58, cacheRead: 8100, cacheWrite: null, inputIncludesCache: true }, 'gemini-2.5-pro'],
      [3, 'f6d5b2a7-0006', 2, { input: 15020, output: 133, cacheRead: 8400, cacheWrite: null, inputIncludesCache: true }, 'gemini-2.5-pro'],
      [4, '3ab9f6eb-0010', 1, { input: 2402, output: 37, cacheRead: 0, cacheWrite: null, inputIncludesCache: true }, 'gemini-2.5-flash'],
    ]);
  });

  it('reads `input` (promptTokenCount) as the whole prompt of any Gemini model: `cached` is part of it, never added again', () => {
    // gemini-3-pro-preview is a model no provider rule knows; the harness's own convention decides, not a fallback.
    const s = loadText('session-2026-03-11T14-20-2c7e9b14.jsonl', fixture('gemini-cli-cache.jsonl')).sessions[0]!;
    const a = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) });
    expect(a.calibration.calls.map((c) => c.reportedPrompt)).toEqual([11840, 12016, 12190, 12262]);
    expect([a.facts.peakContextTokens, a.facts.peakSource, a.facts.reportedInputTokens]).toEqual([12262, 'reported', 11840 + 12016 + 12190 + 12262]);
    expect(a.facts.cache!.hitRate).toBeCloseTo((11776 + 11904 + 12032) / (11840 + 12016 + 12190 + 12262), 6);
    // Each call read what the one before left cached, less the uncached tail: no break, no miss.
    expect([a.facts.cache!.breaks, a.facts.cache!.reportedMisses]).toEqual([0, 0]);
    // Thoughts are generated and billed as output (total = input + output + thoughts + tool).
    expect(s.responses.map((r) => r.usage!.output)).toEqual([52 + 210, 96 + 148, 40, 61 + 35]);
  });

  it('records a chat compression: the messages the new history leaves out, the snapshot, the shown token figures', () => {
    const s = jsonl().sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'compression-0',
        index: 0,
        kind: 'summary',
        trigger: 'chat compression',
        tokensBefore: 15020,
        tokensAfter: 2310,
        replacedIds: ['a1e0c7b2-0001', 'b2f1d8c3-0002.t0', 'b2f1d8c3-0002.call0', 'b2f1d8c3-0002.result0', 'c3a2e9d4-0003.call0', 'c3a2e9d4-0003.result0', 'd4b3f0e5-0004'],
        keptIds: ['e5c4a1f6-0005', 'f6d5b2a7-0006.call0', 'f6d5b2a7-0006.call1', 'f6d5b2a7-0006.result0', 'f6d5b2a7-0006.result1'],
        summaryId: '18f7d4c9-0008',
        atItemId: '18f7d4c9-0008',
        timestamp: '2026-01-20T09:01:20.000Z',
        source: { file: 'session-2026-01-20T09-00-6f1c2a9e.jsonl', line: 11 },
      },
    ]);
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, null, null, 'compression-0']);
    expect(calls[4]!.entries.map((e) => e.item.id)).toEqual([
      '18f7d4c9-0008',
      'e5c4a1f6-0005',
      'f6d5b2a7-0006.call0',
      'f6d5b2a7-0006.call1',
      'f6d5b2a7-0006.result0',
      'f6d5b2a7-0006.result1',
      '29a8e5da-0009',
    ]);
  });

  it('reads a kept message whose tool output was masked as an omission from that call on', () => {
    const lines = fixture('gemini-cli-session.jsonl').trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const byId = (id: string) => records.find((r) => r['id'] === id)!;
    // The last record for the first reply is its full one; its output is replaced by the masking stub.
    const g1 = JSON.parse(lines[3]!) as { toolCalls: { result: { functionResponse: { response: { output: string } } }[] }[] };
    g1.toolCalls[0]!.result[0]!.functionResponse.response.output = '<tool_output_masked>Output saved to /tmp/out-1.txt</tool_output_masked>';
    const masking = { $set: { messages: [byId('a1e0c7b2-0001'), g1, byId('c3a2e9d4-0003'), byId('d4b3f0e5-0004'), byId('e5c4a1f6-0005')] } };
    // Masked after the second user message, before the fourth call.
    const text = [...lines.slice(0, 8), JSON.stringify(masking), ...lines.slice(8, 9)].join('\n');
    const s = loadText('masked.jsonl', text).sessions[0]!;
    expect(s.compactions).toEqual([
      expect.objectContaining({ id: 'masking-0', kind: 'omission', trigger: 'tool output masking', replacedIds: ['b2f1d8c3-0002.result0'], summaryId: 'b2f1d8c3-0002.result0~1', atItemId: 'b2f1d8c3-0002.result0~1' }),
    ]);
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, null, 'masking-0']);
    const entries = calls[3]!.entries.map((e) => e.item);
    expect(entries.map((e) => e.id).slice(0, 4)).toEqual(['a1e0c7b2-0001', 'b2f1d8c3-0002.t0', 'b2f1d8c3-0002.call0', 'b2f1d8c3-0002.result0~1']);
    expect(entries[3]!.text).toBe('<tool_output_masked>Output saved to /tmp/out-1.txt</tool_output_masked>');
    expect(calls[2]!.entries.map((e) => e.item.id)).toContain('b2f1d8c3-0002.result0');
  });

  it('drops a rewound message and what followed it', () => {
    const lines = fixture('gemini-cli-session.jsonl').trimEnd().split('\n');
    // Rewind to the second user message, before the compression: the transcript ends after the first answer.
    const text = [...lines.slice(0, 9), JSON.stringify({ $rewindTo: 'e5c4a1f6-0005' })].join('\n');
    const s = loadText('rewound.jsonl', text).sessions[0]!;
    expect(s.items.at(-1)!.id).toBe('d4b3f0e5-0004');
    expect(s.responses.map((r) => r.id)).toEqual(['b2f1d8c3-0002', 'c3a2e9d4-0003', 'd4b3f0e5-0004']);
  });

  it('reads the older single-JSON recording with string content', () => {
    const { sessions, issues } = loadText('session-2025-09-02T14-00-0c2d4e6f.json', fixture('gemini-cli-session.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect([s.format, s.id, s.model]).toEqual(['gemini-cli', '0c2d4e6f-8a1b-4c3d-9e5f-7a9b1c3d5e7f', 'gemini-2.5-pro']);
    expect(s.items.map((i) => `${i.id}:${i.kind}`)).toEqual(['aa01:message', 'aa02.t0:thinking', 'aa02.call0:tool_call', 'aa02.result0:tool_result', 'aa03:message']);
    expect(s.responses.map((r) => r.usage)).toEqual([
      { input: 6120, output: 85, cacheRead: 0, cacheWrite: null, inputIncludesCache: true },
      { input: 6230, output: 29, cacheRead: 5980, cacheWrite: null, inputIncludesCache: true },
    ]);
    expect(s.skipped).toEqual({ error: 1 });
    expect(s.compactions).toEqual([]);
  });

  it('reports a bad record by line and keeps the rest', () => {
    const lines = fixture('gemini-cli-session.jsonl').trimEnd().split('\n');
    lines.splice(2, 0, '{"something": "else"}', '[1, 2]');
    const r = loadText('bad.jsonl', lines.join('\n'));
    expect(r.issues.map((i) => [i.line, i.message])).toEqual([
      [3, 'unknown record: not a message, `$set`, `$rewindTo` or session metadata'],
      [4, 'expected a record object'],
    ]);
    expect(r.sessions[0]!.responses).toHaveLength(5);
  });
});

describe('gemini-cli, a message of zero tokens', () => {
  // Modelled on an entireio/cli checkpoint (ab/2b9748b105): among gemini-2.5-flash replies of ~12,800 prompt tokens,
  // one message records {"input":0,"output":0,"cached":0,"thoughts":0,"tool":0,"total":0}.
  const gemini = (id: string, content: string, input: number, cached: number, output: number) => ({
    id,
    timestamp: '2026-01-15T20:51:52.837Z',
    type: 'gemini',
    content,
    model: 'gemini-2.5-flash',
    tokens: { input, output, cached, thoughts: 0, tool: 0, total: input + output },
  });
  const text = JSON.stringify({
    sessionId: 'f7633853-6663-4dbb-bbf4-6159afa29df8',
    projectHash: '7e8989f7',
    startTime: '2026-01-15T20:51:48.582Z',
    lastUpdated: '2026-01-15T20:52:56.382Z',
    messages: [
      { id: 'u1', timestamp: '2026-01-15T20:51:48.582Z', type: 'user', content: 'create a color file inside docs' },
      gemini('g1', 'I will create docs/blue.md.', 12_849, 11_804, 78),
      { id: 'u2', timestamp: '2026-01-15T20:52:00.000Z', type: 'user', content: 'now remove it' },
      gemini('g2', 'Removing docs/blue.md.', 0, 0, 0),
    ],
  });
  it('reads it as no usage, not as a prompt that fell to zero', () => {
    const s = loadText('session-2026-01-15T20-51-f7633853.json', text).sessions[0]!;
    expect(s.responses.map((r) => r.usage === null)).toEqual([false, true]);
    expect(analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) }).lints.filter((l) => l.rule === 'unrecorded-drop')).toEqual([]);
  });
});
