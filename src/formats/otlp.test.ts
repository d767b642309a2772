import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { detect } from './index';
import { loadText } from '../load/loader';
import { parseDocument } from '../load/document';

// Fixtures (src/formats/__fixtures__/README.md names what each imitates):
//  otlp-genai-pydantic-ai.json      GenAI semconv v1.37+: gen_ai.input.messages / output.messages / system_instructions
//  otlp-openllmetry-anthropic.jsonl OpenLLMetry's gen_ai.prompt.N.* / gen_ai.completion.N.*, one request per line
//  otlp-genai-events.json           GenAI v1.28–1.36 per-message span events (gen_ai.event.content)
//  otlp-openinference-langgraph.json OpenInference llm.input_messages.N.*, LangChain's SummarizationMiddleware
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const load = (name: string) => loadText(name, fixture(name));
const count = (t: string) => Math.ceil(t.length / 4);

/** A minimal OTLP request around spans given as plain attribute maps. */
function trace(spans: { id: string; parent?: string; name: string; start: number; attrs: Record<string, unknown>; events?: { name: string; attrs: Record<string, unknown> }[] }[]): string {
  const value = (v: unknown): unknown =>
    typeof v === 'string' ? { stringValue: v } : typeof v === 'number' ? (Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v }) : typeof v === 'boolean' ? { boolValue: v } : { stringValue: JSON.stringify(v) };
  const attrs = (a: Record<string, unknown>) => Object.entries(a).map(([key, v]) => ({ key, value: value(v) }));
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: attrs({ 'service.name': 'test' }) },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map((s) => ({
              traceId: '0af7651916cd43dd8448eb211c80319c',
              spanId: s.id.padStart(16, '0'),
              ...(s.parent ? { parentSpanId: s.parent.padStart(16, '0') } : {}),
              name: s.name,
              kind: 1,
              startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(s.start) * 1_000_000_000n),
              endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(s.start + 1) * 1_000_000_000n),
              attributes: attrs(s.attrs),
              ...(s.events ? { events: s.events.map((e) => ({ name: e.name, timeUnixNano: '1700000000000000000', attributes: attrs(e.attrs) })) } : {}),
            })),
          },
        ],
      },
    ],
  });
}

describe('otlp: detection', () => {
  it('reads every OTLP fixture as otlp, JSON document or one request per line', () => {
    for (const name of ['otlp-genai-pydantic-ai.json', 'otlp-openllmetry-anthropic.jsonl', 'otlp-genai-events.json', 'otlp-openinference-langgraph.json']) {
      const parsed = parseDocument(name, fixture(name));
      expect(parsed.ok && detect(parsed.doc)?.id).toBe('otlp');
    }
  });
});

describe('otlp: GenAI semantic conventions (gen_ai.input.messages)', () => {
  const s = () => load('otlp-genai-pydantic-ai.json').sessions[0]!;

  it('groups the calls by gen_ai.conversation.id, inherited from the agent span', () => {
    const { sessions, issues } = load('otlp-genai-pydantic-ai.json');
    expect(issues).toEqual([]);
    expect(sessions.map((x) => [x.id, x.format, x.model, x.meta['convention'], x.meta['service']])).toEqual([['conv_7f3c1e9a2b8d4c60', 'otlp', 'claude-sonnet-4-5-20250929', 'genai', 'billing-agent']]);
    expect(sessions[0]!.skipped).toEqual({ 'invoke_agent spans': 1, 'execute_tool spans': 3 });
  });

  it('makes each chat span a call whose context is its own input messages, system instructions first', () => {
    const calls = s().requests;
    expect(calls.map((r) => [r.index, r.api, r.items.length, r.output.length, r.timestamp])).toEqual([
      [0, 'anthropic', 2, 2, '2025-11-28T12:00:00.100Z'],
      [1, 'anthropic', 5, 1, '2025-11-28T12:00:03.100Z'],
      [2, 'anthropic', 7, 2, '2025-11-28T12:00:05.000Z'],
      [3, 'anthropic', 7, 1, '2025-11-28T12:00:09.400Z'],
    ]);
    expect(calls[1]!.items.map((i) => [i.role, i.kind, i.name ?? null, i.callId ?? null, i.pairId ?? null])).toEqual([
      ['system', 'message', null, null, null],
      ['user', 'message', null, null, null],
      ['assistant', 'message', null, null, null],
      ['assistant', 'tool_call', 'run_tests', 'toolu_01HX4', calls[1]!.items[4]!.id],
      ['tool', 'tool_result', 'run_tests', 'toolu_01HX4', calls[1]!.items[3]!.id],
    ]);
    expect(calls[1]!.items[3]!.text).toBe('{"path":"tests/test_invoice.py::test_invoice_total"}');
    expect(calls[1]!.items[4]!.text).toMatch(/^FAILED tests\/test_invoice.py::test_invoice_total/);
    // The same message in two calls is one item.
    expect(calls[1]!.items[1]).toBe(calls[0]!.items[1]);
    // Neither the tool schemas nor a system prompt beyond the instructions are recorded: fitted from usage.
    expect(calls.every((r) => r.prefixUnrecorded === true && r.tools === null)).toBe(true);
  });

  it('reads usage as the conventions define it: input tokens include the cache read and write', () => {
    const calls = sessionContexts(s()).calls;
    expect(calls.map((c) => [reportedPromptTokens(c), c.usage!.cacheRead, c.usage!.cacheWrite, c.usage!.output])).toEqual([
      [2412, 0, 2380, 58],
      [2561, 2380, 120, 41],
      [2984, 2500, 420, 160],
      [2790, 2380, 380, 95],
    ]);
  });

  it('shows the history processor that dropped the test run as a compaction, and the cache it broke', () => {
    const a = analyzeSession(s(), { count });
    expect(a.compactions.map((c) => [c.kind, c.call, c.tokensBefore, c.tokensAfter, c.replacedIds.length])).toEqual([['inferred', 4, 2984, 2790, 3]]);
    const last = a.cache[3]!;
    // Call 3 left 2,920 tokens cached (read + write); call 4 read 2,380 of them.
    expect([last.reportedMiss, last.cacheBreak, last.cause]).toEqual([true, true, 'compaction']);
    expect(a.facts.cache?.hitRate).toBeCloseTo((2380 + 2500 + 2380) / (2412 + 2561 + 2984 + 2790), 6);
  });
});

describe('otlp: OpenLLMetry attributes (gen_ai.prompt.N / gen_ai.completion.N)', () => {
  it('joins the spans of one trace written over two lines, and reads the cache inside input_tokens', () => {
    const { sessions, issues } = load('otlp-openllmetry-anthropic.jsonl');
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.meta['convention']).toBe('openllmetry');
    expect(s.skipped).toEqual({ 'workflow spans': 1 });
    expect(s.requests.map((r) => r.items.map((i) => [i.role, i.kind]))).toEqual([
      [
        ['system', 'message'],
        ['user', 'message'],
      ],
      [
        ['system', 'message'],
        ['user', 'message'],
        ['assistant', 'message'],
        ['user', 'message'],
      ],
    ]);
    expect(s.requests.map((r) => [r.source.line, r.items.at(-1)!.source.line])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    // OpenLLMetry's prompt-caching test: input_tokens 1167 = 4 uncached + 1163 written; then 1163 read.
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => [reportedPromptTokens(c), c.usage!.cacheRead, c.usage!.cacheWrite, c.usage!.output])).toEqual([
      [1167, 0, 1163, 187],
      [1372, 1163, 205, 24],
    ]);
    expect(calls.map((c) => c.prefixUnrecorded)).toEqual([false, false]);
  });
});

describe('otlp: per-message span events (gen_ai.user.message, gen_ai.choice)', () => {
  it('rebuilds the messages from the events, tool calls and results paired', () => {
    const { sessions, issues } = load('otlp-genai-events.json');
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect([s.id, s.meta['convention']]).toEqual(['weather-thread-19', 'genai-events']);
    const [first, second] = s.requests;
    expect(first!.output.map((i) => [i.kind, i.name, i.callId, i.text])).toEqual([
      ['message', undefined, undefined, ''],
      ['tool_call', 'get_weather', 'call_Bq7Lx2', '{"location": "Boston, MA"}'],
    ]);
    expect(second!.items.map((i) => [i.role, i.kind])).toEqual([
      ['system', 'message'],
      ['user', 'message'],
      ['assistant', 'message'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
    ]);
    expect(second!.items[4]!.pairId).toBe(second!.items[3]!.id);
    expect(second!.output[0]!.text).toBe("It's 41°F in Boston with light rain.");
    expect(sessionContexts(s).calls.map((c) => [reportedPromptTokens(c), c.usage!.output, c.api])).toEqual([
      [96, 18, 'openai-chat'],
      [141, 22, 'openai-chat'],
    ]);
  });

  it("reads pydantic-ai's `events` attribute (event_mode='attributes') as the call's messages", () => {
    const events = [
      { content: 'system_prompt', role: 'system', 'gen_ai.message.index': 0 },
      { content: 'user_prompt', role: 'user', 'gen_ai.message.index': 0 },
      { content: 'tool_return_content', role: 'tool', name: 'tool3', id: 'tool_call_3', 'gen_ai.message.index': 0 },
      { index: 0, message: { role: 'assistant', content: 'text1', tool_calls: [{ id: 'tool_call_1', type: 'function', function: { name: 'tool1', arguments: 'args1' } }] } },
    ];
    const text = trace([{ id: '1', name: 'chat my_model', start: 0, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 200, events } }]);
    const r = loadText('pydantic.json', text).sessions[0]!.requests[0]!;
    expect(r.items.map((i) => [i.role, i.kind, i.text, i.callId ?? null])).toEqual([
      ['system', 'message', 'system_prompt', null],
      ['user', 'message', 'user_prompt', null],
      ['tool', 'tool_result', 'tool_return_content', 'tool_call_3'],
    ]);
    expect(r.output.map((i) => [i.kind, i.text])).toEqual([
      ['message', 'text1'],
      ['tool_call', 'args1'],
    ]);
  });
});

describe('otlp: OpenInference (llm.input_messages.N)', () => {
  const s = () => load('otlp-openinference-langgraph.json').sessions[0]!;

  it('groups by session.id and reads messages, tool calls and tool results', () => {
    const { sessions, issues } = load('otlp-openinference-langgraph.json');
    expect(issues).toEqual([]);
    expect(sessions.map((x) => [x.id, x.meta['convention']])).toEqual([['thread-4412', 'openinference']]);
    const r = sessions[0]!.requests[2]!;
    expect(r.items.map((i) => [i.role, i.kind, i.name ?? null, i.callId ?? null])).toEqual([
      ['system', 'message', null, null],
      ['user', 'message', null, null],
      ['assistant', 'message', null, null],
      ['assistant', 'tool_call', 'search_logs', 'toolu_9A1'],
      ['tool', 'tool_result', 'search_logs', 'toolu_9A1'],
      ['assistant', 'tool_call', 'get_deploys', 'toolu_9A2'],
      ['tool', 'tool_result', 'get_deploys', 'toolu_9A2'],
    ]);
  });

  it('reads llm.token_count.prompt as the whole prompt, cache read and write inside it', () => {
    expect(sessionContexts(s()).calls.map((c) => [reportedPromptTokens(c), c.usage!.cacheRead, c.usage!.cacheWrite, c.usage!.output])).toEqual([
      [1830, 0, 1790, 52],
      [1940, 1790, 110, 38],
      [2071, 1900, 130, 41],
      [1512, 1188, 280, 60],
      [1604, 1468, 90, 49],
    ]);
  });

  it('records the SummarizationMiddleware span that ran a summarizer as a compaction; its other runs changed nothing', () => {
    const session = s();
    expect(session.skipped['compaction hooks that changed nothing']).toBe(4);
    expect(session.requests).toHaveLength(5);
    const a = analyzeSession(session, { count });
    expect(a.compactions.map((c) => [c.kind, c.trigger, c.call, c.replacedIds.length, c.tokensBefore, c.tokensAfter])).toEqual([['summary', 'SummarizationMiddleware.before_model', 4, 6, 2071, 1512]]);
    const summary = session.items.find((i) => i.id === a.compactions[0]!.summaryId)!;
    expect([summary.kind, summary.role]).toEqual(['summary', 'user']);
    expect(summary.text).toMatch(/^Here is a summary of the conversation to date:/);
    // The summarizer's call is a side conversation, not a call of the agent.
    expect(session.sidechains.map((c) => [c.purpose, c.compactionId, c.responses!.map((r) => r.usage!.input)])).toEqual([['compaction', 'otlp-compaction-1', [702]]]);
    // The audit reads the summary against what it replaced: the deploy's version kept, the file it changed lost.
    expect(a.audits[0]!.kept).toContain('v2.31.0');
    expect(a.audits[0]!.lost).toContain('values.yaml');
  });
});

describe('otlp: rules that hold whatever the instrumentation', () => {
  const chat = (id: string, start: number, extra: Record<string, unknown> = {}, parent?: string) => ({
    id,
    start,
    name: 'chat gpt-4o',
    ...(parent ? { parent } : {}),
    attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `q${id}` }] }]), ...extra },
  });

  it('reads a usage of zeros throughout as no usage: no call reads an empty prompt', () => {
    const chat = (id: string, start: number, input: number, output: number) => ({
      id,
      name: 'chat gpt-4o',
      start,
      attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.input.messages': [{ role: 'user', parts: [{ type: 'text', content: `q${id}` }] }], 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output },
    });
    const s = loadText('zeros.json', trace([chat('1', 0, 0, 0), chat('2', 1, 120, 7)])).sessions[0]!;
    expect(s.requests.map((r) => r.usage?.input ?? null)).toEqual([null, 120]);
    expect(s.responses.map((r) => r.usage?.input ?? null)).toEqual([null, 120]);
  });

  it('keeps one call for an LLM span seen by two instrumentation layers: the one that records more', () => {
    const text = trace([
      { id: '1', name: 'chat gpt-4o', start: 0, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } },
      { id: '2', parent: '1', name: 'openai.chat', start: 0, attrs: { 'llm.request.type': 'chat', 'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': 'hi', 'gen_ai.usage.prompt_tokens': 9, 'gen_ai.usage.completion_tokens': 2 } },
    ]);
    const s = loadText('two-layers.json', text).sessions[0]!;
    expect(s.requests.map((r) => [r.items.map((i) => i.text), r.usage?.input])).toEqual([[['hi'], 9]]);
    expect(s.skipped).toEqual({ 'LLM spans nested in another (the same call, another instrumentation layer)': 1 });
  });

  it('does not take a summarizing workflow that holds every call for a compaction', () => {
    const text = trace([{ id: 'a', name: 'summarize_articles.workflow', start: 0, attrs: {} }, chat('1', 1, {}, 'a'), chat('2', 2, {}, 'a')]);
    const s = loadText('digest.json', text).sessions[0]!;
    expect([s.requests.length, s.compactions.length, s.sidechains.length]).toEqual([2, 0, 0]);
  });

  it('reads an emitter that wrote the uncached rest as input_tokens by the span total (Strands)', () => {
    const text = trace([chat('1', 0, { 'gen_ai.usage.input_tokens': 4299, 'gen_ai.usage.output_tokens': 631, 'gen_ai.usage.cache_read_input_tokens': 35574, 'gen_ai.usage.cache_write_input_tokens': 17787, 'gen_ai.usage.total_tokens': 58291 })]);
    const c = sessionContexts(loadText('strands.json', text).sessions[0]!).calls[0]!;
    expect([reportedPromptTokens(c), c.usage!.inputIncludesCache]).toEqual([4299 + 35574 + 17787, false]);
  });

  it('splits calls into sessions by conversation id, else by trace, in start-time order', () => {
    const text = trace([chat('2', 5, { 'gen_ai.conversation.id': 'A' }), chat('1', 1, { 'gen_ai.conversation.id': 'A' }), chat('3', 2, { 'gen_ai.conversation.id': 'B' })]);
    const { sessions } = loadText('two.json', text);
    expect(sessions.map((x) => [x.id, x.requests.map((r) => r.items[0]!.text)])).toEqual([
      ['A', ['q1', 'q2']],
      ['B', ['q3']],
    ]);
  });

  it('names the file, line and field of a broken message attribute, and keeps the call', () => {
    const text = trace([chat('1', 0, { 'gen_ai.input.messages': '[{"role": "user", "parts": [' , 'gen_ai.usage.input_tokens': 10 })]);
    const { sessions, issues } = loadText('broken.json', text);
    expect(sessions[0]!.requests).toHaveLength(1);
    expect(issues.map((i) => [i.file, i.line, i.field, i.severity])).toEqual([['broken.json', 1, 'resourceSpans[0].scopeSpans[0].spans[0].attributes[2].value', 'error']]);
    expect(issues[0]!.message).toMatch(/gen_ai\.input\.messages. is not valid JSON/);
  });

  it('says when spans record no messages (content capture off), and still reads their usage', () => {
    const text = trace([{ id: '1', name: 'chat gpt-4o', start: 0, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 5 } }]);
    const { sessions, issues } = loadText('nocontent.json', text);
    expect(sessions[0]!.requests[0]!.usage?.input).toBe(50);
    expect(issues.map((i) => i.severity)).toEqual(['warning']);
    expect(issues[0]!.message).toMatch(/content capture is off/);
  });
});
