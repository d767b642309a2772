// The usage cross-check for OTLP traces, in the spirit of the per-format one (every format's fixture read the
// obvious way, independently of the adapter, against the engine's per-call prompt, cache read, cache write and
// output): a few lines of plain JSON per convention, none of the adapter's helpers. Where a span carries a total,
// the prompt is total − output, the span's own arithmetic; elsewhere the conventions' rule that the input count
// holds the cache.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a reader pokes into plain JSON

interface Row {
  prompt: number | null;
  read: number;
  write: number;
  output: number | null;
}

const text = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
/** Every span of a file (one request, or one per line), with its attributes as a plain object. */
function spans(t: string): Json[] {
  const requests = t.trimStart().startsWith('{"resourceSpans"') && t.trim().includes('\n') ? t.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json) : [JSON.parse(t) as Json];
  return requests.flatMap((r) =>
    (r.resourceSpans as Json[]).flatMap((rs) =>
      (rs.scopeSpans as Json[]).flatMap((ss) =>
        (ss.spans as Json[]).map((s) => ({ ...s, a: Object.fromEntries((s.attributes as Json[]).map((kv) => [kv.key, Object.values(kv.value as Json)[0]])) })),
      ),
    ),
  );
}
const n = (v: unknown): number | null => (v === undefined ? null : Number(v));
const byStart = (a: Json, b: Json) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1);

const READERS: Record<string, (t: string) => Row[]> = {
  /** GenAI semconv: chat spans; input_tokens is the whole prompt, the cache parts inside it. */
  'otlp-genai-pydantic-ai.json': (t) =>
    spans(t)
      .filter((s) => s.a['gen_ai.operation.name'] === 'chat')
      .sort(byStart)
      .map((s) => ({ prompt: n(s.a['gen_ai.usage.input_tokens']), read: Number(s.a['gen_ai.usage.cache_read.input_tokens']), write: Number(s.a['gen_ai.usage.cache_creation.input_tokens']), output: n(s.a['gen_ai.usage.output_tokens']) })),
  /** OpenLLMetry: chat request spans; the prompt is llm.usage.total_tokens − output. */
  'otlp-openllmetry-anthropic.jsonl': (t) =>
    spans(t)
      .filter((s) => s.a['llm.request.type'] === 'chat')
      .sort(byStart)
      .map((s) => ({ prompt: Number(s.a['llm.usage.total_tokens']) - Number(s.a['gen_ai.usage.output_tokens']), read: Number(s.a['gen_ai.usage.cache_read_input_tokens']), write: Number(s.a['gen_ai.usage.cache_creation_input_tokens']), output: n(s.a['gen_ai.usage.output_tokens']) })),
  /** GenAI with per-message events: no cache figures. */
  'otlp-genai-events.json': (t) =>
    spans(t)
      .filter((s) => s.a['gen_ai.operation.name'] === 'chat')
      .sort(byStart)
      .map((s) => ({ prompt: n(s.a['gen_ai.usage.input_tokens']), read: 0, write: 0, output: n(s.a['gen_ai.usage.output_tokens']) })),
  /** OpenInference: LLM spans but the summarizer's (inside the SummarizationMiddleware span); prompt = total − completion. */
  'otlp-openinference-langgraph.json': (t) => {
    const all = spans(t);
    const name = new Map(all.map((s) => [s.spanId, s.name as string]));
    return all
      .filter((s) => s.a['openinference.span.kind'] === 'LLM' && !/Summarization/.test(name.get(s.parentSpanId) ?? ''))
      .sort(byStart)
      .map((s) => ({ prompt: Number(s.a['llm.token_count.total']) - Number(s.a['llm.token_count.completion']), read: Number(s.a['llm.token_count.prompt_details.cache_read'] ?? 0), write: Number(s.a['llm.token_count.prompt_details.cache_write'] ?? 0), output: n(s.a['llm.token_count.completion']) }));
  },
};

describe('usage cross-check: OTLP traces against an independent reading of each fixture', () => {
  it.each(Object.keys(READERS))('%s', (name) => {
    const { sessions } = loadText(name, text(name));
    expect(sessions.map((s) => s.format)).toEqual(['otlp']);
    const calls = sessions.flatMap((s) => sessionContexts(s).calls);
    const engine = calls.map((c) => ({ prompt: reportedPromptTokens(c), read: c.usage?.cacheRead ?? 0, write: c.usage?.cacheWrite ?? 0, output: c.usage?.output ?? null }));
    const expected = READERS[name]!(text(name));
    expect(expected.length).toBeGreaterThan(0);
    expect(engine).toEqual(expected);
    // The adapter says whether each input count holds the cache: the convention, never a guess from the model.
    expect(calls.filter((c) => c.usage?.inputIncludesCache === undefined)).toEqual([]);
  });
});
