// ATIF, the Agent Trajectory Interchange Format (Harbor RFC 0001, ATIF-v1.0…v1.7; Harbor's terminus-2 and its
// converters for Claude Code, Codex, OpenHands, mini-swe-agent write it):
//   {schema_version: "ATIF-v1.x", session_id, agent: {name, version, model_name}, steps: [...], final_metrics}
// A step is {step_id, source: system|user|agent, message, reasoning_content?, tool_calls?: [{tool_call_id,
// function_name, arguments}], observation?: {results: [{source_call_id?, content?, subagent_trajectory_ref?}]},
// metrics?: {prompt_tokens, completion_tokens, cached_tokens, cost_usd}}. Every agent step is one model call;
// `prompt_tokens` counts cached tokens too (RFC, v1.2), as OpenAI usage does.
// A system step that hands the context off (terminus-2: "Performed context summarization and handoff…", with the
// summarizer subagents' trajectories referenced, and `extra.context_management` from v1.6) is a compaction: the
// task prompt before the first agent step stays (terminus-2 keeps the first message), everything after it up to
// the handoff leaves the context, and the user step that follows (the handoff prompt) is the summary.
import type { Document } from '../load/document';
import { arr, asText, get, isObject, num, obj, str, strAt, type JsonObject } from '../model/narrow';
import { textItem } from '../model/markers';
import type { CompactionEvent, Item, ModelResponse, Role, Session, Usage } from '../model/types';
import { cacheInsideUsage } from '../model/usage';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';

const SOURCES = new Map<string, Role>([
  ['system', 'system'],
  ['user', 'user'],
  ['agent', 'assistant'],
]);

function isCompactionStep(step: JsonObject): boolean {
  if (str(step, 'source') !== 'system') return false;
  const kind = strAt(step, 'extra.context_management.type');
  if (kind !== null) return kind === 'compaction';
  return /context summarization|compact/i.test(str(step, 'message') ?? '');
}

/** Usage from step metrics; `prompt_tokens` already includes `cached_tokens` (ATIF RFC, `metrics`). */
function usageOf(metrics: JsonObject | undefined): Usage | null {
  if (!metrics) return null;
  const usage = cacheInsideUsage(num(metrics, 'prompt_tokens') ?? null, num(metrics, 'completion_tokens') ?? null, num(metrics, 'cached_tokens') ?? null, null);
  return usage.input === null && usage.output === null ? null : usage;
}

export const atif: FormatAdapter = {
  id: 'atif',
  label: 'ATIF trajectory',
  sniff(doc: Document) {
    if (doc.kind !== 'json' || !isObject(doc.value)) return 0;
    const v = doc.value;
    const steps = arr(v, 'steps');
    if (!steps) return 0;
    if (/^ATIF-v/i.test(str(v, 'schema_version') ?? '')) return 0.98;
    const sample = steps.slice(0, 20);
    const ok = sample.filter((s) => isObject(s) && get(s, 'step_id') !== undefined && typeof get(s, 'source') === 'string').length;
    return sample.length > 0 && ok / sample.length >= 0.8 && isObject(get(v, 'agent')) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const root = doc.kind === 'json' && isObject(doc.value) ? doc.value : null;
    const steps = root ? arr(root, 'steps') : undefined;
    const session = emptySession('atif', ctx.file, idFromFile(ctx.file));
    if (!root || !steps) {
      ctx.error({ path: ['steps'] }, 'expected an ATIF trajectory: an object with a `steps` array');
      return [session];
    }
    const sid = str(root, 'session_id');
    if (sid) session.id = sid;
    const agent = obj(root, 'agent');
    session.model = (agent && str(agent, 'model_name')) ?? null;
    session.meta = metaOf(root, agent);
    readSteps(steps, session, ctx);
    return [session];
  },
};

function readSteps(steps: unknown[], session: Session, ctx: ParseContext): void {
  const source = { file: ctx.file, line: null };
  let prefixEnd = -1; // items before the first agent step: the task prompt, kept through compactions
  let pendingSummary: CompactionEvent | null = null;
  let lastPrompt: number | null = null;
  const ids = new Set<string>();
  steps.forEach((step, i) => {
    const at = ['steps', i];
    if (!isObject(step)) {
      ctx.error({ path: at }, `expected a step object, got ${step === null ? 'null' : Array.isArray(step) ? 'an array' : typeof step}`);
      return;
    }
    const raw = str(step, 'source');
    const role = raw === undefined ? undefined : SOURCES.get(raw);
    if (!role) {
      ctx.error({ path: [...at, 'source'] }, `unknown source ${JSON.stringify(get(step, 'source'))}; expected system, user or agent`);
      return;
    }
    let base = `s${num(step, 'step_id') ?? i + 1}`;
    for (let m = 2; ids.has(base); m++) base = `s${num(step, 'step_id') ?? i + 1}~${m}`;
    ids.add(base);
    const timestamp = str(step, 'timestamp');
    const ts = timestamp ? { timestamp } : {};
    const message = get(step, 'message');
    const text = typeof message === 'string' ? message : message == null ? '' : asText(message);

    if (isCompactionStep(step)) {
      const refs = (arr(obj(step, 'observation') ?? {}, 'results') ?? []).flatMap((r) => (isObject(r) ? (arr(r, 'subagent_trajectory_ref') ?? []) : []));
      const item: Item = { id: base, kind: 'compaction', role: 'system', text, source, ...ts, meta: { subagents: refs.length } };
      const sent = session.items.filter((it, k) => k > prefixEnd && it.kind !== 'compaction');
      const event: CompactionEvent = {
        id: `compaction-${session.compactions.length + 1}`,
        index: session.compactions.length,
        kind: 'summary',
        trigger: strAt(step, 'extra.context_management.type') ?? 'handoff',
        tokensBefore: lastPrompt,
        tokensAfter: null,
        replacedIds: sent.map((it) => it.id),
        keptIds: session.items.slice(0, prefixEnd + 1).map((it) => it.id),
        summaryId: null,
        atItemId: base,
        ...ts,
        source,
      };
      session.items.push(item);
      session.compactions.push(event);
      pendingSummary = event;
      return;
    }

    if (role !== 'assistant') {
      // The handoff prompt right after a compaction is what the next agent reads in place of the history.
      const item = textItem({ id: base, role, source, ...ts }, text);
      if (pendingSummary && role === 'user') {
        item.kind = 'summary';
        pendingSummary.summaryId = base;
      }
      session.items.push(item);
      pushResults(step, at, base, session, ctx, [], ts);
      if (session.responses.length === 0) prefixEnd = session.items.length - 1;
      return;
    }

    const out: Item[] = [];
    const reasoning = str(step, 'reasoning_content');
    if (reasoning) out.push({ id: `${base}.think`, kind: 'thinking', role: 'assistant', text: reasoning, source, ...ts });
    const calls = arr(step, 'tool_calls') ?? [];
    if (text || calls.length === 0) out.push({ ...textItem({ id: base, role: 'assistant', source, ...ts }, text) });
    const callIds: (string | null)[] = [];
    calls.forEach((c, j) => {
      if (!isObject(c)) {
        ctx.error({ path: [...at, 'tool_calls', j] }, 'expected a tool call object');
        callIds.push(null);
        return;
      }
      const name = str(c, 'function_name');
      if (!name) ctx.warn({ path: [...at, 'tool_calls', j, 'function_name'] }, 'tool call has no function_name');
      const callId = str(c, 'tool_call_id') ?? `${base}.call${j}`;
      callIds.push(callId);
      out.push({ id: `${base}.call${j}`, kind: 'tool_call', role: 'assistant', text: asText(get(c, 'arguments') ?? {}), callId, ...(name ? { name } : {}), source, ...ts });
    });
    const metrics = obj(step, 'metrics');
    const usage = usageOf(metrics);
    const responseId = `${base}.response`;
    for (const it of out) it.responseId = responseId;
    session.items.push(...out);
    const response: ModelResponse = { id: responseId, index: session.responses.length, itemIds: out.map((it) => it.id), usage, model: str(step, 'model_name') ?? session.model, ...ts, source };
    session.responses.push(response);
    if (pendingSummary && usage?.input != null) pendingSummary.tokensAfter = usage.input;
    pendingSummary = null;
    if (usage?.input != null) lastPrompt = usage.input;
    pushResults(step, at, base, session, ctx, callIds, ts);
  });
}

/**
 * Observation results: a result names its call (`source_call_id`), or pairs with the call at its position when
 * a step has as many results as calls; otherwise it is environment output the agent reads next.
 */
function pushResults(step: JsonObject, at: (string | number)[], base: string, session: Session, ctx: ParseContext, callIds: (string | null)[], ts: { timestamp?: string }): void {
  const observation = get(step, 'observation');
  if (observation === undefined || observation === null) return;
  const results = isObject(observation) ? arr(observation, 'results') : undefined;
  if (!results) {
    ctx.error({ path: [...at, 'observation'] }, 'expected `observation` to be {results: [...]}');
    return;
  }
  const byPosition = results.length === callIds.length;
  results.forEach((r, k) => {
    if (!isObject(r)) {
      ctx.error({ path: [...at, 'observation', 'results', k] }, 'expected an observation result object');
      return;
    }
    const content = get(r, 'content');
    if (content === undefined && get(r, 'subagent_trajectory_ref') !== undefined) return;
    const text = typeof content === 'string' ? content : content == null ? '' : asText(content);
    const callId = str(r, 'source_call_id') ?? (byPosition ? callIds[k] : null) ?? null;
    const source = { file: ctx.file, line: null };
    if (callId) session.items.push({ ...textItem({ id: `${base}.result${k}`, role: 'tool', callId, source, ...ts }, text), kind: 'tool_result' });
    else session.items.push(textItem({ id: `${base}.result${k}`, role: 'environment', source, ...ts }, text));
  });
}

function metaOf(root: JsonObject, agent: JsonObject | undefined): Session['meta'] {
  const meta: Session['meta'] = {};
  const version = str(root, 'schema_version');
  if (version) meta['schema_version'] = version;
  if (agent) {
    const name = str(agent, 'name');
    if (name) meta['agent'] = name;
    const v = str(agent, 'version');
    if (v) meta['agent_version'] = v;
  }
  const cost = num(obj(root, 'final_metrics') ?? {}, 'total_cost_usd');
  if (cost !== undefined) meta['total_cost_usd'] = cost;
  return meta;
}
