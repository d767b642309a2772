// Request log JSONL: one model call per line, as proxies and SDK loggers write them:
// {"request": <body>, "response": <body>?, "timestamp"?, "request_id"?, "session_id"?} or a bare request body.
// Also LiteLLM-style completion logs, one JSON file per call, as OpenHands (`log_completions`) writes them:
// {"messages", "tools"?, "kwargs" (with `tools` in older OpenHands), "response", "timestamp"?, "cost"?};
// several such files that continue one another are joined into one session (request-log-join.ts).
// The body is OpenAI Chat Completions, OpenAI Responses or Anthropic Messages, detected per line.
// Requests are kept as the model saw them: a provider-side compaction block or item hides what precedes it
// (request-log-compaction.ts), and is recorded as an event; other compactions between calls are inferred later.
import { recordsOf, type Document, type JsonlRecord } from '../load/document';
import { arr, get, isObject, str, strAt, type JsonObject } from '../model/narrow';
import { pairToolCalls } from '../model/pairing';
import type { Item, ModelResponse, RecordedRequest, Session } from '../model/types';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';
import { anthropicContentToItems, anthropicToItems, isAnthropicResponse, looksLikeAnthropicBody } from './anthropic';
import { chatMessagesToItems } from './openai-chat';
import { responsesItemsToItems, responsesRequestItems, unixSecondsToIso } from './openai-responses';
import { anthropicDiagnostic } from './anthropic';
import { callCompactionFacts, effectiveContext, isProviderCompaction, serverCompactions, type CallCompactionFacts } from './request-log-compaction';
import { usageOfAnyApi } from './request-log-usage';
import { thousands } from '../model/thousands';

type Api = RecordedRequest['api'];
type FieldPath = (string | number)[];

interface Call {
  body: JsonObject;
  bodyPath: FieldPath;
  response: JsonObject | null;
  responsePath: FieldPath;
  /** Tool schemas kept beside the body rather than in it (completion logs). */
  tools?: unknown[];
}

/** A completion log: the call's messages at the top, its response body beside them. */
export function isCompletionLog(v: unknown): v is JsonObject {
  if (!isObject(v) || !Array.isArray(get(v, 'messages')) || get(v, 'request') !== undefined) return false;
  const r = get(v, 'response');
  return isObject(r) && (Array.isArray(get(r, 'choices')) || Array.isArray(get(r, 'output')));
}

function hasConversation(v: unknown): v is JsonObject {
  return isObject(v) && (Array.isArray(get(v, 'messages')) || Array.isArray(get(v, 'input')) || typeof get(v, 'input') === 'string');
}

/** The request (and response) of a record; loggers that keep HTTP envelopes nest them under `body`. */
function callOf(v: JsonObject): Call | null {
  const request = get(v, 'request');
  if (isObject(request)) {
    const nested = get(request, 'body');
    const [body, bodyPath] = hasConversation(request) ? [request, ['request']] : hasConversation(nested) ? [nested, ['request', 'body']] : [null, []];
    if (!body) return null;
    const resp = get(v, 'response');
    const respBody = isObject(resp) && isObject(get(resp, 'body')) && !isObject(get(resp, 'usage')) ? get(resp, 'body') : resp;
    const responsePath = respBody === resp ? ['response'] : ['response', 'body'];
    return { body, bodyPath, response: isObject(respBody) ? respBody : null, responsePath };
  }
  if (isCompletionLog(v)) {
    const kwargs = get(v, 'kwargs');
    const tools = arr(v, 'tools') ?? (isObject(kwargs) ? arr(kwargs, 'tools') : undefined);
    return { body: v, bodyPath: [], response: get(v, 'response') as JsonObject, responsePath: ['response'], ...(tools ? { tools } : {}) };
  }
  return hasConversation(v) ? { body: v, bodyPath: [], response: null, responsePath: [] } : null;
}

function apiOf(call: Call): Api {
  const { body, response } = call;
  if (get(body, 'input') !== undefined && get(body, 'messages') === undefined) return 'openai-responses';
  if (response && Array.isArray(get(response, 'choices'))) return 'openai-chat';
  if (isAnthropicResponse(response)) return 'anthropic';
  return looksLikeAnthropicBody(body) || get(body, 'anthropic_version') !== undefined ? 'anthropic' : 'openai-chat';
}

function timestampOf(v: JsonObject, response: JsonObject | null): string | undefined {
  const t = get(v, 'timestamp');
  if (typeof t === 'string') return t;
  if (typeof t === 'number' && Number.isFinite(t) && t > 0) return new Date(t < 1e12 ? t * 1000 : t).toISOString();
  return response ? (unixSecondsToIso(get(response, 'created_at')) ?? unixSecondsToIso(get(response, 'created'))) : undefined;
}

function sessionIdOf(v: JsonObject, body: JsonObject): string | null {
  return str(v, 'session_id') ?? strAt(v, 'metadata.session_id') ?? strAt(body, 'metadata.session_id') ?? null;
}

function requestItems(api: Api, call: Call, ctx: ParseContext, line: number, base: string, skipped: Record<string, number>): Item[] {
  const at = (p: FieldPath): At => ({ line, path: [...call.bodyPath, ...p] });
  if (api === 'openai-responses') return responsesRequestItems(call.body, ctx, at, base, skipped);
  if (api === 'anthropic') return anthropicToItems(call.body, ctx, at, base);
  return chatMessagesToItems(arr(call.body, 'messages') ?? [], ctx, (i) => at(['messages', i]), `${base}m`);
}

function outputItems(api: Api, call: Call, ctx: ParseContext, line: number, base: string, skipped: Record<string, number>): Item[] {
  const r = call.response;
  if (!r) return [];
  const at = (p: FieldPath): At => ({ line, path: [...call.responsePath, ...p] });
  if (api === 'openai-responses') {
    const output = arr(r, 'output');
    return output ? responsesItemsToItems(output, ctx, (i) => at(['output', i]), `${base}o`, skipped) : [];
  }
  if (api === 'anthropic') {
    return Array.isArray(get(r, 'content')) ? anthropicContentToItems(get(r, 'content'), 'assistant', ctx, at([]), `${base}o0`) : [];
  }
  const message = firstChoiceMessage(r);
  return message ? chatMessagesToItems([message], ctx, () => at(['choices', 0, 'message']), `${base}o`) : [];
}

function firstChoiceMessage(r: JsonObject): JsonObject | null {
  const choices = arr(r, 'choices');
  const first = choices?.[0];
  const message = isObject(first) ? get(first, 'message') : undefined;
  return isObject(message) ? message : null;
}

/**
 * Gives an item the same id in every call that repeats it: the key is role, kind, text and call id
 * (plus the item's own provider id, and which repeat of that content it is within the call).
 * The first call to show a content names it; the session's items are the first-seen copies.
 */
export class ContentIds {
  private readonly byKey = new Map<string, Item>();
  private readonly taken = new Set<string>();
  readonly firstSeen: Item[] = [];

  /** `positional` is the call's own id prefix: ids that start with it are not provider ids. */
  canonical(items: Item[], counts: Map<string, number>, positional: string, extra: Partial<Item>): Item[] {
    return items.map((it) => {
      const own = it.id.startsWith(positional) ? '' : it.id;
      const base = [it.role, it.kind, it.text, it.callId ?? '', own].join('\u0000');
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      const key = `${base}\u0000${n}`;
      // A repeat is the first-seen object itself: one string per distinct message, however many calls repeat it.
      const seen = this.byKey.get(key);
      if (seen) return seen;
      let id = it.id;
      for (let m = 2; this.taken.has(id); m++) id = `${it.id}~${m}`;
      const canonical: Item = { ...it, ...extra, id };
      this.byKey.set(key, canonical);
      this.taken.add(id);
      this.firstSeen.push(canonical);
      return canonical;
    });
  }
}

interface Group {
  session: Session;
  ids: ContentIds;
  requestIds: Set<string>;
  /** Per request, what its record says about compaction. */
  facts: CallCompactionFacts[];
  /** Items a `/responses/compact` call kept beside its compaction item: still in context after it. */
  retained: Set<string>;
}

function looksLikeLogRecord(v: unknown, jsonl: boolean): boolean {
  if (!isObject(v)) return false;
  if (isCompletionLog(v)) return true;
  if (isObject(get(v, 'request'))) return callOf(v) !== null;
  return jsonl && typeof get(v, 'model') === 'string' && hasConversation(v);
}

/** Meta flag of a session read from one completion log file. */
export const COMPLETION_LOG = 'completionLog';

export const requestLog: FormatAdapter = {
  id: 'request-log',
  label: 'Request log',
  // A completion log holds a Chat Completions `messages` list inside the call it records.
  refines: ['openai-chat'],
  sniff(doc: Document) {
    // A single-line log parses as one JSON document: accept it only when it is a `{request: …}` record.
    const sample = recordsOf(doc).slice(0, 50);
    if (sample.length === 0) return 0;
    const ok = sample.filter((r) => looksLikeLogRecord(r.value, doc.kind === 'jsonl')).length;
    return ok / sample.length >= 0.8 ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const groups = new Map<string | null, Group>();
    const groupFor = (sid: string | null): Group => {
      let g = groups.get(sid);
      if (!g) {
        g = { session: emptySession('request-log', ctx.file, idFromFile(ctx.file)), ids: new ContentIds(), requestIds: new Set(), facts: [], retained: new Set() };
        if (sid !== null) g.session.meta['joinSessionId'] = sid;
        groups.set(sid, g);
      }
      return g;
    };
    const records = recordsOf(doc);
    for (let i = 0; i < records.length; i++) {
      if (i === MAX_LOG_REQUESTS) {
        ctx.error(
          { line: records[i]!.line },
          `this request log has ${thousands(records.length)} records; the inspector reads the first ${thousands(MAX_LOG_REQUESTS)} of a file (the documented limit, docs/cli.md, "Limits") and left out the rest. To inspect the rest, split the log, e.g. \`split -l ${MAX_LOG_REQUESTS} log.jsonl part-\`.`,
        );
        break;
      }
      addCall(records[i]!, ctx, groupFor);
    }
    // A completion log file is one call; the join chains the files that continue one another.
    if (doc.kind === 'json' && isCompletionLog(records[0]?.value)) for (const g of groups.values()) g.session.meta[COMPLETION_LOG] = true;
    if (groups.size === 0) groupFor(null);
    const sessions = [...groups.values()].map((g) => {
      g.session.items = g.ids.firstSeen;
      g.session.model = g.session.requests[0]?.model ?? null;
      g.session.compactions.push(...serverCompactions(g.session.requests, g.facts, g.session.compactions.length));
      return g.session;
    });
    if (sessions.length > 1) for (const s of sessions) s.id = `${s.id}#${String(s.meta['joinSessionId'] ?? 'none')}`;
    return sessions;
  },
};

/**
 * Records (model calls) read from one request log. Every call is analysed against the one before, and a log
 * of a million tiny calls took minutes and gigabytes before it failed; past this the rest is left out, with
 * an error naming the limit (docs/cli.md, "Limits").
 */
export const MAX_LOG_REQUESTS = 50_000;

function addCall(rec: JsonlRecord, ctx: ParseContext, groupFor: (sid: string | null) => Group): void {
  const { line, value: v } = rec;
  if (!isObject(v)) {
    ctx.error({ line }, `expected a request record object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
    return;
  }
  const call = callOf(v);
  if (!call) {
    const field = isObject(get(v, 'request')) ? 'request' : null;
    ctx.error({ line, ...(field ? { path: [field] } : {}) }, 'no request body: expected `request` with `messages` or `input`, or a bare request body');
    return;
  }
  const g = groupFor(sessionIdOf(v, call.body));
  const index = g.session.requests.length;
  const base = `r${index}.`;
  const api = apiOf(call);
  const timestamp = timestampOf(v, call.response);
  const ts = timestamp ? { timestamp } : {};
  let id = str(v, 'request_id') ?? `r${index}`;
  for (let m = 2; g.requestIds.has(id); m++) id = `${str(v, 'request_id') ?? `r${index}`}~${m}`;
  g.requestIds.add(id);
  const responseId = (call.response && str(call.response, 'id')) ?? `${id}.response`;
  const source = { file: ctx.file, line };
  // Repeats are counted over the request and its output together, so a reply that repeats an earlier text is new.
  const counts = new Map<string, number>();
  const facts = callCompactionFacts(v, call.response);
  const logged = g.ids.canonical(requestItems(api, call, ctx, line, base, g.session.skipped), counts, base, {});
  // A compact call's output is the next input, not a reply: the messages it keeps are the ones it was sent.
  const output = g.ids.canonical(outputItems(api, call, ctx, line, base, g.session.skipped), facts.endpoint ? new Map() : counts, base, { responseId, ...ts });
  const items = effectiveContext(logged, g.retained);
  if (facts.endpoint) for (const it of output) if (!isProviderCompaction(it)) g.retained.add(it.id);
  g.facts.push(facts);
  pairToolCalls(items);
  const model = str(call.body, 'model') ?? (call.response ? str(call.response, 'model') : undefined) ?? null;
  const usage = call.response ? usageOfAnyApi(get(call.response, 'usage'), api) : null;
  const diagnostic = call.response ? anthropicDiagnostic(call.body, call.response) : null;
  if (usage && diagnostic !== null) usage.diagnostic = diagnostic;
  const tools = call.tools ?? arr(call.body, 'tools');
  const request: RecordedRequest = { id, index, ...ts, model, api, items, tools: tools ? JSON.stringify(tools) : null, output, usage, source };
  g.session.requests.push(request);
  if (call.response) {
    const response: ModelResponse = { id: responseId, index: g.session.responses.length, itemIds: output.map((it) => it.id), usage, model, ...ts, source };
    g.session.responses.push(response);
  }
}
