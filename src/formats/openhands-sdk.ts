// OpenHands SDK conversations (openhands-sdk / software-agent-sdk, the OpenHands of 2025–26): events tagged by
// `kind` — SystemPromptEvent, MessageEvent, ActionEvent, ObservationEvent, AgentErrorEvent, UserRejectObservation,
// Condensation {forgotten_event_ids, summary, summary_offset, llm_response_id}, CondensationRequest, … — and
// `base_state.json` with the agent's LLM settings and the usage of every model call
// (`stats.usage_to_metrics.<usage id>.token_usages[]`, keyed by the `llm_response_id` the events carry).
//
// A persisted conversation is a folder, one event per file. Each file parses to a part of the conversation
// (its events' items, its usage); `joinOpenHandsSdk` merges the parts of one conversation in event-file order.
// A document holding many events (a JSON array, `{items|events: […]}` from the agent server, JSONL) is merged
// here at once.
import type { Document } from '../load/document';
import { arr, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, ModelResponse, ParseIssue, Session, Usage } from '../model/types';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { mergeOpenHandsSdk, PART } from './openhands-sdk-join';
import { conversationFolderOf, conversationKey, eventFileNumber } from './openhands-sdk-files';
import { tokenUsageRecord } from './litellm-usage';

/** Event kinds the SDK writes; a document of these is this format. */
const KINDS = new Set([
  'SystemPromptEvent',
  'SystemPromptUpdateEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
  'Condensation',
  'CondensationRequest',
  'CondensationSummaryEvent',
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'PauseEvent',
  'TokenEvent',
  'LLMCompletionLogEvent',
  'StreamingDeltaEvent',
]);

function isSdkEvent(v: unknown): v is JsonObject {
  return isObject(v) && typeof get(v, 'kind') === 'string' && KINDS.has(get(v, 'kind') as string) && get(v, 'id') !== undefined;
}

/**
 * An event of a kind this reader does not know yet, in the SDK's shape (`kind` in PascalCase, an id, a source and a
 * timestamp, as every `Event` subclass serializes): counted, never a reason to refuse a conversation folder.
 */
function isSdkShapedEvent(v: unknown): v is JsonObject {
  if (!isObject(v) || get(v, 'id') === undefined) return false;
  const kind = get(v, 'kind');
  return typeof kind === 'string' && /^[A-Z][A-Za-z]+$/.test(kind) && typeof get(v, 'timestamp') === 'string' && typeof get(v, 'source') === 'string';
}

/**
 * A benchmarks `output.jsonl` record (OpenHands/benchmarks `EvalOutput`): `{instance_id, attempt, test_result,
 * instruction, metadata: {llm}, history: [SDK events], metrics: {token_usages}, error}`, one instance per line.
 */
function isEvalOutput(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof get(v, 'instance_id') !== 'string') return false;
  const history = arr(v, 'history');
  if (!history) return false;
  if (history.length === 0) return isObject(get(v, 'metrics')) || isObject(get(v, 'test_result'));
  const sample = history.slice(0, 20);
  return sample.filter(isSdkEvent).length / sample.length >= 0.8;
}

function isBaseState(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof get(v, 'id') !== 'string') return false;
  const agent = obj(v, 'agent');
  return !!agent && isObject(get(agent, 'llm')) && (get(v, 'stats') !== undefined || get(v, 'execution_status') !== undefined || get(v, 'persistence_dir') !== undefined);
}

interface EventRef {
  value: unknown;
  at: At;
}

/** The events of a document that holds many: a JSON array, `{items|events: […]}`, or JSONL. */
function eventListOf(doc: Document): EventRef[] | null {
  if (doc.kind === 'jsonl') {
    const sample = doc.records.slice(0, 20);
    if (sample.length === 0 || sample.filter((r) => isSdkEvent(r.value)).length / sample.length < 0.8) return null;
    return doc.records.map((r) => ({ value: r.value, at: { line: r.line } }));
  }
  const v = doc.value;
  let list: unknown[] | undefined;
  let prefix: (string | number)[] = [];
  if (Array.isArray(v)) list = v;
  else if (isObject(v)) {
    for (const key of ['items', 'events']) {
      const found = arr(v, key);
      if (found) {
        list = found;
        prefix = [key];
        break;
      }
    }
  }
  if (!list || list.length === 0) return null;
  const sample = list.slice(0, 20);
  if (sample.filter(isSdkEvent).length / sample.length < 0.8) return null;
  return list.map((value, i) => ({ value, at: { path: [...prefix, i] } }));
}

/** Text of SDK content: a string, or `[{type: "text", text}, {type: "image", image_urls}]`. */
export function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  const parts: string[] = [];
  for (const c of v) {
    if (!isObject(c)) continue;
    const text = str(c, 'text');
    if (text !== undefined) parts.push(text);
    else if (get(c, 'type') === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

function countSkipped(skipped: Record<string, number>, type: string): void {
  const key = type in Object.prototype ? `(${type})` : type;
  skipped[key] = (Object.prototype.hasOwnProperty.call(skipped, key) ? skipped[key]! : 0) + 1;
}

function idOf(v: JsonObject): string | null {
  const id = get(v, 'id');
  return typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : null;
}

/** Thinking the model showed: `reasoning_content`, else Anthropic thinking blocks. */
function reasoningText(v: JsonObject): string {
  const reasoning = str(v, 'reasoning_content');
  if (reasoning && reasoning.trim()) return reasoning;
  const blocks = arr(v, 'thinking_blocks') ?? [];
  return blocks
    .map((b) => (isObject(b) ? (str(b, 'thinking') ?? '') : ''))
    .filter((t) => t.trim())
    .join('\n');
}

/**
 * One event → the items the model is sent for it (ids: the event id, `.thought`/`.reasoning` for the parts an
 * action carries), plus what the merge needs: the compaction a Condensation records, the condensation request.
 */
function convertEvent(value: unknown, at: At, session: Session, ctx: ParseContext): void {
  const sub = (...keys: (string | number)[]): At => ({ ...at, path: [...(at.path ?? []), ...keys] });
  if (!isObject(value)) {
    ctx.error(at, `expected an OpenHands SDK event object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
    return;
  }
  const kind = str(value, 'kind');
  const id = idOf(value);
  if (kind === undefined || id === null) {
    ctx.error(kind === undefined ? sub('kind') : sub('id'), kind === undefined ? 'an OpenHands SDK event needs a `kind`' : `${kind} has no \`id\``);
    return;
  }
  const source = { file: ctx.file, line: at.line ?? null };
  const timestamp = str(value, 'timestamp');
  type Meta = NonNullable<Item['meta']>;
  // Every item gets its own meta object, naming the event it came from (the merge reads it).
  const at0 = { source, ...(timestamp ? { timestamp } : {}) };
  const meta = (extra: Meta = {}): Meta => ({ event: id, ...extra });
  const items: Item[] = [];
  const responseId = str(value, 'llm_response_id');

  switch (kind) {
    case 'SystemPromptEvent':
    case 'SystemPromptUpdateEvent': {
      const prompt = get(value, 'system_prompt');
      const dynamic = get(value, 'dynamic_context');
      const text = [isObject(prompt) ? (str(prompt, 'text') ?? '') : contentText(prompt), isObject(dynamic) ? (str(dynamic, 'text') ?? '') : ''].filter((t) => t).join('\n\n');
      const tools = arr(value, 'tools') ?? [];
      // An update (a conversation restored with other tools or another prompt) replaces the system message the
      // model is sent from here on: the SDK keeps only the latest system prompt event. The merge names the one it replaces.
      const update: Meta = kind === 'SystemPromptUpdateEvent' ? { systemPromptUpdate: str(value, 'reason') ?? 'updated' } : {};
      items.push({ ...at0, id, kind: 'message', role: 'system', text, meta: meta({ tools: tools.length, ...update }) });
      break;
    }
    case 'MessageEvent': {
      const message = obj(value, 'llm_message');
      if (!message) {
        ctx.error(sub('llm_message'), 'MessageEvent has no `llm_message`');
        break;
      }
      const role = str(message, 'role');
      const thinking = reasoningText(message);
      if (thinking) items.push({ ...at0, id: `${id}.reasoning`, kind: 'thinking', role: 'assistant', text: thinking, meta: meta() });
      const extended = contentText(get(value, 'extended_content'));
      const text = [contentText(get(message, 'content')), extended].filter((t) => t).join('\n');
      items.push({ ...at0, id, kind: 'message', role: role === 'assistant' ? 'assistant' : role === 'system' ? 'system' : 'user', text, meta: meta() });
      break;
    }
    case 'ActionEvent': {
      const thinking = reasoningText(value);
      if (thinking) items.push({ ...at0, id: `${id}.reasoning`, kind: 'thinking', role: 'assistant', text: thinking, meta: meta() });
      const thought = contentText(get(value, 'thought'));
      if (thought.trim()) items.push({ ...at0, id: `${id}.thought`, kind: 'message', role: 'assistant', text: thought, meta: meta() });
      const call = obj(value, 'tool_call');
      const name = str(value, 'tool_name') ?? (call && str(call, 'name')) ?? 'tool';
      const callId = str(value, 'tool_call_id') ?? (call && str(call, 'id')) ?? id;
      const args = call ? get(call, 'arguments') : undefined;
      const action = obj(value, 'action');
      const text = typeof args === 'string' ? args : args !== undefined ? JSON.stringify(args) : action ? JSON.stringify(action) : '';
      const actionKind = action && str(action, 'kind');
      items.push({ ...at0, id, kind: 'tool_call', role: 'assistant', text, name, callId, meta: meta(actionKind ? { action: actionKind } : {}) });
      break;
    }
    case 'ObservationEvent':
    case 'AgentErrorEvent':
    case 'UserRejectObservation': {
      const callId = str(value, 'tool_call_id');
      const name = str(value, 'tool_name');
      const facts = meta({ observation: kind });
      let text: string;
      let isError = false;
      if (kind === 'ObservationEvent') {
        const observation = obj(value, 'observation');
        if (!observation) ctx.warn(sub('observation'), 'ObservationEvent has no `observation` object');
        text = [contentText(observation ? get(observation, 'content') : undefined), contentText(get(value, 'extended_content'))].filter((t) => t).join('\n');
        const observationKind = observation && str(observation, 'kind');
        if (observationKind) facts['observation'] = observationKind;
        const exit = observation ? num(observation, 'exit_code') : undefined;
        if (exit !== undefined && exit !== -1) facts['exitCode'] = exit;
        isError = (observation && get(observation, 'is_error') === true) || (exit !== undefined && exit > 0);
      } else if (kind === 'AgentErrorEvent') {
        text = str(value, 'error') ?? '';
        isError = true;
      } else {
        // What the SDK sends the model for a rejected action.
        text = `Action rejected: ${str(value, 'rejection_reason') ?? 'User rejected the action'}`;
        isError = true;
      }
      const item: Item = { ...at0, id, kind: 'tool_result', role: 'tool', text, meta: facts };
      if (callId) item.callId = callId;
      else ctx.warn(sub('tool_call_id'), `${kind} names no tool_call_id, so it answers no tool call`);
      if (name) item.name = name;
      if (isError) item.isError = true;
      items.push(item);
      break;
    }
    case 'Condensation': {
      const listed = get(value, 'forgotten_event_ids');
      const forgotten: string[] = [];
      if (Array.isArray(listed)) {
        for (const f of listed) if (typeof f === 'string' || typeof f === 'number') forgotten.push(String(f));
      } else ctx.warn(sub('forgotten_event_ids'), 'Condensation has no forgotten_event_ids list');
      const summary = get(value, 'summary');
      const offset = num(value, 'summary_offset');
      // The SDK never stores the summary event: it derives it, with this id, and sends it as a user message at
      // summary_offset. Without an offset it sends no summary; the marker then keeps the text.
      const summaryId = typeof summary === 'string' && offset !== undefined ? `${id}-summary` : null;
      const kept = typeof summary === 'string' && !summaryId ? summary : '';
      items.push({ ...at0, id, kind: 'compaction', role: 'system', text: kept, name: 'condensation', meta: meta({ forgottenEvents: forgotten.length }) });
      if (summaryId) items.push({ ...at0, id: summaryId, kind: 'summary', role: 'user', text: summary as string, meta: meta({ summaryOffset: offset ?? null }) });
      const c: CompactionEvent = {
        id: `c${session.compactions.length}`,
        index: session.compactions.length,
        kind: 'condensation',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        // Event ids here; the merge turns them into the ids of those events' items.
        replacedIds: forgotten,
        keptIds: [],
        summaryId,
        atItemId: id,
        source,
        ...(timestamp ? { timestamp } : {}),
      };
      session.compactions.push(c);
      break;
    }
    case 'CondensationSummaryEvent':
      items.push({ ...at0, id, kind: 'summary', role: 'user', text: str(value, 'summary') ?? '', meta: meta() });
      break;
    case 'CondensationRequest':
      session.meta[PART.request] = str(value, 'reason') ?? 'request';
      countSkipped(session.skipped, kind);
      break;
    default:
      countSkipped(session.skipped, kind);
  }
  if (items.length === 0) return;
  // Only what the agent's model wrote belongs to its call; a Condensation's response is the condenser's.
  if (responseId && kind !== 'Condensation') {
    for (const it of items) if (it.role === 'assistant') it.responseId = responseId;
    const produced = items.filter((it) => it.role === 'assistant').map((it) => it.id);
    if (produced.length) {
      const r: ModelResponse = { id: responseId, index: session.responses.length, itemIds: produced, usage: null, model: null, source, ...(timestamp ? { timestamp } : {}) };
      session.responses.push(r);
    }
  }
  session.items.push(...items);
}

/** base_state.json: the conversation's id, its agent's model, and every call's usage as responses without items. */
function parseBaseState(v: JsonObject, session: Session, ctx: ParseContext): void {
  const llm = obj(obj(v, 'agent') ?? {}, 'llm') ?? {};
  session.model = str(llm, 'model') ?? null;
  session.contextWindow = num(llm, 'max_input_tokens') ?? null;
  const agentKind = str(obj(v, 'agent') ?? {}, 'kind');
  if (agentKind) session.meta['agentKind'] = agentKind;
  const status = str(v, 'execution_status');
  if (status) session.meta['executionStatus'] = status;
  const metrics = obj(obj(v, 'stats') ?? {}, 'usage_to_metrics');
  if (!metrics) return;
  for (const [usageId, m] of Object.entries(metrics)) {
    const usages = isObject(m) ? arr(m, 'token_usages') : undefined;
    if (!usages) continue;
    usages.forEach((u, i) => {
      if (!isObject(u)) return;
      const rid = str(u, 'response_id');
      if (!rid) {
        ctx.warn({ path: ['stats', 'usage_to_metrics', usageId, 'token_usages', i, 'response_id'] }, 'token usage without a response_id: no call to attach it to');
        return;
      }
      const model = str(u, 'model') ?? session.model;
      session.responses.push({ id: rid, index: session.responses.length, itemIds: [], usage: tokenUsageRecord(u), model, source: { file: ctx.file, line: null } });
    });
  }
}

/** The records of a benchmarks output: one JSON record, or JSONL with one per line. */
function evalOutputsOf(doc: Document): EventRef[] | null {
  if (doc.kind === 'json') return isEvalOutput(doc.value) ? [{ value: doc.value, at: { path: [] } }] : null;
  const sample = doc.records.slice(0, 5);
  if (sample.length === 0 || !sample.every((r) => isEvalOutput(r.value))) return null;
  return doc.records.map((r) => ({ value: r.value, at: { line: r.line } }));
}

/**
 * One `EvalOutput` record as a session: its `history` events merged as a conversation's are, its
 * `metrics.token_usages` (LiteLLM's figures per `response_id`) as the calls' usage, the model from `metadata.llm`.
 */
function parseEvalOutput(v: unknown, at: At, ctx: ParseContext): Session {
  const sub = (...keys: (string | number)[]): At => ({ ...at, path: [...(at.path ?? []), ...keys] });
  const record = v as JsonObject;
  const instance = str(record, 'instance_id')!;
  const attempt = num(record, 'attempt') ?? 1;
  const base = emptySession('openhands-sdk', ctx.file, instance);
  base.meta[PART.kind] = 'base_state';
  const llm = obj(obj(record, 'metadata') ?? {}, 'llm') ?? {};
  base.model = str(llm, 'model') ?? null;
  base.contextWindow = num(llm, 'max_input_tokens') ?? null;
  (arr(obj(record, 'metrics') ?? {}, 'token_usages') ?? []).forEach((u, i) => {
    const rid = isObject(u) ? str(u, 'response_id') : undefined;
    if (!isObject(u) || !rid) {
      ctx.warn(sub('metrics', 'token_usages', i, 'response_id'), 'token usage without a response_id: no call to attach it to');
      return;
    }
    base.responses.push({ id: rid, index: base.responses.length, itemIds: [], usage: tokenUsageRecord(u), model: str(u, 'model') ?? base.model, source: { file: ctx.file, line: at.line ?? null } });
  });
  const parts = (arr(record, 'history') ?? []).map((value, i) => {
    const part = emptySession('openhands-sdk', ctx.file, instance);
    part.meta[PART.kind] = 'event';
    convertEvent(value, sub('history', i), part, ctx);
    return part;
  });
  const found: ParseIssue[] = [];
  const merged = mergeOpenHandsSdk([base, ...parts], found);
  ctx.issues.push(...found);
  merged.issues = [];
  merged.id = attempt > 1 ? `${instance}#${attempt}` : instance;
  merged.title = merged.id;
  // Each record is a conversation of its own: loading it beside others never joins it to them.
  merged.meta[PART.conversation] = conversationKey(`${ctx.file}#${merged.id}`);
  merged.meta['instanceId'] = instance;
  if (attempt > 1) merged.meta['attempt'] = attempt;
  const error = str(record, 'error');
  if (error) merged.meta['error'] = error.slice(0, 300);
  const instruction = str(record, 'instruction');
  if (instruction && merged.items.length === 0) ctx.warn(sub('history'), 'the record has an instruction but no history events: nothing to show');
  return merged;
}

export const openhandsSdk: FormatAdapter = {
  id: 'openhands-sdk',
  label: 'OpenHands SDK conversation',
  sniff(doc: Document) {
    if (doc.kind === 'json' && (isSdkEvent(doc.value) || isBaseState(doc.value) || isEvalOutput(doc.value))) return 0.95;
    if (evalOutputsOf(doc)) return 0.95;
    if (eventListOf(doc)) return 0.95;
    // An event file of a kind this reader does not know: read (and counted) rather than refused.
    return doc.kind === 'json' && isSdkShapedEvent(doc.value) ? 0.7 : 0;
  },
  parse(doc, ctx) {
    const fileId = idFromFile(ctx.file);
    const session = emptySession('openhands-sdk', ctx.file, fileId);
    const folder = conversationFolderOf(ctx.file);
    if (folder) session.meta[PART.conversation] = conversationKey(folder);
    if (doc.kind === 'json' && isBaseState(doc.value)) {
      const id = str(doc.value, 'id')!;
      session.id = id;
      session.meta[PART.kind] = 'base_state';
      session.meta[PART.conversation] = conversationKey(id);
      parseBaseState(doc.value, session, ctx);
      return [session];
    }
    const outputs = evalOutputsOf(doc);
    if (outputs) return outputs.map((r) => parseEvalOutput(r.value, r.at, ctx));
    if (doc.kind === 'json' && (isSdkEvent(doc.value) || isSdkShapedEvent(doc.value))) {
      session.meta[PART.kind] = 'event';
      const seq = eventFileNumber(ctx.file);
      if (seq !== null) session.meta[PART.seq] = seq;
      convertEvent(doc.value, { path: [] }, session, ctx);
      return [session];
    }
    const events = eventListOf(doc);
    if (!events) {
      ctx.error(doc.kind === 'json' ? { path: [] } : { line: doc.records[0]?.line ?? null }, 'expected OpenHands SDK events (objects with a `kind` such as MessageEvent or ActionEvent) or a base_state.json');
      return [session];
    }
    // Many events in one document: each is a part, merged here in document order.
    const parts = events.map(({ value, at }) => {
      const part = emptySession('openhands-sdk', ctx.file, fileId);
      part.meta[PART.kind] = 'event';
      convertEvent(value, at, part, ctx);
      return part;
    });
    const found: ParseIssue[] = [];
    const merged = mergeOpenHandsSdk(parts, found);
    // Its warnings reach the session through the context, like every other problem of this file.
    ctx.issues.push(...found);
    merged.issues = [];
    merged.id = fileId;
    const wrapperId = doc.kind === 'json' && isObject(doc.value) ? str(doc.value, 'id') : undefined;
    if (wrapperId) {
      merged.id = wrapperId;
      merged.meta[PART.conversation] = conversationKey(wrapperId);
    } else if (folder) merged.meta[PART.conversation] = conversationKey(folder);
    return [merged];
  },
};
