// SWE-agent `.traj` files (SWE-agent 1.x, `DefaultAgent.save_trajectory`):
//   {trajectory: [{action, observation, response, thought, execution_time, state, query, extra_info}],
//    history: [...], info: {model_stats: {instance_cost, tokens_sent, tokens_received, api_calls}, exit_status,
//    submission, swe_agent_version, …}, replay_config: "<json>", environment}
// Each step's `query` is the exact message list that call was sent, after SWE-agent's history processors ran, so
// every step is a recorded request. LastNObservations writes "Old environment output: (N lines omitted)" in
// place of old observations; those become placeholders and the observations they replace show as masked.
// Steps without a query (an autosubmission after an error) made no model call and are counted, not shown.
// Files from SWE-agent 0.x record no query: their `history` is read as one transcript instead. A demonstration
// (`{history, replay_config?}`: what `run_traj_to_demo` writes and `agents.py` reads as `["history"]`) has no
// `trajectory` at all; its history is read the same way.
import type { Document } from '../load/document';
import { arr, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { Item, Session } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { addChatCalls, type ChatCall } from './chat-calls';
import { chatMessagesToItems } from './openai-chat';

const ELIDED = /^\s*(?:OBSERVATION:\s*)?(Old environment output: \(\d+ lines omitted\)|Outdated window with \d+ lines omitted)/;

/** SWE-agent's own placeholders for observations its history processors cut. */
export function markSweAgentPlaceholder(it: Item): void {
  if (it.kind !== 'message' && it.kind !== 'tool_result') return;
  const m = ELIDED.exec(it.text);
  if (m) it.omission = { target: 'observation', refs: [], marker: m[1]! };
}

/** A history entry with SWE-agent's own bookkeeping (`message_type`, or `agent` naming the agent that wrote it). */
function isHistoryEntry(v: unknown): boolean {
  return isObject(v) && typeof get(v, 'role') === 'string' && (typeof get(v, 'message_type') === 'string' || typeof get(v, 'agent') === 'string');
}

function isStep(v: unknown): v is JsonObject {
  return isObject(v) && (get(v, 'query') !== undefined || (typeof get(v, 'response') === 'string' && typeof get(v, 'thought') === 'string'));
}

/**
 * A SWE-agent message in Chat Completions shape: `tool_call_ids` (a list) becomes `tool_call_id`, and the
 * bookkeeping fields (agent, message_type, thought, action, cache_control) are left out.
 */
function chatMessage(m: unknown): unknown {
  if (!isObject(m)) return m;
  const out: Record<string, unknown> = { role: get(m, 'role'), content: get(m, 'content') ?? '' };
  const calls = arr(m, 'tool_calls');
  if (calls && calls.length > 0) out['tool_calls'] = calls;
  const callIds = arr(m, 'tool_call_ids');
  if (typeof callIds?.[0] === 'string') out['tool_call_id'] = callIds[0];
  const reasoning = str(m, 'reasoning_content');
  if (reasoning) out['reasoning_content'] = reasoning;
  return out;
}

/** The model named in the replay config (a JSON string SWE-agent stores beside the trajectory). */
function modelOf(root: JsonObject): string | null {
  const replay = str(root, 'replay_config');
  if (!replay) return null;
  try {
    const cfg: unknown = JSON.parse(replay);
    const name = isObject(cfg) ? get(obj(obj(cfg, 'agent') ?? {}, 'model') ?? {}, 'name') : undefined;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * `info.model_stats`: totals for the whole run, the only usage SWE-agent records (no usage per call). `tokens_sent`
 * adds up each call's prompt tokens as the provider reported them (0.x `update_stats(response.usage.prompt_tokens,
 * …)`; 1.x the same from litellm), so it checks the calls read here.
 */
function totalsOf(root: JsonObject): Session['reportedTotals'] {
  const stats = obj(obj(root, 'info') ?? {}, 'model_stats');
  if (!stats) return undefined;
  const prompt = num(stats, 'tokens_sent') ?? null;
  const calls = num(stats, 'api_calls') ?? null;
  if (prompt === null && calls === null) return undefined;
  // No provider call sends 0 tokens: `tokens_sent` 0 means no model that counts tokens ran (a demonstration or
  // replay: SWE-agent's replay and human models count `api_calls` but no tokens), so there is nothing to check.
  if (prompt === 0) return undefined;
  return { promptTokens: prompt, outputTokens: num(stats, 'tokens_received') ?? null, calls, source: "SWE-agent's info.model_stats" };
}

function metaOf(root: JsonObject): Session['meta'] {
  const meta: Session['meta'] = {};
  const info = obj(root, 'info');
  if (!info) return meta;
  const stats = obj(info, 'model_stats');
  if (stats) {
    // Totals for the whole run: SWE-agent records no usage per call.
    for (const key of ['tokens_sent', 'tokens_received', 'api_calls', 'instance_cost'] as const) {
      const v = num(stats, key);
      if (v !== undefined) meta[key] = v;
    }
  }
  const exit = str(info, 'exit_status');
  if (exit) meta['exit_status'] = exit;
  const version = str(info, 'swe_agent_version');
  if (version) meta['swe_agent_version'] = version;
  const submission = get(info, 'submission');
  if (typeof submission === 'string') meta['submitted'] = submission.trim().length > 0;
  return meta;
}

export const sweAgent: FormatAdapter = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  // The steps carry `action` and `observation` like OpenHands events; the query/response fields are SWE-agent's.
  refines: ['openhands'],
  sniff(doc: Document) {
    if (doc.kind !== 'json' || !isObject(doc.value)) return 0;
    const steps = arr(doc.value, 'trajectory');
    if (!steps) {
      const history = arr(doc.value, 'history');
      return history && history.length > 0 && history.slice(0, 20).every(isHistoryEntry) ? 0.9 : 0;
    }
    if (steps.length === 0) return arr(doc.value, 'history') && obj(doc.value, 'info') ? 0.9 : 0;
    const sample = steps.slice(0, 20);
    const ok = sample.filter(isStep).length / sample.length;
    return ok >= 0.8 ? 0.97 : 0;
  },
  parse(doc, ctx) {
    const root = doc.kind === 'json' && isObject(doc.value) ? doc.value : null;
    const session = emptySession('swe-agent', ctx.file, idFromFile(ctx.file));
    const steps = root ? arr(root, 'trajectory') : undefined;
    if (root && !steps && arr(root, 'history')) {
      ctx.warn({ path: ['history'] }, 'a SWE-agent demonstration: the history alone, with no steps and no usage; contexts are rebuilt from it');
      session.model = modelOf(root);
      readHistory(root, session, ctx, false);
      return [session];
    }
    if (!root || !steps) {
      ctx.error({ path: ['trajectory'] }, 'expected a SWE-agent trajectory: an object with a `trajectory` array of steps');
      return [session];
    }
    session.meta = metaOf(root);
    const totals = totalsOf(root);
    if (totals) session.reportedTotals = totals;
    session.model = modelOf(root);
    const calls: ChatCall[] = [];
    steps.forEach((step, i) => {
      const at = ['trajectory', i];
      if (!isObject(step)) {
        ctx.error({ path: at }, `expected a step object, got ${step === null ? 'null' : Array.isArray(step) ? 'an array' : typeof step}`);
        return;
      }
      const query = get(step, 'query');
      const messages = Array.isArray(query) ? query.filter((m) => !(isObject(m) && Object.keys(m).length === 0)) : null;
      if (!messages || messages.length === 0) {
        if (query !== undefined && !Array.isArray(query)) ctx.error({ path: [...at, 'query'] }, 'expected `query` to be the list of messages the call was sent');
        session.skipped['step without a model call'] = (session.skipped['step without a model call'] ?? 0) + 1;
        return;
      }
      const response = str(step, 'response') ?? '';
      const reasoning = str(step, 'reasoning_content');
      calls.push({
        id: `step${i + 1}`,
        messages: messages.map(chatMessage),
        at: (k) => ({ path: [...at, 'query', k] }),
        output: [{ role: 'assistant', content: response, ...(reasoning ? { reasoning_content: reasoning } : {}) }],
        outputAt: () => ({ path: [...at, 'response'] }),
        usage: null,
        model: session.model,
        line: null,
      });
    });
    if (calls.length > 0) {
      addChatCalls(session, calls, ctx, markSweAgentPlaceholder);
    } else {
      // 0.x: no step records a query, yet each made a call; the history is read instead.
      delete session.skipped['step without a model call'];
      readHistory(root, session, ctx);
    }
    return [session];
  },
};

/**
 * SWE-agent 0.x: no per-call query, so the history is the transcript and contexts are replayed from it. The
 * demonstration (`is_demo: true`, one user message or, with `put_demos_in_history`, the demo's own turns) is part of
 * the history every call was sent (`local_history` → `history_to_messages` keeps every entry): it stays in.
 */
function readHistory(root: JsonObject, session: Session, ctx: ParseContext, hasSteps = true): void {
  const history = arr(root, 'history');
  if (!history || history.length === 0) {
    ctx.warn({ path: ['trajectory'] }, 'no step records the messages it sent (`query`) and there is no `history`: no model calls to show');
    return;
  }
  if (hasSteps) ctx.warn({ path: ['trajectory'] }, 'the steps record no `query`; contexts are rebuilt from `history`, without the history processors SWE-agent applied');
  // Each run of assistant output is one call (src/analysis/calls.ts), as the history records no responses; a demo's
  // own assistant turns (put_demos_in_history) were sent, not generated, so they are shown as user text.
  const messages = history.map((m) => (isObject(m) && get(m, 'is_demo') === true && get(m, 'role') === 'assistant' ? { ...m, role: 'user' } : m));
  session.items = chatMessagesToItems(messages.map(chatMessage), ctx, (i) => ({ path: ['history', i] }), 'h');
  if (hasSteps) session.items.push(...unsavedSteps(root, messages, ctx));
  const demos = new Set(history.flatMap((m, i) => (isObject(m) && get(m, 'is_demo') === true ? [`h${i}`] : [])));
  for (const it of session.items) if (demos.has(it.id.split('.')[0]!)) it.meta = { ...it.meta, demonstration: true };
}

/**
 * The steps the history does not hold: SWE-agent can save the trajectory with its last step (the `submit`) in
 * `trajectory` and not yet in `history` (SWE-agent/SWE-agent's test trajectories: 5 steps, 4 assistant messages in the
 * history, `api_calls` 5). Each step past the history's assistant turns was a call: its response is the reply, and
 * its observation, when a later step follows, what that step was sent.
 */
function unsavedSteps(root: JsonObject, messages: readonly unknown[], ctx: ParseContext): Item[] {
  const steps = arr(root, 'trajectory') ?? [];
  const answered = messages.filter((m) => isObject(m) && get(m, 'role') === 'assistant').length;
  const out: unknown[] = [];
  const paths: (string | number)[][] = [];
  for (let i = answered; i < steps.length; i++) {
    const step = steps[i];
    if (!isObject(step)) continue;
    const response = str(step, 'response');
    if (response === undefined) continue;
    out.push({ role: 'assistant', content: response });
    paths.push(['trajectory', i, 'response']);
    const observation = str(step, 'observation');
    if (observation !== undefined && i + 1 < steps.length) {
      out.push({ role: 'user', content: observation });
      paths.push(['trajectory', i, 'observation']);
    }
  }
  return out.length === 0 ? [] : chatMessagesToItems(out, ctx, (k) => ({ path: paths[k]! }), 't');
}
