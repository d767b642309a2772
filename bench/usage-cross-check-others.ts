// The usage cross-check of bench/usage-cross-check.ts for the other harnesses' real session files: each file of
// usage-cross-check-others.json (public Codex CLI rollouts and Gemini CLI chats, mostly kept by Entire in its
// checkpoint branches; OpenHands V0 trajectories and an evaluation output, Cline task files, SWE-agent and
// mini-swe-agent trajectories) read the plain way — a few lines of JSON poking, no adapter code — against what the engine
// reads per call (`sessionContexts` + `reportedPromptTokens`, as src/formats/usage-cross-check.test.ts does on the
// fixtures). Prints per file the calls and the prompt / cache read / output totals each way, and what differs.
// `npx tsx bench/usage-cross-check-others.ts [--all] [--format <id>]` (needs the mirrors; --all: every file, not
// only those that differ; --format: that harness's files only). A file the mirror lacks is skipped.
import { readFileSync } from 'node:fs';
import { mirroredFile } from './mirrored-file';
import { sessionContexts } from '../src/analysis/session-analysis';
import { reportedPromptTokens } from '../src/cache/reported';
import { loadText } from '../src/load/loader';

interface Source {
  format: 'codex' | 'gemini-cli' | 'openhands' | 'cline' | 'swe-agent' | 'mini-swe-agent';
  repo: string;
  commit: string;
  path: string;
  /** The harness's version as the file states it (Codex `cli_version`, mini-swe-agent `info.mini_version`); null where the file has none. */
  version: string | null;
}

/** One call's usage: the whole prompt, the cache read, the output. */
interface Row {
  prompt: number;
  read: number;
  output: number;
}

const sum = (rows: Row[], k: keyof Row): number => rows.reduce((n, r) => n + r[k], 0);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a reader pokes into plain JSON

/**
 * Codex: each `token_count` event's `info.last_token_usage` that measured a call — input or output above 0 (the
 * all-zero ones codex-rs writes after a compaction or a context-window error measure none) and a cumulative
 * `total_token_usage` that moved (a repeated one is a copy). codex-rs `TokenUsage`: input_tokens count the cached ones.
 */
function codexPlain(text: string): { rows: Row[]; note: string | null } {
  const rows: Row[] = [];
  let lastTotal = '';
  let cumulative: Json | null = null;
  for (const line of text.split('\n')) {
    if (!line.includes('"token_count"')) continue;
    const r = JSON.parse(line) as Json;
    const info = r.type === 'event_msg' && r.payload?.type === 'token_count' ? r.payload.info : null;
    const u = info?.last_token_usage;
    if (info?.total_token_usage) cumulative = info.total_token_usage;
    if (!u || (!u.input_tokens && !u.output_tokens)) continue;
    // By its figures, not its text: 0.144 adds `cache_write_input_tokens: 0` to the copy after an interrupted turn.
    const t = info.total_token_usage ?? {};
    const total = [t.input_tokens, t.cached_input_tokens, t.output_tokens, t.total_tokens].join(',');
    if (total === lastTotal) continue;
    lastTotal = total;
    rows.push({ prompt: u.input_tokens, read: u.cached_input_tokens ?? 0, output: u.output_tokens });
  }
  // The file's own ledger: total_token_usage adds every last_token_usage, so the calls must sum to the last one.
  const off = cumulative && (['input_tokens', 'cached_input_tokens', 'output_tokens'] as const).filter((k, i) => cumulative![k] !== sum(rows, (['prompt', 'read', 'output'] as const)[i]!));
  return { rows, note: off && off.length ? `the calls do not sum to the file's last total_token_usage (${off.join(', ')}: ${off.map((k) => cumulative![k]).join(', ')})` : null };
}

/**
 * Gemini CLI: each `gemini` message's `tokens` (chatRecordingService `recordMessageTokens`: input is promptTokenCount,
 * which counts `cached`), the last record of an id winning in the JSONL form. Output + thoughts is what was generated.
 * A message whose figures are all 0 measured no call (no call reads an empty prompt), as Codex's all-zero counts.
 */
function geminiPlain(text: string): { rows: Row[]; note: string | null } {
  const trimmed = text.trimStart();
  const records: Json[] = trimmed.startsWith('{') && !trimmed.includes('\n{') ? (JSON.parse(text) as Json).messages ?? [] : text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
  const byId = new Map<string, Json>();
  for (const m of records) if (m.type === 'gemini' && m.tokens) byId.set(m.id, m.tokens);
  const tokens = [...byId.values()].filter((t) => t.input || t.output || t.cached || t.thoughts || t.tool);
  // The file's own arithmetic: total = input + output + thoughts + tool, so input is the whole prompt.
  const off = tokens.filter((t) => t.total !== t.input + t.output + (t.thoughts ?? 0) + (t.tool ?? 0)).length;
  return { rows: tokens.map((t) => ({ prompt: t.input, read: t.cached ?? 0, output: (t.output ?? 0) + (t.thoughts ?? 0) })), note: off ? `${off} calls whose total is not input + output + thoughts + tool` : null };
}

/**
 * OpenHands V0: an evaluation record's `metrics.token_usages` (one entry per completion, LiteLLM's figures), else each
 * event's `tool_call_metadata.model_response.usage`, once per response id (an action and its observation both carry
 * it). LiteLLM's `prompt_tokens` count Anthropic's cache reads and writes (`cache_creation_input_tokens` 3435 of 3439).
 */
function openhandsPlain(text: string): { rows: Row[]; note: string | null } {
  const t = text.trimStart();
  const records: Json[] = t.startsWith('[') ? [{ history: JSON.parse(text) }] : t.startsWith('{') && !t.includes('\n{') ? [JSON.parse(text)] : text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
  const rows: Row[] = [];
  for (const r of records) {
    const usages: Json[] | undefined = r.metrics?.token_usages;
    if (usages?.length) {
      for (const u of usages) rows.push({ prompt: u.prompt_tokens, read: u.cache_read_tokens ?? 0, output: u.completion_tokens });
      continue;
    }
    const seen = new Set<string>();
    for (const e of (r.history ?? r.trajectory ?? []) as Json[]) {
      const mr = e.tool_call_metadata?.model_response;
      if (!mr?.usage || seen.has(mr.id)) continue;
      seen.add(mr.id);
      const u = mr.usage;
      rows.push({ prompt: u.prompt_tokens, read: u.cache_read_input_tokens ?? u.prompt_tokens_details?.cached_tokens ?? 0, output: u.completion_tokens });
    }
  }
  return { rows, note: null };
}

/**
 * Cline providers whose `inputTokens` is the provider's whole prompt (`chunk.usage.prompt_tokens`), cache hits
 * included: cline/cline v3.59 src/core/api/providers/*.ts. The others (anthropic, cline, openrouter, gemini,
 * deepseek, openai-native, …) write the uncached rest, the cache as `cacheReads` / `cacheWrites` beside it.
 */
const CLINE_INCLUSIVE = new Set(['openai', 'litellm', 'lmstudio', 'ollama', 'fireworks', 'doubao', 'nebius', 'sambanova', 'qwen', 'qwen-code', 'mistral', 'cerebras', 'baseten', 'hicap', 'nousresearch', 'oca', 'dify', 'huawei-cloud-maas', 'asksage']);

/**
 * Cline / Roo Code: each finished `api_req_started` (Task writes `tokensIn` / `tokensOut` / `cacheWrites` /
 * `cacheReads` once the stream ends; one that failed before a reply, 0s with a `cancelReason`, is no call); the
 * prompt by the provider's convention above, or Roo's `apiProtocol`. Or, from an `api_conversation_history.json`,
 * each assistant message's `metrics.tokens` (Cline 3.x): `prompt` inclusive of `cached` on inclusive providers.
 */
function clinePlain(text: string): { rows: Row[]; note: string | null } {
  const list = JSON.parse(text) as Json[];
  const rows: Row[] = [];
  let unknownProviders = 0;
  for (const m of list) {
    const provider: string | undefined = m.modelInfo?.providerId;
    if (m.role === 'assistant') {
      const t = m.metrics?.tokens;
      // All 0: a reply cut off by an API error ("[Response interrupted by API Error]"), no usage reported.
      if (!t || (!t.prompt && !t.completion && !t.cached)) continue;
      const inclusive = provider !== undefined && CLINE_INCLUSIVE.has(provider);
      rows.push({ prompt: inclusive ? t.prompt : t.prompt + (t.cached ?? 0), read: inclusive ? (t.cached ?? 0) : 0, output: t.completion });
      continue;
    }
    if (m.say !== 'api_req_started' || typeof m.text !== 'string') continue;
    const r = JSON.parse(m.text) as Json;
    if (r.tokensIn === undefined && r.tokensOut === undefined) continue;
    if (!r.tokensIn && !r.tokensOut && (r.cancelReason !== undefined || r.streamingFailedMessage !== undefined)) continue;
    if (provider === undefined && r.apiProtocol === undefined) unknownProviders++;
    const inclusive = r.apiProtocol ? r.apiProtocol === 'openai' : provider !== undefined && CLINE_INCLUSIVE.has(provider);
    rows.push({ prompt: (r.tokensIn ?? 0) + (inclusive ? 0 : (r.cacheWrites ?? 0) + (r.cacheReads ?? 0)), read: r.cacheReads ?? 0, output: r.tokensOut ?? 0 });
  }
  return { rows, note: unknownProviders ? `${unknownProviders} requests name no provider (read as Anthropic's convention)` : null };
}

/**
 * SWE-agent records no usage per call: `info.model_stats` sums them (`tokens_sent` the prompts, `tokens_received`
 * the outputs, `api_calls` the calls). One row of totals, whose read is the call count.
 */
function sweAgentPlain(text: string): { rows: Row[]; note: string | null } {
  const s = (JSON.parse(text) as Json).info?.model_stats;
  return { rows: s ? [{ prompt: s.tokens_sent, read: s.api_calls, output: s.tokens_received }] : [], note: null };
}

/** mini-swe-agent: each assistant message's `extra.response.usage` (LiteLLM's chat usage: prompt holds cached). */
function miniSweAgentPlain(text: string): { rows: Row[]; note: string | null } {
  const d = JSON.parse(text) as Json;
  const rows: Row[] = [];
  for (const m of (Array.isArray(d) ? d : d.messages ?? []) as Json[]) {
    const u = m.role === 'assistant' ? m.extra?.response?.usage : null;
    if (u) rows.push({ prompt: u.prompt_tokens, read: u.prompt_tokens_details?.cached_tokens ?? 0, output: u.completion_tokens });
  }
  const stats = Array.isArray(d) ? null : d.info?.model_stats;
  return { rows, note: stats && stats.api_calls !== rows.length ? `info.model_stats.api_calls is ${stats.api_calls}, ${rows.length} messages have usage` : null };
}

const PLAIN: Record<Source['format'], (text: string) => { rows: Row[]; note: string | null }> = {
  codex: codexPlain,
  'gemini-cli': geminiPlain,
  openhands: openhandsPlain,
  cline: clinePlain,
  'swe-agent': sweAgentPlain,
  'mini-swe-agent': miniSweAgentPlain,
};

/**
 * Why a response the engine holds has no usage, from the lines after it: Codex records an interrupted call's items
 * but its token_count only repeats the last total (`turn_aborted` follows), and a file can end before a token_count.
 */
function whyNoUsage(lines: string[], from: number): string {
  for (let i = from; i < lines.length; i++) {
    if (lines[i]!.includes('turn_aborted')) return 'interrupted';
    if (i > from && lines[i]!.includes('"type":"response_item"') && lines[i]!.includes('"role":"user"')) return 'other';
  }
  return 'file ends';
}

function engineRows(path: string, text: string, format: string): { rows: Row[]; without: number; why: string[]; sessions: number } {
  const rows: Row[] = [];
  let without = 0;
  const lines = text.split('\n');
  const sessions = loadText(path, text).sessions.filter((s) => s.format === format);
  const why = sessions.flatMap((s) => s.responses.filter((r) => !r.usage && r.source?.line).map((r) => whyNoUsage(lines, r.source!.line! - 1)));
  for (const s of sessions) {
    const calls = sessionContexts(s).calls;
    // SWE-agent: the engine's totals (reportedTotals, from the same model_stats) and the calls it rebuilt.
    if (format === 'swe-agent') {
      const t = s.reportedTotals;
      if (t) rows.push({ prompt: t.promptTokens ?? 0, read: calls.length, output: t.outputTokens ?? 0 });
      continue;
    }
    for (const c of calls) {
      if (!c.usage) {
        without++;
        continue;
      }
      rows.push({ prompt: reportedPromptTokens(c) ?? 0, read: c.usage.cacheRead ?? 0, output: c.usage.output ?? 0 });
    }
  }
  return { rows, without, why, sessions: sessions.length };
}

const fmt = (rows: Row[]): string => `${rows.length} calls, prompt ${sum(rows, 'prompt')}, cache read ${sum(rows, 'read')}, output ${sum(rows, 'output')}`;
/** The first call (1-based) where the two readings part, or 0. */
function firstDifference(a: Row[], b: Row[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.prompt !== y.prompt || x.read !== y.read || x.output !== y.output) return i + 1;
  }
  return 0;
}

const sources = JSON.parse(readFileSync(new URL('./usage-cross-check-others.json', import.meta.url), 'utf8')) as Source[];
const all = process.argv.includes('--all');
const only = process.argv.includes('--format') ? process.argv[process.argv.indexOf('--format') + 1] : undefined;
const tally = new Map<string, { files: number; differ: number; notes: number; noUsage: Map<string, number>; plain: number; engine: number; repos: Set<string>; versions: Set<string> }>();
for (const f of sources) {
  if (only && f.format !== only) continue;
  const key = `${f.repo}@${f.commit.slice(0, 10)}:${f.path}`;
  const text = mirroredFile(f.repo, f.commit, f.path, key);
  if (text === null) continue;
  const { rows: plain, note } = PLAIN[f.format](text);
  const engine = engineRows(f.path, text, f.format);
  const at = firstDifference(plain, engine.rows);
  const t = tally.get(f.format) ?? { files: 0, differ: 0, notes: 0, noUsage: new Map(), plain: 0, engine: 0, repos: new Set(), versions: new Set() };
  tally.set(f.format, t);
  t.files++;
  t.plain += plain.length;
  t.engine += engine.rows.length;
  t.repos.add(f.repo);
  if (f.version) t.versions.add(f.version);
  if (at) t.differ++;
  if (note) t.notes++;
  for (const w of engine.why) t.noUsage.set(w, (t.noUsage.get(w) ?? 0) + 1);
  if (at || note || all) {
    console.log(`${f.format} ${key}${f.version ? ` v${f.version}` : ''}`);
    console.log(`  plain:  ${fmt(plain)}`);
    console.log(`  engine: ${fmt(engine.rows)}; ${engine.without} calls without usage${engine.why.length ? ` (${engine.why.join(', ')})` : ''}; ${engine.sessions} session(s)`);
    if (note) console.log(`  note: ${note}`);
    if (at) console.log(`  first difference at call ${at}: plain ${JSON.stringify(plain[at - 1] ?? null)}, engine ${JSON.stringify(engine.rows[at - 1] ?? null)}`);
  }
}
for (const [format, t] of tally) {
  console.log(`\n${format}: ${t.files} files of ${t.repos.size} repositories (versions ${[...t.versions].sort().join(', ') || 'unstated'}); ${t.differ} differ, ${t.notes} with a note; calls with usage ${t.plain} plain, ${t.engine} by the engine; engine calls without usage: ${[...t.noUsage].map(([w, n]) => `${n} ${w}`).join(', ') || 'none'}`);
}
