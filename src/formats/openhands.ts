// OpenHands event streams: a trajectory export (a JSON array of events, or `{events|trajectory|history: […]}`),
// events one per JSONL line, or evaluation output JSONL (one `{instance_id, history: […]}` per line).
//
// Event: {id, timestamp, source: user|agent|environment, message, cause?, action + args | observation + content
// + extras, tool_call_metadata?: {function_name, tool_call_id, model_response: {id, model, choices, usage}},
// llm_metrics?}. Actions become messages, thinking or tool calls; observations become tool results
// answering their `cause`. A `condensation` action {forgotten_event_ids | forgotten_events_start_id..end_id,
// summary, summary_offset} becomes a condensation compaction; its summary is what the agent reads next,
// as a user message, until a newer condensation's summary takes its place.
import type { Document } from '../load/document';
import { arr, get, isObject, num, numAt, obj, path, str, strAt, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, ModelResponse, Role, Session, Usage } from '../model/types';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { countKey, setOwn } from '../model/dictionary';
import { pushAll } from '../model/arrays';
import { chatUsage, tokenUsageRecord } from './litellm-usage';

interface EventRef {
  value: unknown;
  at: At;
}

interface Stream {
  events: EventRef[];
  id: string | null;
}

/** Observations and actions that carry no conversation: counted, not shown. */
const SKIPPED_ACTIONS = new Set(['change_agent_state', 'null', 'recall', 'condensation_request']);
const SKIPPED_OBSERVATIONS = new Set(['agent_state_changed', 'null', 'recall', 'agent_condensation']);
/** Action args that are bookkeeping, not tool input. */
const NOISE_ARGS = new Set(['thought', 'blocking', 'hidden', 'is_input', 'confirmation_state', 'security_risk', 'impl_source', 'is_static', 'cwd', 'include_extra', 'wait_for_response', 'image_urls', 'file_urls']);

function isEvent(v: unknown): v is JsonObject {
  return isObject(v) && (typeof get(v, 'action') === 'string' || typeof get(v, 'observation') === 'string');
}

function listOf(value: unknown): { list: unknown[]; key: string | null } | null {
  if (Array.isArray(value)) return { list: value, key: null };
  if (!isObject(value)) return null;
  for (const key of ['events', 'trajectory', 'history']) {
    const list = arr(value, key);
    if (list) return { list, key };
  }
  return null;
}

function mostlyEvents(list: unknown[]): boolean {
  const sample = list.slice(0, 20);
  return sample.length > 0 && sample.filter(isEvent).length / sample.length >= 0.8;
}

function recordId(v: JsonObject): string | null {
  const id = get(v, 'instance_id') ?? get(v, 'conversation_id') ?? get(v, 'id');
  return typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : null;
}

/** The event streams in a document: one for a trajectory, one per evaluation record. */
function streamsOf(doc: Document): Stream[] | null {
  if (doc.kind === 'json') {
    const found = listOf(doc.value);
    if (!found || !mostlyEvents(found.list)) return null;
    const base = found.key ? [found.key] : [];
    return [{ events: found.list.map((value, i) => ({ value, at: { path: [...base, i] } })), id: found.key && isObject(doc.value) ? recordId(doc.value) : null }];
  }
  const records = doc.records;
  if (records.length === 0) return null;
  if (mostlyEvents(records.map((r) => r.value))) return [{ events: records.map((r) => ({ value: r.value, at: { line: r.line } })), id: null }];
  const streams: Stream[] = [];
  for (const r of records) {
    if (!isObject(r.value)) continue;
    const history = arr(r.value, 'history');
    if (!history || !mostlyEvents(history)) continue;
    streams.push({ events: history.map((value, i) => ({ value, at: { line: r.line, path: ['history', i] } })), id: recordId(r.value) });
  }
  return streams.length ? streams : null;
}

function countSkipped(skipped: Record<string, number>, type: string): void {
  countKey(skipped, type);
}

function roleOfSource(source: string | undefined): Role {
  return source === 'user' ? 'user' : source === 'environment' ? 'environment' : 'assistant';
}

/** The call's arguments exactly as the model wrote them, from the recorded model response. */
function recordedArguments(meta: JsonObject | undefined, callId: string | undefined): string | null {
  if (!meta || !callId) return null;
  const choices = arrAt(meta, 'model_response.choices');
  for (const choice of choices) {
    for (const tc of arrAt(choice, 'message.tool_calls')) {
      if (isObject(tc) && str(tc, 'id') === callId) return strAt(tc, 'function.arguments');
    }
  }
  return null;
}

function arrAt(o: unknown, dotted: string): unknown[] {
  const v = path(o, dotted);
  return Array.isArray(v) ? v : [];
}

function cleanArgs(args: JsonObject): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (!NOISE_ARGS.has(k) && v !== null && v !== '') setOwn(out, k, v);
  return JSON.stringify(out);
}

/** Converts one event stream into the session's items, responses and compactions. */
function convert(stream: Stream, session: Session, ctx: ParseContext): void {
  const itemsByEvent = new Map<number, string[]>();
  const callIdByEvent = new Map<number, string>();
  const thinkEvents = new Set<number>();
  const responses = new Map<string, ModelResponse>();
  const usedIds = new Set<string>();
  let requested = false;
  /** The summary the model is sent now: View.from_events inserts only the newest condensation's. */
  let shownSummary: string | null = null;

  const addResponse = (id: string, usage: Usage | null, model: string | null, itemIds: string[], timestamp: string | undefined, at: At) => {
    const existing = responses.get(id);
    if (existing) {
      existing.itemIds.push(...itemIds);
      return;
    }
    const r: ModelResponse = { id, index: responses.size, itemIds: [...itemIds], usage, model, source: { file: ctx.file, line: at.line ?? null }, ...(timestamp ? { timestamp } : {}) };
    responses.set(id, r);
    session.model ??= model;
  };

  stream.events.forEach(({ value, at }, index) => {
    const sub = (...keys: (string | number)[]): At => ({ ...at, path: [...(at.path ?? []), ...keys] });
    if (!isEvent(value)) {
      ctx.error(at, 'expected an OpenHands event with `action` or `observation`');
      return;
    }
    const eventId = num(value, 'id') ?? index;
    let id = `e${eventId}`;
    if (usedIds.has(id)) {
      ctx.warn(sub('id'), `duplicate event id ${eventId}; this event is renamed ${id}#${index}`);
      id = `${id}#${index}`;
    }
    usedIds.add(id);
    const source = { file: ctx.file, line: at.line ?? null };
    const timestamp = str(value, 'timestamp');
    const base = { source, ...(timestamp ? { timestamp } : {}) };
    const tcm = obj(value, 'tool_call_metadata');
    const items: Item[] = [];
    const action = str(value, 'action');
    const observation = str(value, 'observation');

    if (action !== undefined) {
      const args = obj(value, 'args') ?? {};
      const role = roleOfSource(str(value, 'source'));
      if (SKIPPED_ACTIONS.has(action)) {
        if (action === 'condensation_request') requested = true;
        countSkipped(session.skipped, `action:${action}`);
      } else if (action === 'system') {
        items.push({ ...base, id, kind: 'message', role: 'system', text: str(args, 'content') ?? str(value, 'message') ?? '' });
        const version = str(args, 'openhands_version');
        const agent = str(args, 'agent_class');
        if (version) session.meta['openhandsVersion'] = version;
        if (agent) session.meta['agentClass'] = agent;
      } else if (action === 'message') {
        items.push({ ...base, id, kind: 'message', role: role === 'environment' ? 'user' : role, text: str(args, 'content') ?? str(value, 'message') ?? '' });
      } else if (action === 'think') {
        items.push({ ...base, id, kind: 'thinking', role: 'assistant', text: str(args, 'thought') ?? '' });
        thinkEvents.add(eventId);
      } else if (action === 'condensation') {
        condense(args, id, eventId, base, items, sub);
      } else {
        const thought = str(args, 'thought');
        if (thought && thought.trim()) items.push({ ...base, id: `${id}.thought`, kind: 'message', role: 'assistant', text: thought });
        const callId = (tcm && str(tcm, 'tool_call_id')) || id;
        const name = (tcm && str(tcm, 'function_name')) || action;
        const text = recordedArguments(tcm, tcm ? str(tcm, 'tool_call_id') : undefined) ?? cleanArgs(args);
        items.push({ ...base, id, kind: 'tool_call', role, text, name, callId, meta: { action } });
        callIdByEvent.set(eventId, callId);
      }
    } else if (observation !== undefined) {
      const cause = num(value, 'cause');
      if (SKIPPED_OBSERVATIONS.has(observation) || (observation === 'think' && cause !== undefined && thinkEvents.has(cause))) {
        countSkipped(session.skipped, `observation:${observation}`);
      } else {
        const callId = (tcm && str(tcm, 'tool_call_id')) || (cause !== undefined ? callIdByEvent.get(cause) : undefined);
        if (!callId && cause !== undefined) ctx.warn(sub('cause'), `observation answers event ${cause}, which is no tool call in this file`);
        const content = get(value, 'content');
        const item: Item = { ...base, id, kind: 'tool_result', role: 'tool', text: typeof content === 'string' ? content : str(value, 'message') ?? '', meta: { observation } };
        if (callId) item.callId = callId;
        const exit = numAt(value, 'extras.metadata.exit_code');
        if (exit !== null && exit !== -1) item.meta!['exitCode'] = exit;
        if (observation === 'error' || (exit !== null && exit > 0)) item.isError = true;
        items.push(item);
      }
    }

    if (items.length) {
      pushAll(session.items, items);
      itemsByEvent.set(eventId, items.map((it) => it.id));
    }
    // Usage: one model response may produce several events (parallel tool calls); count it once.
    const responseId = tcm ? strAt(tcm, 'model_response.id') : null;
    const produced = items.filter((it) => it.role === 'assistant').map((it) => it.id);
    if (tcm && responseId && action !== undefined) {
      addResponse(responseId, chatUsage(path(tcm, 'model_response.usage')), strAt(tcm, 'model_response.model'), produced, timestamp, at);
      for (const it of items) it.responseId = responseId;
    } else if (action !== undefined && produced.length) {
      // Messages without tool_call_metadata: the newest entry of the event's llm_metrics.token_usages.
      const usages = arrAt(value, 'llm_metrics.token_usages');
      const last = usages[usages.length - 1];
      const rid = isObject(last) ? str(last, 'response_id') : undefined;
      if (isObject(last) && rid && !responses.has(rid)) {
        const usage = tokenUsageRecord(last);
        if (usage.contextWindow) session.contextWindow ??= usage.contextWindow;
        addResponse(rid, usage, str(last, 'model') ?? null, produced, timestamp, at);
        for (const it of items) it.responseId = rid;
      }
    }
  });
  pushAll(session.responses, responses.values());

  function condense(
    args: JsonObject,
    id: string,
    eventId: number,
    base: Pick<Item, 'source' | 'timestamp'>,
    items: Item[],
    sub: (...keys: (string | number)[]) => At,
  ): void {
    const forgotten = new Set<number>();
    const listed = get(args, 'forgotten_event_ids');
    const start = num(args, 'forgotten_events_start_id');
    const end = num(args, 'forgotten_events_end_id');
    let count = 0;
    if (Array.isArray(listed)) {
      for (const v of listed) if (typeof v === 'number') forgotten.add(v);
      count = forgotten.size;
    } else if (start !== undefined && end !== undefined) {
      // The range is inclusive; only events seen so far can be forgotten.
      for (const known of itemsByEvent.keys()) if (known >= start && known <= end) forgotten.add(known);
      count = Math.max(0, end - start + 1);
    } else {
      ctx.warn(sub('args'), 'condensation names no forgotten events (forgotten_event_ids or forgotten_events_start_id..forgotten_events_end_id)');
    }
    const replacedIds = [...itemsByEvent.entries()].filter(([e]) => forgotten.has(e) && e !== eventId).flatMap(([, ids]) => ids);
    items.push({ ...base, id, kind: 'compaction', role: 'system', text: '', name: 'condensation', meta: { forgottenEvents: count } });
    const summary = str(args, 'summary');
    let summaryId: string | null = null;
    if (summary !== undefined) {
      summaryId = `${id}.summary`;
      const offset = num(args, 'summary_offset');
      // OpenHands hands the condensed summary to the model as a user message.
      items.push({ ...base, id: summaryId, kind: 'summary', role: 'user', text: summary, meta: { summaryOffset: offset ?? null } });
      // View.from_events (openhands/memory/view.py, 2025) inserts the newest condensation's summary only: the one
      // sent until now leaves the context.
      if (shownSummary) replacedIds.push(shownSummary);
      shownSummary = summaryId;
    }
    const c: CompactionEvent = {
      id: `c${session.compactions.length}`,
      index: session.compactions.length,
      kind: 'condensation',
      trigger: requested ? 'request' : null,
      tokensBefore: null,
      tokensAfter: null,
      replacedIds,
      keptIds: [],
      summaryId,
      atItemId: id,
      source: base.source,
      ...(base.timestamp ? { timestamp: base.timestamp } : {}),
    };
    session.compactions.push(c);
    requested = false;
  }
}

export const openhands: FormatAdapter = {
  id: 'openhands',
  label: 'OpenHands events',
  sniff(doc: Document) {
    const streams = streamsOf(doc);
    if (!streams) return 0;
    // `source` or `cause` beside action/observation is OpenHands' own shape.
    const sample = streams[0]!.events.slice(0, 20).map((e) => e.value).filter(isEvent);
    return sample.some((e) => get(e, 'source') !== undefined || get(e, 'cause') !== undefined) ? 0.95 : 0.7;
  },
  parse(doc, ctx) {
    const streams = streamsOf(doc);
    if (!streams) {
      const session = emptySession('openhands', ctx.file, idFromFile(ctx.file));
      ctx.error(doc.kind === 'json' ? { path: [] } : { line: doc.records[0]?.line ?? null }, 'expected OpenHands events (objects with `action` or `observation`)');
      return [session];
    }
    return streams.map((stream, i) => {
      const fallback = streams.length > 1 ? `${idFromFile(ctx.file)}#${i + 1}` : idFromFile(ctx.file);
      const session = emptySession('openhands', ctx.file, stream.id ?? fallback);
      convert(stream, session, ctx);
      return session;
    });
  },
};
