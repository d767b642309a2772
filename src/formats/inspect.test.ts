import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFile, loadText } from '../load/loader';
import { promptTokens } from '../model/usage';

// The fixture imitates an Inspect AI log (v2 log format, inspect_ai 0.3.16x), modelled on
// UKGovernmentBEIS/inspect_ai tests/log/test_eval_log/log_read_sample.json (events, spans, attachments) and on
// src/inspect_ai/model/_compaction/{_compaction,summary}.py (the summarizer call, the `compaction` event and the
// `[CONTEXT COMPACTION SUMMARY]` user message with metadata.summary), and src/inspect_ai/event/_pool.py
// (`input_refs` into `events_data.messages`). Sample 1 compacts; sample 2 has pooled inputs.
const FIXTURE = readFileSync(new URL('./__fixtures__/inspect-compaction.json', import.meta.url), 'utf8');

/** The fixture as a `.eval` zip, laid out as Inspect writes one. */
function evalArchive(): Uint8Array {
  const log = JSON.parse(FIXTURE) as { samples: { id: string; epoch: number }[] } & Record<string, unknown>;
  const { samples, ...header } = log;
  const files: Record<string, Uint8Array> = {
    '_journal/start.json': strToU8(JSON.stringify({ version: 2, eval: header['eval'], plan: header['plan'] })),
    'header.json': strToU8(JSON.stringify(header)),
    'summaries.json': strToU8(JSON.stringify(samples.map((s) => ({ id: s.id, epoch: s.epoch })))),
  };
  // Written in reverse: the reader orders samples by epoch and id, not by zip order.
  for (const s of [...samples].reverse()) files[`samples/${s.id}_epoch_${s.epoch}.json`] = strToU8(JSON.stringify(s));
  return zipSync(files);
}

describe('inspect', () => {
  it('reads each sample as a session whose calls are its model events', () => {
    const { sessions, issues } = loadText('fix_calc.json', FIXTURE);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => [s.id, s.format, s.title, s.requests.length])).toEqual([
      ['EvL4tq9Zc2/calc-1_epoch_1', 'inspect', 'fix_calc · sample calc-1', 4],
      ['EvL4tq9Zc2/ls-2_epoch_1', 'inspect', 'fix_calc · sample ls-2', 2],
    ]);
    const s = sessions[0]!;
    expect(s.model).toBe('anthropic/claude-sonnet-4-5');
    expect(s.meta).toEqual({ sampleId: 'calc-1', epoch: 1, task: 'fix_calc', inspectVersion: '0.3.160', status: 'success', score: 'C', logVersion: 2 });
    // The grader's call while scoring is not the agent's; tool and score events are counted, not shown.
    expect(s.skipped).toEqual({ sample_init: 1, tool: 2, 'model (scoring)': 1, score: 1 });
  });

  it('gives each call exactly its recorded input, with attachments resolved', () => {
    const s = loadText('fix_calc.json', FIXTURE).sessions[0]!;
    expect(s.requests.map((r) => [r.id, r.api, r.items.map((i) => i.id), r.output.map((i) => `${i.id}:${i.kind}`)])).toEqual([
      ['mev-1', 'anthropic', ['Sys8kQ2m', 'Usr3nT7p'], ['Ast1Qa9x.r0:thinking', 'Ast1Qa9x:message', 'Ast1Qa9x.call0:tool_call']],
      ['mev-2', 'anthropic', ['Sys8kQ2m', 'Usr3nT7p', 'Ast1Qa9x.r0', 'Ast1Qa9x', 'Ast1Qa9x.call0', 'Tool1Rr4'], ['Ast2Wb5y.call0:tool_call']],
      ['mev-3', 'anthropic', ['Sys8kQ2m', 'Usr3nT7p', 'Ast1Qa9x.r0', 'Ast1Qa9x', 'Ast1Qa9x.call0', 'Tool1Rr4', 'Ast2Wb5y.call0', 'Tool2Hh8'], ['Ast3Kc6z:message']],
      ['mev-4', 'anthropic', ['Sys8kQ2m', 'Usr3nT7p', 'Sum4Lm2r'], ['Ast4Pp3d:message']],
    ]);
    const system = s.requests[0]!.items[0]!;
    expect(system).toMatchObject({ role: 'system', text: 'You are a careful software engineer. Use the bash tool to inspect and change files. Keep answers short.' });
    expect(s.requests[1]!.items.find((i) => i.id === 'Ast1Qa9x.call0')).toMatchObject({ name: 'bash', callId: 'toolu_01A', pairId: 'Tool1Rr4', text: '{"cmd":"pytest tests/test_calc.py -x -q"}' });
    expect(s.requests[3]!.items[2]).toMatchObject({ kind: 'summary', role: 'user' });
    expect(JSON.parse(s.requests[0]!.tools!)).toEqual([expect.objectContaining({ name: 'bash' })]);
    // One object per message however many calls repeat it.
    expect(s.requests[3]!.items[1]).toBe(s.requests[0]!.items[1]);
  });

  it('reads a usage of zeros throughout as no usage: no call reads an empty prompt', () => {
    const log = JSON.parse(FIXTURE) as { samples: { events: { event: string; output?: { usage?: Record<string, number> } }[] }[] };
    const model = log.samples[0]!.events.find((e) => e.event === 'model' && e.output?.usage)!;
    model.output!.usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    const a = loadText('zeros.json', JSON.stringify(log)).sessions[0]!;
    expect(a.requests.map((r) => r.usage?.input ?? null)).toEqual([null, 9, 8, 325]);
    expect(a.responses.map((r) => r.usage?.input ?? null)).toEqual([null, 9, 8, 325]);
  });

  it('reads usage per call, cache reads and writes apart from input', () => {
    const [a, b] = loadText('fix_calc.json', FIXTURE).sessions;
    expect(a!.requests.map((r) => r.usage)).toEqual([
      { input: 12, output: 48, cacheRead: 0, cacheWrite: 1500, inputIncludesCache: false },
      { input: 9, output: 30, cacheRead: 1500, cacheWrite: 141, inputIncludesCache: false },
      { input: 8, output: 22, cacheRead: 1641, cacheWrite: 70, inputIncludesCache: false },
      { input: 325, output: 18, cacheRead: 0, cacheWrite: null, inputIncludesCache: false },
    ]);
    expect(a!.responses.map((r) => r.usage)).toEqual(a!.requests.map((r) => r.usage));
    // Inspect subtracts OpenAI's cached tokens from input_tokens: the whole prompt is input + cache read.
    expect(b!.requests.map((r) => r.usage && promptTokens(r.usage))).toEqual([180, 1280]);
    expect(b!.model).toBe('openai/gpt-4.1-mini');
  });

  it('records the compaction event before the next call, completed from what that call was sent', () => {
    const s = loadText('fix_calc.json', FIXTURE).sessions[0]!;
    expect(s.compactions).toEqual([
      expect.objectContaining({ id: 'cmp-1', index: 0, kind: 'summary', trigger: 'CompactionSummary', tokensBefore: 1790, tokensAfter: 310, requestId: 'mev-4' }),
    ]);
    const contexts = sessionContexts(s);
    expect(contexts.compactions).toEqual([
      expect.objectContaining({
        id: 'cmp-1',
        tokensBefore: 1790,
        tokensAfter: 310,
        replacedIds: ['Ast1Qa9x.r0', 'Ast1Qa9x', 'Ast1Qa9x.call0', 'Tool1Rr4', 'Ast2Wb5y.call0', 'Tool2Hh8'],
        keptIds: ['Sys8kQ2m', 'Usr3nT7p'],
        summaryId: 'Sum4Lm2r',
      }),
    ]);
    // Nothing else is inferred: the recorded event is the compaction between calls 3 and 4.
    expect(contexts.calls.map((c) => c.compactionId)).toEqual([null, null, null, 'cmp-1']);
    expect(contexts.calls[3]!.entries.map((e) => e.item.id)).toEqual(['Sys8kQ2m', 'Usr3nT7p', 'Sum4Lm2r']);
  });

  it('keeps the summarizer call out of the calls, as a sidechain of its compaction', () => {
    const s = loadText('fix_calc.json', FIXTURE).sessions[0]!;
    expect(s.sidechains.map((c) => [c.id, c.purpose, c.compactionId, c.items.length])).toEqual([['summarizer-0', 'compaction', 'cmp-1', 11]]);
    expect(s.sidechains[0]!.items.at(-1)!.text).toContain('<summary>');
  });

  it('expands pooled inputs and marks a failed tool result', () => {
    const s = loadText('fix_calc.json', FIXTURE).sessions[1]!;
    expect(s.requests.map((r) => r.items.map((i) => i.id))).toEqual([
      ['P0sys', 'P1usr'],
      ['P0sys', 'P1usr', 'P2ast.call0', 'P3tool'],
    ]);
    expect(s.requests.map((r) => r.api)).toEqual(['openai-chat', 'openai-chat']);
    expect(s.items.find((i) => i.id === 'P3tool')).toMatchObject({ kind: 'tool_result', isError: true, callId: 'call_X1', pairId: 'P2ast.call0' });
    expect(s.compactions).toEqual([]);
  });

  it("keeps a sub-agent's calls (an agent span inside a tool) out of the sample's calls, as a sidechain", () => {
    type Ev = Record<string, unknown>;
    const log = JSON.parse(FIXTURE) as { samples: { events: Ev[] }[] };
    const events = log.samples[1]!.events;
    const span = (id: string, type: string, name: string, parent?: string): Ev => ({ event: 'span_begin', id, span_id: id, type, name, ...(parent ? { parent_id: parent } : {}), timestamp: '2026-02-10T10:01:01.500+00:00' });
    const sub: Ev = {
      event: 'model',
      span_id: 'agent-r',
      uuid: 'mev-sub',
      model: 'openai/gpt-4.1-mini',
      input: [{ id: 'R1', role: 'system', content: 'You are a researcher.' }, { id: 'R2', role: 'user', content: 'Where is the repository root?' }],
      tools: [],
      output: { choices: [{ message: { id: 'R3', role: 'assistant', content: 'It is /work/app.' } }], usage: { input_tokens: 30, output_tokens: 8 } },
    };
    // The sample's own agent wraps its calls; the researcher runs inside a handoff tool of that agent.
    events.splice(1, 0, span('agent-main', 'agent', 'react', 'solvers2'));
    for (const e of events) if (e['event'] === 'model') e['span_id'] = 'agent-main';
    events.splice(3, 0, span('tool-h', 'tool', 'transfer_to_researcher', 'agent-main'), span('agent-r', 'agent', 'researcher', 'tool-h'), sub);
    const s = loadText('handoff.json', JSON.stringify(log)).sessions[1]!;
    expect(s.requests.map((r) => r.id)).toEqual(['mev-b1', 'mev-b2']);
    expect(s.sidechains.map((c) => [c.id, c.purpose, c.items.map((i) => i.text)])).toEqual([['agent-researcher-0', 'subagent', ['You are a researcher.', 'Where is the repository root?', 'It is /work/app.']]]);
    expect(sessionContexts(s).compactions).toEqual([]);
  });

  it('reads a .eval zip directly, samples in order, as the .json log reads', () => {
    const fromZip = loadFile({ name: 'fix_calc.eval', bytes: evalArchive() });
    const fromJson = loadText('fix_calc.eval', FIXTURE);
    expect(fromZip.issues).toEqual([]);
    expect(fromZip.sessions.map((s) => s.id)).toEqual(['EvL4tq9Zc2/calc-1_epoch_1', 'EvL4tq9Zc2/ls-2_epoch_1']);
    expect(fromZip.sessions.map((s) => [s.requests.length, s.compactions.length, s.items.length])).toEqual(fromJson.sessions.map((s) => [s.requests.length, s.compactions.length, s.items.length]));
    expect(fromZip.sessions[0]!.requests[3]!.usage).toEqual({ input: 325, output: 18, cacheRead: 0, cacheWrite: null, inputIncludesCache: false });
  });

  it('reads an unfinished .eval from its journal, and names a broken sample entry', () => {
    const bytes = zipSync({
      '_journal/start.json': strToU8(JSON.stringify({ version: 2, eval: { eval_id: 'E1', task: 't' }, plan: {} })),
      'samples/1_epoch_1.json': strToU8('{"id": 1, "epoch": 1'),
    });
    const r = loadFile({ name: 'running.eval', bytes });
    expect(r.issues.map((i) => [i.severity, i.field, i.message.slice(0, 30)])).toEqual([
      ['warning', null, 'the archive has no header.json'],
      ['error', 'samples/1_epoch_1.json', 'invalid JSON in archive entry '],
      ['warning', 'samples', 'the log has no samples (writte'],
    ]);
    expect(r.sessions).toEqual([]);
  });

  it('refuses a zip that is not an Inspect log, saying to unzip it', () => {
    const r = loadFile({ name: 'bundle.zip', bytes: zipSync({ 'notes.txt': strToU8('hello') }) });
    expect(r.sessions).toEqual([]);
    expect(r.issues[0]!.message).toContain('not an Inspect log');
  });

  it('reads one unzipped sample file on its own', () => {
    const log = JSON.parse(FIXTURE) as { samples: unknown[] };
    const r = loadText('samples/ls-2_epoch_1.json', JSON.stringify(log.samples[1]));
    expect(r.issues).toEqual([]);
    expect(r.sessions.map((s) => [s.format, s.id, s.requests.length])).toEqual([['inspect', 'ls-2_epoch_1', 2]]);
  });

  it('reports an input_refs range outside the pool by its field, and keeps the other calls', () => {
    const log = JSON.parse(FIXTURE) as { samples: { events: { input_refs?: number[][] }[] }[] };
    log.samples[1]!.events[1]!.input_refs = [[0, 9]];
    const r = loadText('bad.json', JSON.stringify(log));
    expect(r.issues.map((i) => [i.field, i.message])).toEqual([['samples[1].events[1].input_refs[0]', 'input_refs range [0,9] is outside events_data.messages (4 messages)']]);
    expect(r.sessions[1]!.requests.map((q) => q.items.length)).toEqual([0, 4]);
  });
});
