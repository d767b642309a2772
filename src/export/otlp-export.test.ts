import { readFileSync } from 'node:fs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView, type AnalysisView } from '../analysis/analysis-view';
import { sessionMetrics } from '../cli/session-metrics';
import { loadFiles, loadText } from '../load/loader';
import type { Session } from '../model/types';
import { decodeOtlpJson } from '../test/otlp-decode';
import { otlpText, otlpTraces, type OtlpSpanJson } from './otlp-export';

const count = (t: string) => Math.ceil(t.length / 4);
const fixture = (name: string) => ({ name, bytes: readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url)) });

function claudeCode(): { session: Session; view: AnalysisView } {
  const { sessions } = loadFiles([fixture('claude-code-session.jsonl'), fixture('claude-code-session.agent-acompact.jsonl')]);
  const session = sessions[0]!;
  return { session, view: buildAnalysisView(session, { count, ghosts: false }) };
}

/** An attribute's plain value. */
function attr(span: OtlpSpanJson, key: string): string | number | boolean | undefined {
  const v = span.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  return v.boolValue;
}

describe('OTLP export: a round trip', () => {
  it('exports a Claude Code session and imports it again: same calls, same reported usage, same compactions', () => {
    const { session, view } = claudeCode();
    const back = loadText('claude-code-session.otlp.json', otlpText([{ session, view }], { now: 0 }));
    expect(back.issues).toEqual([]);
    expect(back.sessions.map((s) => [s.format, s.id, s.title])).toEqual([['otlp', session.id, session.title]]);
    const again = buildAnalysisView(back.sessions[0]!, { count, ghosts: false });

    const calls = (v: AnalysisView) => v.calls.map((c) => ({ model: c.model, prompt: c.reportedPrompt, read: c.usage?.cacheRead, write: c.usage?.cacheWrite, output: c.usage?.output, items: c.entries.length }));
    expect(view.calls).toHaveLength(6);
    expect(calls(again)).toEqual(calls(view));
    // What each call was sent, item by item: role, kind and text.
    const sent = (v: AnalysisView, ci: number) => {
      const byId = new Map(v.items.map((i) => [i.id, i]));
      return v.calls[ci]!.entries.map((e) => {
        const it = (e.variant ? v.variants.get(e.id) : undefined) ?? byId.get(e.id)!;
        return [it.role === 'tool' ? 'user' : it.role, it.kind, it.text];
      });
    };
    for (let ci = 0; ci < view.calls.length; ci++) expect(sent(again, ci).map(([, kind, text]) => [kind, text])).toEqual(sent(view, ci).map(([, kind, text]) => [kind, text]));

    // Same compactions: kind, trigger, the call each precedes, tokens before and after. (A compaction record may also
    // name an item that was already cleared when first written; no prompt shows that one change, so a trace cannot.)
    const compactions = (v: AnalysisView) => v.compactions.map((c) => [c.kind, c.trigger, c.call, c.tokensBefore, c.tokensAfter]);
    expect(compactions(view)).toEqual([
      ['microcompact', 'auto', 5, 42000, 33000],
      ['compact', 'manual', 6, 48210, 3805],
    ]);
    expect(compactions(again)).toEqual(compactions(view));
    expect(again.compactions[1]!.replacedIds).toHaveLength(view.compactions[1]!.replacedIds.length);
    // The cache verdicts follow: the same breaks, for the same causes.
    expect(again.cache.map((r) => [r.cacheBreak, r.cause, r.reportedMiss])).toEqual(view.cache.map((r) => [r.cacheBreak, r.cause, r.reportedMiss]));
  });
});

describe('OTLP export: the encoding', () => {
  it("decodes into OpenTelemetry's ExportTraceServiceRequest message and back without losing a field", () => {
    const { session, view } = claudeCode();
    const json = JSON.parse(otlpText([{ session, view }], { now: 0 })) as unknown;
    expect(decodeOtlpJson(json)).toEqual(json);
  });

  it('fails the check on a field the message does not have, or a value of the wrong type', () => {
    const { session, view } = claudeCode();
    const misspelled = otlpText([{ session, view }], { now: 0 }).replace('"stringValue"', '"stringvalue"');
    expect(decodeOtlpJson(JSON.parse(misspelled))).not.toEqual(JSON.parse(misspelled));
    const wrongType = JSON.parse(otlpText([{ session, view }], { now: 0 }).replace(/"kind":3/, '"kind":"client"')) as unknown;
    expect(decodeOtlpJson(wrongType)).not.toEqual(wrongType);
  });

  it('reads the JSON the OpenTelemetry SDK writes the same way (the decoder is the protocol, not our reading of it)', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t', '1');
    const parent = tracer.startSpan('invoke_agent x');
    tracer.startSpan('chat m', { kind: 2, attributes: { 'gen_ai.usage.input_tokens': 5, 'x.rate': 0.5, 'x.s': 's', 'x.b': true } }).end();
    parent.end();
    const sdk = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()))) as { resourceSpans: { scopeSpans: { spans: { kind: number; attributes: unknown[] }[] }[] }[] };
    const decoded = decodeOtlpJson(sdk) as typeof sdk;
    const span = decoded.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    // SpanKind CLIENT of the API is 3 on the wire, as our call spans write it.
    expect(span.kind).toBe(3);
    expect(span.attributes).toEqual([
      { key: 'gen_ai.usage.input_tokens', value: { intValue: '5' } },
      { key: 'x.rate', value: { doubleValue: 0.5 } },
      { key: 'x.s', value: { stringValue: 's' } },
      { key: 'x.b', value: { boolValue: true } },
    ]);
  });

  it('is one line, so it reads as one JSON document and as JSONL; the same analysis gives the same file', () => {
    const { session, view } = claudeCode();
    const text = otlpText([{ session, view }], { now: 0 });
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(otlpText([{ session, view }], { now: 0 })).toBe(text);
  });
});

describe('OTLP export: our figures as attributes', () => {
  const { session, view } = claudeCode();
  const spans = otlpTraces([{ session, view }], { now: 0 }).resourceSpans[0]!.scopeSpans[0]!.spans;
  const root = spans[0]!;
  const calls = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat');
  const compactions = spans.filter((s) => s.name === 'compaction_inspector.compaction');
  // The CLI's --json reads the same engine module: every figure here must equal it.
  const cli = sessionMetrics(session, count, { rule: 'auto' });

  it('writes a root span, a span per call and a span per compaction, in one trace, compactions just before their call', () => {
    expect([root.name, calls.length, compactions.length]).toEqual(['invoke_agent claude-code', 6, 2]);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(spans.slice(1).every((s) => s.parentSpanId === root.spanId)).toBe(true);
    expect(spans.slice(1).map((s) => (s.name === 'compaction_inspector.compaction' ? `compaction ${attr(s, 'compaction_inspector.compaction.call')}` : `call ${attr(s, 'compaction_inspector.call.number')}`))).toEqual([
      'call 1',
      'call 2',
      'call 3',
      'call 4',
      'compaction 5',
      'call 5',
      'compaction 6',
      'call 6',
    ]);
    expect(calls[0]!.name).toBe(`chat ${view.calls[0]!.model}`);
  });

  it('gives each call the reported usage in the GenAI conventions, the cache inside the input count', () => {
    expect(calls.map((s) => [attr(s, 'gen_ai.usage.input_tokens'), attr(s, 'gen_ai.usage.cache_read.input_tokens'), attr(s, 'gen_ai.usage.cache_creation.input_tokens'), attr(s, 'gen_ai.usage.output_tokens')])).toEqual(
      cli.calls.map((c) => [c.reportedPrompt, c.reportedCacheRead, c.reportedCacheWrite, view.calls[c.index]!.usage!.output]),
    );
    expect(calls.every((s) => attr(s, 'gen_ai.provider.name') === 'anthropic')).toBe(true);
  });

  it('gives each call the context by region and the cache verdict, cause, miss tokens and cost the CLI reports', () => {
    expect(calls.map((s) => [attr(s, 'compaction_inspector.context.tokens'), attr(s, 'compaction_inspector.cache.verdict'), attr(s, 'compaction_inspector.cache.cause') ?? null, attr(s, 'compaction_inspector.cache.miss_tokens') ?? null, attr(s, 'compaction_inspector.cache.miss_cost_usd') ?? null])).toEqual(
      cli.calls.map((c) => [c.contextTokens, c.cacheBreak ? 'break' : 'held', c.cause, c.missTokens, c.missCostUsd]),
    );
    const regions = ['system', 'tools', 'head', 'summary', 'middle', 'tail', 'new_input'];
    for (const [ci, s] of calls.entries()) {
      const sum = regions.reduce((n, r) => n + Number(attr(s, `compaction_inspector.context.region.${r}.tokens`) ?? 0), 0);
      // The regions add up to the call's context, as the budget chart stacks them.
      expect(sum).toBe(view.calls[ci]!.contextTokens);
    }
  });

  it('gives each compaction its sizes, audit counts and re-fetch tax as the CLI reports them', () => {
    expect(compactions.map((s) => [attr(s, 'compaction_inspector.compaction.kind'), attr(s, 'compaction_inspector.compaction.tokens_before'), attr(s, 'compaction_inspector.compaction.tokens_after'), attr(s, 'compaction_inspector.refetch.tokens') ?? null])).toEqual(
      cli.compactions.map((c) => [c.kind, c.tokensBefore, c.tokensAfter, c.refetchTokens]),
    );
    const audited = compactions.filter((s) => attr(s, 'compaction_inspector.audit.kept') !== undefined);
    expect(audited.map((s) => [attr(s, 'compaction_inspector.compaction.index'), attr(s, 'compaction_inspector.audit.kept'), attr(s, 'compaction_inspector.audit.lost'), attr(s, 'compaction_inspector.audit.invented'), attr(s, 'compaction_inspector.audit.lost_needed')])).toEqual(
      cli.audits.map((a) => [a.compaction, a.kept.length, a.lost.length, a.invented.length, a.lostReferencedLater.length]),
    );
    expect(audited.length).toBeGreaterThan(0);
  });

  it("puts the session's facts on the root span", () => {
    expect([
      attr(root, 'compaction_inspector.session.calls'),
      attr(root, 'compaction_inspector.session.peak_context_tokens'),
      attr(root, 'compaction_inspector.session.compactions.recorded'),
      attr(root, 'compaction_inspector.cache.breaks'),
      attr(root, 'compaction_inspector.cache.miss_tokens'),
      attr(root, 'compaction_inspector.cache.hit_rate'),
      attr(root, 'compaction_inspector.session.cost_usd'),
    ]).toEqual([cli.facts.calls, cli.facts.peakContextTokens, cli.facts.compactions.recorded, cli.cache!.breaks, cli.cache!.missTokens, cli.cache!.hitRate, cli.facts.cost.usd]);
    expect(cli.facts.cost.usd).toBeGreaterThan(0);
  });

  it('leaves the messages out when asked (the conventions make content opt-in)', () => {
    const bare = otlpTraces([{ session, view }], { now: 0, content: false }).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(bare.some((s) => s.attributes.some((a) => a.key.endsWith('.messages')))).toBe(false);
  });
});

describe('OTLP export: responses billed off the timeline', () => {
  it('puts their count and tokens on the root span, as facts.offBranch has them', () => {
    const { sessions } = loadFiles([fixture('claude-code-off-branch.jsonl')]);
    const view = buildAnalysisView(sessions[0]!, { count, ghosts: false });
    const root = otlpTraces([{ session: sessions[0]!, view }], { now: 0 }).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    const off = view.facts.offBranch!;
    expect(off.responses).toBeGreaterThan(0);
    expect([attr(root, 'compaction_inspector.session.off_branch.responses'), attr(root, 'compaction_inspector.session.off_branch.prompt_tokens'), attr(root, 'compaction_inspector.session.off_branch.output_tokens'), attr(root, 'compaction_inspector.session.cost_usd')]).toEqual([
      off.responses,
      off.prompt,
      off.output,
      view.facts.cost.usd,
    ]);
  });
});
