// Cline and Roo Code task folders (`tasks/<taskId>/`): three files, each read on its own, then joined per task
// by src/formats/cline-join.ts.
// - `api_conversation_history.json`: the Anthropic-style messages the model was sent (`[{role, content, ts?}]`).
//   Roo Code condenses without deleting: condensed messages carry `condenseParent`, the summary `isSummary` and
//   `condenseId`; a sliding-window truncation tags `truncationParent` and adds an `isTruncationMarker` message.
// - `ui_messages.json`: what the panel showed (`[{ts, type: say|ask, say?, ask?, text?}]`). One `api_req_started`
//   per model call, its `text` a JSON string `{request, tokensIn, tokensOut, cacheWrites, cacheReads, cost}`;
//   `condense_context` with `contextCondense: {prevContextTokens, newContextTokens, summary, condenseId?}` (Cline
//   writes the same fields as JSON in `text`), `condense_context_error`, `sliding_window_truncation` with
//   `contextTruncation`, and Cline's `conversationHistoryDeletedRange: [start, end]` on every message added once a
//   request truncated the history (that request's own `api_req_started` comes before it: Cline says it, then sends).
// - `task_metadata.json`: `{files_in_context, model_usage: [{ts, model_id, model_provider_id, mode}]}`; Roo Code's
//   holds `files_in_context` alone.
// Cline 3.x (2026) also writes, on each assistant message of the API history, `modelInfo: {modelId, providerId,
// mode}` and `metrics: {tokens: {prompt, completion, cached}, cost?}`. metrics.ts declares `prompt` as every input
// token and `cached` as the hits among them, and an OpenAI-protocol task writes them so; but Cline stores each
// provider's figures as that provider reports them, and on Anthropic's API `prompt` is the uncached rest and `cached`
// the cache writes and reads together (public tasks of both kinds: mike4567/MRA04242026, gmfstu/Online-Card-
// Architecture, where `cached` = the panel's cacheWrites + cacheReads). And it answers native
// `tool_use` blocks with user TEXT blocks headed `[<tool> for '<arg>'] Result:`, one per call in call order,
// instead of `tool_result` blocks: those are paired here with the calls they answer.
import type { Document } from '../load/document';
import { isFramedReply } from '../model/harness-messages';
import { arr, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, ModelResponse, Session, Usage } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { anthropicContentToItems } from './anthropic';

export type ClinePart = 'api' | 'ui' | 'meta';

/** Names an api-history message in a ui compaction's `replacedIds` until the join resolves it to items. */
export const MESSAGE_REF = '#message:';

/** The folder a task file sits in (its task id), '' when the name has none. */
export function taskFolder(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length > 1 ? parts.slice(0, -1).join('/') : '';
}

function isApiMessage(v: unknown): v is JsonObject {
  return isObject(v) && (get(v, 'role') === 'user' || get(v, 'role') === 'assistant') && get(v, 'content') !== undefined;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) && typeof get(b, 'text') === 'string' ? (get(b, 'text') as string) : '')).join('\n');
}

/** The API history of a task: user/assistant messages, the first one the `<task>` with environment details. */
function looksLikeApiHistory(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  const head = v.slice(0, 50);
  if (!head.every(isApiMessage)) return false;
  const first = textOf(get(v[0] as JsonObject, 'content'));
  const hasTs = head.some((m) => typeof get(m as JsonObject, 'ts') === 'number');
  return /<task>|<environment_details>/.test(first) || hasTs;
}

function looksLikeUiMessages(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  const head = v.slice(0, 50);
  return head.every((m) => isObject(m) && typeof get(m, 'ts') === 'number' && (get(m, 'type') === 'say' || get(m, 'type') === 'ask'));
}

/** Roo Code's FileContextTracker writes only `{files_in_context: [{path, record_state, …}]}`. */
function looksLikeRooMetadata(v: JsonObject): boolean {
  const files = get(v, 'files_in_context');
  return Object.keys(v).length === 1 && Array.isArray(files) && files.every((f) => isObject(f) && typeof get(f, 'path') === 'string' && typeof get(f, 'record_state') === 'string');
}

function looksLikeTaskMetadata(v: unknown): boolean {
  if (!isObject(v)) return false;
  return (Array.isArray(get(v, 'model_usage')) && (Array.isArray(get(v, 'files_in_context')) || Array.isArray(get(v, 'environment_history')))) || looksLikeRooMetadata(v);
}

function tsToIso(ts: unknown): string | undefined {
  return typeof ts === 'number' && Number.isFinite(ts) && ts > 0 ? new Date(ts).toISOString() : undefined;
}

function baseSession(ctx: ParseContext, part: ClinePart): Session {
  const folder = taskFolder(ctx.file);
  const session = emptySession('cline', ctx.file, folder ? (folder.split('/').pop() ?? folder) : idFromFile(ctx.file));
  session.title = part === 'api' ? `Cline task ${session.id}` : ctx.file;
  session.meta['clinePart'] = part;
  session.meta['clineTask'] = folder;
  return session;
}

/** Cline's header of a tool result sent as user text: `[read_file for 'a.ts'] Result:` → `read_file`. */
const TEXT_RESULT = /^\[([A-Za-z0-9_.:-]+)(?: for '[\s\S]*?')?\] Result:/;

/**
 * Turns the user text blocks that answer the previous assistant message's unanswered tool calls into their
 * results. As many results as calls: in order (Cline writes them in call order, and may label a call by another
 * name, `use_subagents` as `[subagents]`). Otherwise each result goes to the first unanswered call of its name.
 * A result that carries the person's words (an `<answer>` to a question, `<feedback>` on an attempt) stays their
 * message: the audit and the lints read what a person said from user messages.
 */
function pairTextResults(items: Item[], calls: Item[]): void {
  const results = items.filter((it) => it.kind === 'message' && TEXT_RESULT.test(it.text));
  if (results.length === 0 || calls.length === 0) return;
  const open = [...calls];
  for (const r of results) {
    const label = TEXT_RESULT.exec(r.text)![1]!;
    const k = results.length === calls.length ? 0 : open.findIndex((c) => c.name === label);
    if (k < 0 || open.length === 0) continue;
    const [call] = open.splice(k, 1);
    if (isFramedReply(r)) continue;
    r.kind = 'tool_result';
    r.role = 'tool';
    if (call!.callId) r.callId = call!.callId;
    if (call!.name) r.name = call!.name;
    if (r.meta) delete r.meta['wrapsUserWords'];
  }
}

function metricsTokens(m: unknown): JsonObject | undefined {
  return isObject(m) ? obj(obj(m, 'metrics') ?? {}, 'tokens') : undefined;
}

const providerOf = (m: unknown) => (isObject(m) ? (str(obj(m, 'modelInfo') ?? {}, 'providerId') ?? '') : '');

/**
 * The providers of a task whose `prompt` leaves the cache out: where any of their messages has `prompt` below
 * `cached`, which an inclusive figure never is.
 */
function cacheApartProviders(list: unknown[]): Set<string> {
  const apart = new Set<string>();
  for (const m of list) {
    const t = metricsTokens(m);
    if (t && (num(t, 'prompt') ?? 0) < (num(t, 'cached') ?? 0)) apart.add(providerOf(m));
  }
  return apart;
}

/**
 * An assistant message's own `metrics.tokens` (Cline 3.x). Inclusive, `cached` is the hits. Apart (Anthropic's
 * API), the prompt is `prompt` + `cached`, and `cached` mixes writes and reads, so the split is left unknown.
 */
function metricsUsage(m: JsonObject, cacheApart: boolean): Usage | null {
  const tokens = metricsTokens(m);
  if (!tokens) return null;
  const prompt = num(tokens, 'prompt');
  const completion = num(tokens, 'completion');
  // A reply cut off by an API error is written with every figure 0: nothing was measured (a prompt is never empty).
  if (!prompt && !completion) return null;
  const cached = num(tokens, 'cached');
  if (cacheApart) return { input: prompt === undefined ? null : prompt + (cached ?? 0), output: completion ?? null, cacheRead: null, cacheWrite: null, inputIncludesCache: true };
  return { input: prompt ?? null, output: completion ?? null, cacheRead: cached ?? null, cacheWrite: null, inputIncludesCache: true };
}

/**
 * The API history: items per message, and one response per assistant message. Usage is the message's own
 * `metrics` when Cline wrote them, else the ui's `api_req_started` (joined in cline-join.ts).
 */
function parseApiHistory(list: unknown[], ctx: ParseContext): Session {
  const session = baseSession(ctx, 'api');
  const cacheApart = cacheApartProviders(list);
  let unanswered: Item[] = [];
  list.forEach((m, i) => {
    if (!isApiMessage(m)) {
      ctx.error({ path: [i] }, 'expected a message `{role: user|assistant, content}`');
      return;
    }
    const role = get(m, 'role') === 'assistant' ? 'assistant' : 'user';
    const ts = tsToIso(get(m, 'ts'));
    const items = anthropicContentToItems(get(m, 'content'), role, ctx, { path: [i] }, `m${i}`).map((it) => {
      const meta: Item['meta'] = { ...(it.meta ?? {}), message: i };
      const condenseParent = str(m, 'condenseParent');
      if (condenseParent) meta['condenseParent'] = condenseParent;
      const truncationParent = str(m, 'truncationParent');
      if (truncationParent) meta['truncationParent'] = truncationParent;
      const condenseId = str(m, 'condenseId');
      if (condenseId) meta['condenseId'] = condenseId;
      const truncationId = str(m, 'truncationId');
      if (truncationId) meta['truncationId'] = truncationId;
      // Cline writes every text of the user's turn (tool results, notices, the workspace snapshot) and wraps what
      // the person typed in `<task>`, `<feedback>`, `<user_message>` or `<answer>` (see model/harness-messages.ts).
      if (role === 'user' && it.kind === 'message') meta['wrapsUserWords'] = true;
      return { ...it, meta, ...(ts ? { timestamp: ts } : {}) };
    });
    if (get(m, 'isSummary') === true) for (const it of items) if (it.kind === 'message') it.kind = 'summary';
    // Calls a tool_result block answers are not open; a user message closes the rest (an interrupted task).
    if (role === 'user') {
      const answered = new Set(items.filter((it) => it.kind === 'tool_result').map((it) => it.callId));
      pairTextResults(items, unanswered.filter((c) => !answered.has(c.callId)));
    }
    unanswered = role === 'assistant' ? items.filter((it) => it.kind === 'tool_call') : [];
    if (get(m, 'isTruncationMarker') === true) {
      for (const it of items) {
        it.kind = 'omission';
        it.omission = { target: 'turns', refs: [], marker: it.text.slice(0, 200) };
      }
    }
    session.items.push(...items);
    if (role === 'assistant' && get(m, 'isSummary') !== true && items.length > 0) {
      const model = str(obj(m, 'modelInfo') ?? {}, 'modelId') ?? null;
      const response: ModelResponse = { id: `m${i}`, index: session.responses.length, itemIds: items.map((it) => it.id), usage: metricsUsage(m, cacheApart.has(providerOf(m))), model, ...(ts ? { timestamp: ts } : {}), source: { file: ctx.file, line: null } };
      session.responses.push(response);
    }
  });
  session.model = session.responses.findLast((r) => r.model)?.model ?? null;
  return session;
}

interface ReqInfo {
  tokensIn?: number;
  tokensOut?: number;
  cacheWrites?: number;
  cacheReads?: number;
  cost?: number;
}

function parseJsonText(text: unknown): JsonObject | null {
  if (typeof text !== 'string' || !text.trim().startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Cline and Roo report Anthropic's usage as given (input without cache reads and writes); Roo marks calls
 * made over an OpenAI-style protocol, whose input already counts cached tokens.
 */
function usageOf(info: JsonObject, protocol: string | undefined): Usage | null {
  const r: ReqInfo = { tokensIn: num(info, 'tokensIn'), tokensOut: num(info, 'tokensOut'), cacheWrites: num(info, 'cacheWrites'), cacheReads: num(info, 'cacheReads') };
  if (r.tokensIn === undefined && r.tokensOut === undefined) return null;
  const openai = protocol === 'openai';
  return { input: r.tokensIn ?? null, output: r.tokensOut ?? null, cacheRead: r.cacheReads ?? (openai ? null : 0), cacheWrite: openai ? (r.cacheWrites ?? null) : (r.cacheWrites ?? 0), inputIncludesCache: openai };
}

function bump(skipped: Record<string, number>, key: string): void {
  const k = key in Object.prototype ? `(${key})` : key;
  skipped[k] = (Object.prototype.hasOwnProperty.call(skipped, k) ? skipped[k]! : 0) + 1;
}

/** Panel messages a ui file's items were read from, per kind: unused, so counted as skipped, once the API history joins it. */
export const readAlone = new WeakMap<Session, Record<string, number>>();

/** The kind (`say:text`, `ask:tool`, …) of the panel message a reply item was read from. */
export const panelKind = new WeakMap<Item, string>();

/** The items a panel request sent (its `request` text; a failed request's, which its retry sends again). */
export const sentBy = new WeakMap<ModelResponse, Item[]>();

/** The panel names a tool in camelCase (`readFile`); the API and its results in snake_case (`read_file`). */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Where a result sent as user text starts: `[read_file for 'a.ts'] Result:` at the head of a line. */
const RESULT_HEAD = /^\[[A-Za-z0-9_.:-]+(?: for '[^\n]*?')?\] Result:/m;

/** A request's text cut at each result header: one piece per result, the text before them (if any) first. */
function requestPieces(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  for (let m = RESULT_HEAD.exec(rest.slice(1)); m; m = RESULT_HEAD.exec(rest.slice(1))) {
    pieces.push(rest.slice(0, m.index + 1));
    rest = rest.slice(m.index + 1);
  }
  pieces.push(rest);
  return pieces.filter((p) => p.trim() !== '');
}

/**
 * What the panel shows of the model's reply, as items (for a panel file loaded without its API history): reasoning,
 * text, and the tools it used (`tool` JSON, `command`, the completion, a follow-up question, a plan-mode answer). Null
 * for the rest.
 */
function replyItem(m: JsonObject, id: string, source: Item['source']): Item | null {
  const say = str(m, 'say');
  const ask = str(m, 'ask');
  const text = typeof get(m, 'text') === 'string' ? (get(m, 'text') as string) : '';
  if (get(m, 'partial') === true) return null;
  if (say === 'reasoning' && text) return { id, kind: 'thinking', role: 'assistant', text, source };
  if (say === 'text' && text) return { id, kind: 'message', role: 'assistant', text, source };
  // A tool that waited for approval is asked (`ask: tool` / `command`), one auto-approved is said: the same reply.
  if (say === 'tool' || ask === 'tool') {
    const tool = parseJsonText(text);
    const name = tool ? str(tool, 'tool') : undefined;
    if (!tool || !name) return null;
    const { tool: _t, operationIsLocatedInWorkspace: _o, ...input } = tool;
    return { id, kind: 'tool_call', role: 'assistant', name: snakeCase(name), callId: id, text: JSON.stringify(input), source };
  }
  if ((say === 'command' || ask === 'command') && text) return { id, kind: 'tool_call', role: 'assistant', name: 'execute_command', callId: id, text: JSON.stringify({ command: text }), source };
  if (say === 'completion_result' && text) return { id, kind: 'tool_call', role: 'assistant', name: 'attempt_completion', callId: id, text: JSON.stringify({ result: text }), source };
  if (ask === 'followup' && text) return { id, kind: 'tool_call', role: 'assistant', name: 'ask_followup_question', callId: id, text, source };
  // Plan mode's answer (PlanModeRespondHandler: `{response, options}`): often a call's whole reply, and a call with
  // no reply read is no call, its usage lost (Jeehunter/mcp-vscode-server's ui_messages.json, 756 output tokens).
  if (ask === 'plan_mode_respond' && parseJsonText(text)) return { id, kind: 'tool_call', role: 'assistant', name: 'plan_mode_respond', callId: id, text, source };
  return null;
}

/**
 * The API message a panel message's item stands for, as `meta.message` (the API history's items carry the same): a
 * panel message records `conversationHistoryIndex`, the last API message when it was added. Cline says a request's
 * `api_req_started` before it adds the request's user message, and its reply's messages before it adds the assistant
 * message, so both stand for the next one. Lets a deleted range name the panel's items when the history is absent.
 */
function apiMessageOf(m: JsonObject, meta: Item['meta']): { meta?: Item['meta'] } {
  const index = num(m, 'conversationHistoryIndex');
  if (index === undefined) return meta ? { meta } : {};
  return { meta: { ...(meta ?? {}), message: index + 1 } };
}

/**
 * The panel's messages: a response (usage, time, cost) per `api_req_started`, and the condense and truncation
 * events as compactions. A compaction's `timestamp` places it among the calls; its id is the `condenseId` or
 * `truncationId` the API history tags its messages with; a deleted range names the messages it drops.
 */
function parseUiMessages(list: unknown[], ctx: ParseContext): Session {
  const session = baseSession(ctx, 'ui');
  let deletedUpTo = -1;
  // The time of the last request sent, where a deleted range that shows after it took effect.
  let lastRequestTs: string | undefined;
  let lastRequestItem: string | undefined;
  const source = { file: ctx.file, line: null };
  // The call whose reply the panel is showing, its open tool calls, and what the context held since the last condense.
  let current: ModelResponse | null = null;
  let currentCalls: Item[] = [];
  let since: Item[] = [];
  let lastFailed: string | undefined;
  let unsent: Item[] = [];
  const addCompaction = (c: Omit<CompactionEvent, 'index' | 'source'>) =>
    session.compactions.push({ ...c, index: session.compactions.length, source });
  list.forEach((m, i) => {
    if (!isObject(m)) {
      ctx.error({ path: [i] }, 'expected a ui message object');
      return;
    }
    const say = str(m, 'say');
    const ts = tsToIso(get(m, 'ts'));
    const stamp = ts ? { timestamp: ts } : {};
    // Cline stamps every panel message with the deleted range in force when it was added. Its `api_req_started` is
    // added before the request truncates the history, so a new range shows first on a message after the request
    // that dropped those messages (its reply), or on the next request: placed just before the last request sent.
    const range = arr(m, 'conversationHistoryDeletedRange');
    const end = range && typeof range[1] === 'number' ? range[1] : undefined;
    const start = range && typeof range[0] === 'number' ? range[0] : undefined;
    if (start !== undefined && end !== undefined && end > deletedUpTo) {
      const from = Math.max(start, deletedUpTo + 1);
      const refs: string[] = [];
      for (let k = from; k <= end; k++) refs.push(`${MESSAGE_REF}${k}`);
      deletedUpTo = end;
      const at = lastRequestTs ?? ts;
      // Anchored at that request's first item for the panel read alone; with the API history the join places it.
      addCompaction({ id: `deleted-${from}-${end}`, kind: 'condensation', trigger: 'conversationHistoryDeletedRange', tokensBefore: null, tokensAfter: null, replacedIds: refs, keptIds: [], summaryId: null, atItemId: lastRequestTs ? (lastRequestItem ?? null) : null, ...(at ? { timestamp: new Date(Date.parse(at) - 1).toISOString() } : {}) });
    }
    const reply = current ? replyItem(m, `u${i}`, source) : null;
    if (reply && current) {
      const key = say ? `say:${say}` : `ask:${str(m, 'ask') ?? 'unknown'}`;
      const alone = readAlone.get(session) ?? {};
      alone[key] = (alone[key] ?? 0) + 1;
      readAlone.set(session, alone);
      const item = { ...reply, ...stamp, ...apiMessageOf(m, reply.meta) };
      panelKind.set(item, key);
      session.items.push(item);
      since.push(item);
      current.itemIds.push(item.id);
      if (item.kind === 'tool_call') currentCalls.push(item);
      return;
    }
    // A condense or a truncation: Cline records the figures, not which messages went. A condense's summary is kept
    // as an item in place of what the context held since the last one (the join takes the API history's instead).
    const addContextEvent = (fields: JsonObject | null | undefined, idField: string, idPrefix: string, trigger: string) => {
      const text = fields ? str(fields, 'summary') : undefined;
      const summary: Item | null = text ? { id: `u${i}`, kind: 'summary', role: 'user', text, source, ...stamp } : null;
      if (summary) session.items.push(summary);
      const replaced = summary ? since.map((it) => it.id) : [];
      if (summary) since = [summary];
      addCompaction({
        id: (fields ? str(fields, idField) : undefined) ?? `${idPrefix}-${session.compactions.length}`,
        kind: 'condensation',
        trigger,
        tokensBefore: (fields && num(fields, 'prevContextTokens')) ?? null,
        tokensAfter: (fields && num(fields, 'newContextTokens')) ?? null,
        replacedIds: replaced,
        keptIds: [],
        summaryId: summary?.id ?? null,
        atItemId: summary?.id ?? null,
        ...stamp,
      });
    };
    if (get(m, 'partial') === true) return;
    if (say === 'api_req_started') {
      // A failed request truncates too; the next one goes out with the shorter history.
      if (ts) lastRequestTs = ts;
      lastRequestItem = undefined;
      const info = parseJsonText(get(m, 'text'));
      if (!info) ctx.warn({ path: [i, 'text'] }, 'api_req_started text is not the JSON object Cline writes; the call has no usage');
      // A request that failed or was cancelled before any reply left no assistant message: not a call.
      // Newer versions write its figures as 0 rather than leaving them out.
      const measured = (num(info ?? {}, 'tokensIn') ?? 0) + (num(info ?? {}, 'tokensOut') ?? 0) > 0;
      const failed = info !== null && !measured && (get(info, 'cancelReason') !== undefined || get(info, 'streamingFailedMessage') !== undefined);
      // What this request sent: the person's words, notices, and the previous reply's tool results as text. A retry
      // sends the same text again: the context holds it once.
      const request = info ? str(info, 'request') : undefined;
      if (request && request !== lastFailed) {
        const sent: Item[] = requestPieces(request).map((text, k) => ({ id: `r${i}.${k}`, kind: 'message', role: 'user', text, source, ...apiMessageOf(m, { wrapsUserWords: true }), ...stamp }));
        lastRequestItem = sent[0]?.id;
        pairTextResults(sent, current ? currentCalls : []);
        session.items.push(...sent);
        since.push(...sent);
        unsent.push(...sent);
      }
      lastFailed = failed ? request : undefined;
      if (failed) {
        bump(session.skipped, 'api_req_started (failed)');
        current = null;
        return;
      }
      const usage = info ? usageOf(info, str(m, 'apiProtocol') ?? str(info, 'apiProtocol')) : null;
      const model = str(obj(m, 'modelInfo') ?? {}, 'modelId') ?? null;
      const response: ModelResponse = { id: `req-${session.responses.length}`, index: session.responses.length, itemIds: [], usage, model, ...stamp, source };
      current = response;
      currentCalls = [];
      sentBy.set(response, unsent);
      unsent = [];
      const cost = info ? num(info, 'cost') : undefined;
      if (cost !== undefined) session.meta['cost'] = Math.round(((Number(session.meta['cost'] ?? 0) || 0) + cost) * 1e6) / 1e6;
      session.responses.push(response);
      return;
    }
    if (say === 'condense_context') {
      const cc = obj(m, 'contextCondense') ?? parseJsonText(get(m, 'text'));
      if (!cc) {
        ctx.warn({ path: [i] }, 'condense_context has no contextCondense; the compaction is kept without its figures');
      }
      addContextEvent(cc, 'condenseId', 'condense', 'condense_context');
      return;
    }
    if (say === 'sliding_window_truncation') {
      addContextEvent(obj(m, 'contextTruncation') ?? parseJsonText(get(m, 'text')), 'truncationId', 'truncation', 'sliding_window_truncation');
      return;
    }
    if (say === 'condense_context_error') {
      ctx.warn({ path: [i] }, `a context condense failed: ${String(get(m, 'text') ?? '').slice(0, 200)}`);
    }
    bump(session.skipped, say ? `say:${say}` : `ask:${str(m, 'ask') ?? 'unknown'}`);
  });
  return session;
}

function parseTaskMetadata(v: JsonObject, ctx: ParseContext): Session {
  const session = baseSession(ctx, 'meta');
  const usage = arr(v, 'model_usage') ?? [];
  const last = usage.at(-1);
  if (isObject(last)) session.model = str(last, 'model_id') ?? null;
  const files = arr(v, 'files_in_context');
  if (files) session.meta['filesInContext'] = files.length;
  return session;
}

export const cline: FormatAdapter = {
  id: 'cline',
  label: 'Cline / Roo Code task',
  // A task's api_conversation_history.json is Anthropic messages with Cline's own fields.
  refines: ['anthropic'],
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    if (looksLikeUiMessages(doc.value)) return 0.95;
    if (looksLikeTaskMetadata(doc.value)) return 0.9;
    // Above a bare Anthropic message array (0.85): the `<task>` opening or per-message `ts` settles it.
    return looksLikeApiHistory(doc.value) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const v = doc.kind === 'json' ? doc.value : undefined;
    if (Array.isArray(v) && looksLikeUiMessages(v)) return [parseUiMessages(v, ctx)];
    if (isObject(v)) return [parseTaskMetadata(v, ctx)];
    return [parseApiHistory(Array.isArray(v) ? v : [], ctx)];
  },
};
