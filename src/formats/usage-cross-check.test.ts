// The cross-check of every format the app reads: an independent reader, a few lines per format that pull the usage
// out of the fixture the obvious way (plain JSON, none of the adapters' helpers), against what the engine reads per
// call — the prompt as every surface gets it (`reportedPromptTokens`, which calibration and the session facts
// read), the cache read and write, and the output. A format that records no usage per call must invent none.
// The table is keyed by the adapter registry: an adapter without an entry fails here, so no format skips it.
//
// Where the file carries a total, the reader takes the prompt as total − output (and, for Gemini, − thoughts − tool):
// the file's own arithmetic, independent of any convention. Elsewhere it applies the convention documented in
// docs/formats.md and read from the harness's code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadFiles } from '../load/loader';
import type { FormatId, Session } from '../model/types';
import { ADAPTERS } from './index';

/** One call's usage: the whole prompt, the cache read and write (0 when not reported), the output. */
interface Row {
  prompt: number | null;
  read: number;
  write: number;
  output: number | null;
}

/** A fixture file as text, named as the loader sees it (folder fixtures keep their folder). */
interface Fixture {
  name: string;
  text: string;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a reader pokes into plain JSON

interface Entry {
  /** Files loaded together, relative to src/formats/__fixtures__ (or a folder under __fixture-folders__). */
  files: string[];
  /** The independent reading: every reported usage in call order; `none` for a format without usage per call. */
  read: ((files: Fixture[]) => Row[]) | 'none';
  /** The file records no model call at all (a compaction log read alone). */
  noCalls?: true;
}

const DIR = fileURLToPath(new URL('.', import.meta.url));
const FIXTURES = join(DIR, '__fixtures__');
const FOLDERS = join(DIR, '__fixture-folders__');

const lines = (f: Fixture): Json[] => f.text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
const json = (f: Fixture): Json => JSON.parse(f.text) as Json;
const row = (prompt: number | null, read: number | null | undefined, write: number | null | undefined, output: number | null | undefined): Row => ({ prompt, read: read ?? 0, write: write ?? 0, output: output ?? null });
/** Anthropic Messages usage: input_tokens is the uncached rest; the cache comes on top. */
const anthropicRow = (u: Json): Row => row(u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), u.cache_read_input_tokens, u.cache_creation_input_tokens, u.output_tokens);
/** Chat Completions usage (OpenAI, LiteLLM): the prompt is total − completion; writes are LiteLLM's Anthropic field. */
const chatRow = (u: Json): Row => row(u.total_tokens !== undefined ? u.total_tokens - u.completion_tokens : u.prompt_tokens, u.prompt_tokens_details?.cached_tokens ?? u.cache_read_input_tokens, u.cache_creation_input_tokens, u.completion_tokens);
/** Responses usage: input_tokens holds the cached tokens. */
const responsesRow = (u: Json): Row => row(u.total_tokens !== undefined ? u.total_tokens - u.output_tokens : u.input_tokens, u.input_tokens_details?.cached_tokens, u.input_tokens_details?.cache_write_tokens, u.output_tokens);
/** An OpenHands `token_usages` entry: LiteLLM's figures, the cache inside prompt_tokens. */
const tokenUsageRow = (u: Json): Row => row(u.prompt_tokens, u.cache_read_tokens, u.cache_write_tokens, u.completion_tokens);
/** Any logged response usage, by its field names. */
const anyRow = (u: Json): Row => (u.prompt_tokens !== undefined ? chatRow(u) : u.cache_read_input_tokens !== undefined || u.cache_creation_input_tokens !== undefined ? anthropicRow(u) : responsesRow(u));

/** Claude Code: one response per message.id (split over lines), the last line's usage; sidechain lines are not the session's. */
function claudeCode(files: Fixture[]): Row[] {
  const byId = new Map<string, Json>();
  for (const r of files.flatMap(lines)) if (r.type === 'assistant' && !r.isSidechain && r.message?.usage) byId.set(r.message.id, r.message.usage);
  return [...byId.values()].map(anthropicRow);
}

/** Codex: each token_count that measured a call (input or output above 0, a new running total); total − output is the prompt. */
function codex(files: Fixture[]): Row[] {
  const out: Row[] = [];
  for (const f of files) {
    if (f.name.includes('exec')) {
      for (const r of lines(f)) if (r.type === 'turn.completed') out.push(row(r.usage.input_tokens, r.usage.cached_input_tokens, 0, r.usage.output_tokens));
      continue;
    }
    let lastTotal = '';
    for (const r of lines(f)) {
      const info = r.type === 'event_msg' && r.payload.type === 'token_count' ? r.payload.info : null;
      const u = info?.last_token_usage;
      if (!u || (!u.input_tokens && !u.output_tokens) || JSON.stringify(info.total_token_usage) === lastTotal) continue;
      lastTotal = JSON.stringify(info.total_token_usage);
      out.push(row(u.total_tokens - u.output_tokens, u.cached_input_tokens, 0, u.output_tokens));
    }
  }
  return out;
}

/** mini-swe-agent: each assistant message's `extra.response.usage`. */
const miniSweAgent = (files: Fixture[]): Row[] =>
  files.flatMap((f) => (json(f).messages as Json[]).filter((m) => m.extra?.response?.usage).map((m) => chatRow(m.extra.response.usage)));

/** ATIF: each step's metrics; prompt_tokens include cached_tokens (the RFC), a write in metrics.extra where a writer put it. */
const atif = (files: Fixture[]): Row[] =>
  files.flatMap((f) => (json(f).steps as Json[]).filter((s) => s.metrics).map((s) => row(s.metrics.prompt_tokens, s.metrics.cached_tokens, s.metrics.extra?.cache_creation_input_tokens, s.metrics.completion_tokens)));

/**
 * Inspect: each sample's model events but the scorers' and the compaction summarizer's (the model event a
 * compaction event follows); the prompt is total − output, whatever the version's convention for input_tokens.
 */
function inspect(files: Fixture[]): Row[] {
  const out: Row[] = [];
  for (const sample of json(files[0]!).samples as Json[]) {
    const scorers = new Set((sample.events as Json[]).filter((e) => e.event === 'span_begin' && (e.type === 'scorer' || e.type === 'scorers')).map((e) => e.id));
    (sample.events as Json[]).forEach((e, i, all) => {
      if (e.event !== 'model' || scorers.has(e.span_id) || all[i + 1]?.event === 'compaction') return;
      const u = e.output.usage;
      out.push(row(u.total_tokens - u.output_tokens, u.input_tokens_cache_read, u.input_tokens_cache_write, u.output_tokens));
    });
  }
  return out;
}

/**
 * Gemini CLI: each `gemini` message's tokens, the last record of an id winning, rewound messages gone. The prompt is
 * total − output − thoughts − tool (promptTokenCount); thoughts are generated, so output + thoughts is the output.
 */
function geminiCli(files: Fixture[]): Row[] {
  const out: Row[] = [];
  for (const f of files) {
    const byId = new Map<string, Json>();
    const records = f.name.endsWith('.jsonl') ? lines(f) : (json(f).messages as Json[]);
    for (const r of records) {
      if (typeof r.$rewindTo === 'string') {
        const ids = [...byId.keys()];
        for (const id of ids.slice(Math.max(0, ids.indexOf(r.$rewindTo)))) byId.delete(id);
      } else if (r.type === 'gemini' && r.tokens) byId.set(r.id, r.tokens);
    }
    for (const t of byId.values()) out.push(row(t.total - t.output - t.thoughts - t.tool, t.cached, 0, t.output + t.thoughts));
  }
  return out;
}

/** Cline: each `api_req_started` record; Anthropic's convention (tokensIn is the uncached rest) unless Roo says openai. */
function cline(files: Fixture[]): Row[] {
  const ui = files.find((f) => f.name.includes('ui_messages'))!;
  return (json(ui) as unknown as Json[])
    .filter((m) => m.say === 'api_req_started')
    .map((m) => JSON.parse(m.text) as Json)
    .filter((r) => r.tokensIn !== undefined || r.tokensOut !== undefined)
    .map((r) => row(r.apiProtocol === 'openai' ? r.tokensIn : r.tokensIn + (r.cacheReads ?? 0) + (r.cacheWrites ?? 0), r.cacheReads, r.cacheWrites, r.tokensOut));
}

/** Cline 3.x: each assistant message's `metrics.tokens`; `prompt` is every input token, `cached` the hits among them. */
function clineMetrics(files: Fixture[]): Row[] {
  return (json(files[0]!) as unknown as Json[]).filter((m) => m.role === 'assistant' && m.metrics?.tokens).map((m) => row(m.metrics.tokens.prompt, m.metrics.tokens.cached, 0, m.metrics.tokens.completion));
}

/** OpenHands V0: each model response once (tool_call_metadata), else a message's newest llm_metrics entry. */
function openhands(files: Fixture[]): Row[] {
  const seen = new Map<string, Row>();
  const raw = json(files[0]!);
  for (const e of (Array.isArray(raw) ? raw : raw.events) as Json[]) {
    const mr = e.tool_call_metadata?.model_response;
    if (mr?.usage && !seen.has(mr.id)) seen.set(mr.id, chatRow(mr.usage));
    else if (!e.tool_call_metadata && e.action && e.llm_metrics?.token_usages?.length) {
      const last = e.llm_metrics.token_usages.at(-1);
      if (!seen.has(last.response_id)) seen.set(last.response_id, tokenUsageRow(last));
    }
  }
  return [...seen.values()];
}

/**
 * OpenHands SDK: each agent response in the order its events appear (a Condensation's response is the condenser's),
 * its usage the token_usages entry with that response_id (base_state.json or a benchmark record's metrics).
 */
function openhandsSdk(files: Fixture[]): Row[] {
  const fromConversation = (events: Json[], usages: Json[]): Row[] => {
    const byId = new Map(usages.map((u) => [u.response_id, u]));
    const ids = [...new Set(events.filter((e) => e.llm_response_id && e.kind !== 'Condensation' && e.source === 'agent').map((e) => e.llm_response_id as string))];
    return ids.filter((id) => byId.has(id)).map((id) => tokenUsageRow(byId.get(id)!));
  };
  const base = files.find((f) => f.name.endsWith('base_state.json'));
  if (base) {
    const metrics = Object.values(json(base).stats.usage_to_metrics as Record<string, Json>);
    const events = files.filter((f) => f !== base).sort((a, b) => a.name.localeCompare(b.name)).map(json);
    return fromConversation(events, metrics.flatMap((m) => m.token_usages as Json[]));
  }
  return files.flatMap(lines).flatMap((r) => fromConversation(r.history, r.metrics.token_usages));
}

/** Request and completion logs: each logged response's usage, by its field names; completion logs in time order. */
function requestLog(files: Fixture[]): Row[] {
  const logs = files.filter((f) => !f.name.endsWith('.jsonl')).map(json);
  const records = [...files.filter((f) => f.name.endsWith('.jsonl')).flatMap(lines), ...logs.sort((a, b) => a.timestamp - b.timestamp)];
  return records
    .map((r) => (r.response?.body && !r.response.usage ? r.response.body : r.response)?.usage)
    .filter((u): u is Json => !!u)
    .map(anyRow);
}

/** Every span of an OTLP JSON file (one request, or one per line), with its attributes as a plain object. */
function otlpSpans(f: Fixture): Json[] {
  const requests = f.name.endsWith('.jsonl') ? lines(f) : [json(f)];
  return requests
    .flatMap((r) => (r.resourceSpans as Json[]).flatMap((rs) => (rs.scopeSpans as Json[]).flatMap((ss) => ss.spans as Json[])))
    .map((s): Json => ({ ...s, a: Object.fromEntries((s.attributes as Json[]).map((kv) => [kv.key, Object.values(kv.value as Json)[0]])) }))
    .sort((x, y) => (BigInt(x.startTimeUnixNano) < BigInt(y.startTimeUnixNano) ? -1 : 1));
}
const num = (v: unknown): number | null => (v === undefined ? null : Number(v));

/** GenAI semantic conventions: chat spans; input_tokens is the whole prompt, the cache parts inside it. */
const otlpGenAi = (files: Fixture[]): Row[] =>
  otlpSpans(files[0]!)
    .filter((s) => s.a['gen_ai.operation.name'] === 'chat')
    .map((s) => row(num(s.a['gen_ai.usage.input_tokens']), num(s.a['gen_ai.usage.cache_read.input_tokens']), num(s.a['gen_ai.usage.cache_creation.input_tokens']), num(s.a['gen_ai.usage.output_tokens'])));
/** OpenLLMetry: chat request spans; the prompt is llm.usage.total_tokens − output. */
const otlpOpenLlmetry = (files: Fixture[]): Row[] =>
  otlpSpans(files[0]!)
    .filter((s) => s.a['llm.request.type'] === 'chat')
    .map((s) => row(Number(s.a['llm.usage.total_tokens']) - Number(s.a['gen_ai.usage.output_tokens']), num(s.a['gen_ai.usage.cache_read_input_tokens']), num(s.a['gen_ai.usage.cache_creation_input_tokens']), num(s.a['gen_ai.usage.output_tokens'])));
/** OpenInference: LLM spans but a summarizer's (inside the SummarizationMiddleware span); prompt = total − completion. */
function otlpOpenInference(files: Fixture[]): Row[] {
  const all = otlpSpans(files[0]!);
  const name = new Map(all.map((s) => [s.spanId, s.name as string]));
  return all
    .filter((s) => s.a['openinference.span.kind'] === 'LLM' && !/Summarization/.test(name.get(s.parentSpanId) ?? ''))
    .map((s) => row(Number(s.a['llm.token_count.total']) - Number(s.a['llm.token_count.completion']), num(s.a['llm.token_count.prompt_details.cache_read']), num(s.a['llm.token_count.prompt_details.cache_write']), num(s.a['llm.token_count.completion'])));
}

const TABLE: Record<FormatId, Entry[]> = {
  'claude-code': [{ files: ['claude-code-two-models.jsonl'], read: claudeCode }, { files: ['claude-code-cache-forensics.jsonl'], read: claudeCode }],
  codex: [
    { files: ['codex-rollout.jsonl'], read: codex },
    { files: ['codex-rollout-0.40.jsonl'], read: codex },
    { files: ['codex-rollout-0.142.jsonl'], read: codex },
    { files: ['codex-rollout-compaction-0.107.jsonl'], read: codex },
    { files: ['codex-exec-stream.jsonl'], read: codex },
  ],
  'swe-agent': [
    { files: ['swe-agent-division.traj'], read: 'none' },
    { files: ['swe-agent-0.7-demo.traj'], read: 'none' },
    { files: ['swe-agent-replay-demo.traj'], read: 'none' },
    { files: ['swe-agent-demonstration.traj'], read: 'none' },
  ],
  'mini-swe-agent': [{ files: ['mini-swe-agent-division.traj.json'], read: miniSweAgent }],
  atif: [{ files: ['atif-terminus-summarization.json'], read: atif }],
  'tau-bench': [{ files: ['tau-bench-airline.json'], read: 'none' }],
  inspect: [{ files: ['inspect-compaction.json'], read: inspect }],
  'gemini-cli': [
    { files: ['gemini-cli-session.jsonl'], read: geminiCli },
    { files: ['gemini-cli-session.json'], read: geminiCli },
    { files: ['gemini-cli-cache.jsonl'], read: geminiCli },
  ],
  cline: [
    { files: ['cline-api_conversation_history.json', 'cline-ui_messages.json', 'cline-task_metadata.json'], read: cline },
    { files: ['cline-metrics-api_conversation_history.json'], read: clineMetrics },
  ],
  openhands: [{ files: ['openhands-condensation.json'], read: openhands }],
  'openhands-sdk': [
    { files: ['openhands-sdk-conversation/7d3c2a9e4b1f4e8a9c552f6d0b1a8e31'], read: openhandsSdk },
    { files: ['openhands-sdk-restored/4e9b1c7a2d3f4a6b8c0d1e2f3a4b5c6d'], read: openhandsSdk },
    { files: ['openhands-sdk-eval-output.jsonl'], read: openhandsSdk },
    { files: ['openhands-sdk-events.jsonl'], read: 'none' },
  ],
  livekit: [{ files: ['livekit-session-report.json'], read: 'none' }],
  'openai-chat': [{ files: ['openai-chat-course.json'], read: 'none' }],
  'openai-responses': [{ files: ['openai-responses-request.json', 'openai-responses-response.json'], read: (f) => [responsesRow(json(f[1]!).usage)] }],
  anthropic: [{ files: ['anthropic-request.json', 'anthropic-response.json'], read: (f) => [anthropicRow(json(f[1]!).usage)] }],
  'self-sum': [{ files: ['self-sum-sciworld.json'], read: 'none' }],
  'agent-omit': [{ files: ['agent-omit-webshop.json'], read: 'none' }],
  sharegpt: [{ files: ['sharegpt-agentgym.json'], read: 'none' }],
  'reasoning-trace': [{ files: ['reasoning-trace-aime.json'], read: 'none' }],
  // A compaction log records compactions, not calls: read alone it makes no call and invents no usage.
  'compaction-log': [{ files: ['compaction-log-course.jsonl'], read: 'none', noCalls: true }],
  otlp: [
    { files: ['otlp-genai-pydantic-ai.json'], read: otlpGenAi },
    { files: ['otlp-genai-events.json'], read: otlpGenAi },
    { files: ['otlp-openllmetry-anthropic.jsonl'], read: otlpOpenLlmetry },
    { files: ['otlp-openinference-langgraph.json'], read: otlpOpenInference },
  ],
  'request-log': [
    { files: ['request-log-chat.jsonl'], read: requestLog },
    { files: ['request-log-mixed.jsonl'], read: requestLog },
    { files: ['request-log-cache-diagnostics.jsonl'], read: requestLog },
    { files: ['request-log-anthropic-compaction.jsonl'], read: requestLog },
    { files: ['request-log-responses-compaction.jsonl'], read: requestLog },
    {
      files: readdirSync(FIXTURES).filter((f) => f.startsWith('completion-log-')),
      read: requestLog,
    },
  ],
};

/** A fixture file, or every file of a fixture folder (named `<folder>/…` as a dropped folder is). */
function fixtureFiles(rel: string): Fixture[] {
  const folder = join(FOLDERS, rel);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) return [{ name: rel, text: readFileSync(join(FIXTURES, rel), 'utf8') }];
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  const top = rel.split('/').at(-1)!;
  return walk(folder)
    .sort()
    .map((p) => ({ name: `${top}/${relative(folder, p)}`, text: readFileSync(p, 'utf8') }));
}

/** What the engine reads per call, in call order, session after session. */
function engineRows(sessions: Session[]): { rows: Row[]; withoutUsage: number; undeclared: number } {
  const rows: Row[] = [];
  let withoutUsage = 0;
  let undeclared = 0;
  for (const s of sessions) {
    for (const c of sessionContexts(s).calls) {
      if (!c.usage) {
        withoutUsage++;
        continue;
      }
      if (c.usage.inputIncludesCache === undefined) undeclared++;
      rows.push(row(reportedPromptTokens(c), c.usage.cacheRead, c.usage.cacheWrite, c.usage.output));
    }
  }
  return { rows, withoutUsage, undeclared };
}

describe('usage cross-check: every format against an independent reading of its fixture', () => {
  it('has an entry for every adapter in the registry', () => {
    expect(ADAPTERS.map((a) => a.id).filter((id) => !(TABLE[id]?.length > 0))).toEqual([]);
  });

  describe.each(ADAPTERS.map((a) => a.id))('%s', (id) => {
    const entries = TABLE[id] ?? [];
    it.each(entries.map((e) => [e.files.join(' + '), e] as const))('%s', (_name, entry) => {
      const files = entry.files.flatMap(fixtureFiles);
      const { sessions } = loadFiles(files.map((f) => ({ name: f.name, bytes: new TextEncoder().encode(f.text) })));
      expect(sessions.length).toBeGreaterThan(0);
      expect(sessions.map((s) => s.format)).toEqual(sessions.map(() => id));
      const { rows, withoutUsage, undeclared } = engineRows(sessions);
      if (entry.read === 'none') {
        // No usage per call in the file: none is invented, for a call, a response or a sidechain.
        expect(rows).toEqual([]);
        expect(sessions.flatMap((s) => [...s.responses, ...s.sidechains.flatMap((c) => c.responses ?? [])]).filter((r) => r.usage !== null)).toEqual([]);
        expect(withoutUsage > 0).toBe(!entry.noCalls);
        return;
      }
      const expected = entry.read(files);
      expect(expected.length).toBeGreaterThan(0);
      expect(rows).toEqual(expected);
      // The adapter says whether its input holds the cache: the harness's convention, never a guess from the model.
      expect(undeclared).toBe(0);
    });
  });
});
