// Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json|jsonl`), as chatRecordingService writes
// them. The JSON form is one ConversationRecord `{sessionId, projectHash, startTime, lastUpdated, messages: […]}`;
// the JSONL form starts with that record's metadata and then appends: a message record (a later line with the same
// `id` updates it), `{$set: {…}}` (metadata; `messages` replaces the whole history, as after a chat compression),
// `{$rewindTo: id}` (drops that message and what follows).
// A message is `{id, timestamp, type: user|gemini|info|error|warning, content (string or parts), thoughts?,
// toolCalls?: [{id, name, args, result (parts with functionResponse), status}], tokens?: {input, output, cached,
// thoughts, tool, total}, model?}`. Each `gemini` message is one model call with its tokens as usage.
// A `$set` of messages that leaves earlier messages out is a compaction: the new messages (the
// `<state_snapshot>` summary) stand in for the ones left out. One that changes a kept message's content (tool
// output masking) is an omission: the stub replaces the output from then on. A compression note (`info`) gives its
// figures to that compaction, or, where no `$set` came, is one whose removed items are unknown.
import { recordsOf, type Document } from '../load/document';
import { arr, asText, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, ModelResponse, Session, Usage } from '../model/types';
import { cacheApartUsage, cacheInsideUsage, reportsACall } from '../model/usage';
import { emptySession, idFromFile, type At, type FormatAdapter, type ParseContext } from './adapter';

const SHOWN_NOT_SENT = new Set(['info', 'error', 'warning']);
/**
 * The `info` note Gemini CLI records after an automatic compression (useHistoryManager records info items since
 * 2025-11-19): useGeminiStream.ts handleChatCompressionEvent wrote "…(compressed from: 41021 to 6112 tokens)." until
 * 2026-03-03 (figures may be "unknown"), "Context compressed from 4% to 1%." since; the panel's own
 * CompressionMessage.tsx shows "Chat history compressed from 41,021 to 6,112 tokens.". /compress records an empty
 * note, also when nothing was compressed: no sign of a compression on its own.
 */
const TOKEN_NOTE = /compressed from:? ([\d,]+|unknown) to ([\d,]+|unknown) tokens/i;
const PERCENT_NOTE = /^Context compressed from \d+% to \d+%\./;

interface Note {
  marker: Item;
  before: number | null;
  after: number | null;
}

/** The figures of a compression note, or null for any other note. Percentages of the model's limit are no tokens. */
function noteFigures(text: string): { before: number | null; after: number | null } | null {
  const tokens = TOKEN_NOTE.exec(text);
  const count = (s: string) => (s === 'unknown' ? null : Number(s.replace(/,/g, '')));
  if (tokens) return { before: count(tokens[1]!), after: count(tokens[2]!) };
  return PERCENT_NOTE.test(text.trim()) ? { before: null, after: null } : null;
}

function isMetadata(v: unknown): v is JsonObject {
  return isObject(v) && typeof get(v, 'sessionId') === 'string' && typeof get(v, 'projectHash') === 'string';
}

function isMessage(v: unknown): v is JsonObject {
  return isObject(v) && typeof get(v, 'id') === 'string' && typeof get(v, 'type') === 'string';
}

interface Recorded {
  value: unknown;
  at: At;
}

/** Text parts joined; function calls and responses inside `content` (history synced from the API) apart. */
function partsOf(content: unknown): { text: string; calls: JsonObject[]; responses: JsonObject[] } {
  if (typeof content === 'string') return { text: content, calls: [], responses: [] };
  const list = Array.isArray(content) ? content : isObject(content) ? [content] : [];
  const texts: string[] = [];
  const calls: JsonObject[] = [];
  const responses: JsonObject[] = [];
  for (const p of list) {
    if (typeof p === 'string') texts.push(p);
    else if (isObject(p)) {
      if (typeof get(p, 'text') === 'string' && get(p, 'thought') !== true) texts.push(str(p, 'text')!);
      const fc = obj(p, 'functionCall');
      if (fc) calls.push(fc);
      const fr = obj(p, 'functionResponse');
      if (fr) responses.push(fr);
      if (obj(p, 'inlineData') || obj(p, 'fileData')) texts.push('[file]');
    }
  }
  return { text: texts.join('\n'), calls, responses };
}

function responseText(fr: JsonObject): string {
  const response = get(fr, 'response');
  if (isObject(response)) {
    const output = get(response, 'output') ?? get(response, 'error');
    if (output !== undefined) return asText(output);
  }
  return asText(response);
}

/** A tool call's result: the functionResponse parts it recorded, else what the panel showed. */
function resultText(tc: JsonObject): string {
  const { text, responses } = partsOf(get(tc, 'result'));
  if (responses.length > 0) return responses.map(responseText).join('\n');
  if (text) return text;
  const display = get(tc, 'resultDisplay');
  return typeof display === 'string' ? display : asText(display ?? '');
}

/**
 * chatRecordingService.recordMessageTokens writes the API's usageMetadata as `{input: promptTokenCount, output:
 * candidatesTokenCount, cached: cachedContentTokenCount, thoughts: thoughtsTokenCount, tool: toolUsePromptTokenCount,
 * total: totalTokenCount}`. promptTokenCount already counts the cached content (total = input + output + thoughts +
 * tool), so `cached` is a part of `input`, never added to it; thoughts are billed as output and counted in it.
 * A file whose total adds the cache on top says its input is the uncached rest, and is read that way.
 */
function usageOf(tokens: unknown): Usage | null {
  if (!isObject(tokens)) return null;
  const input = num(tokens, 'input') ?? null;
  const candidates = num(tokens, 'output') ?? null;
  if (input === null && candidates === null) return null;
  const cached = num(tokens, 'cached') ?? null;
  const thoughts = num(tokens, 'thoughts') ?? 0;
  const total = num(tokens, 'total');
  const output = candidates === null ? null : candidates + thoughts;
  const apart = total !== undefined && (cached ?? 0) > 0 && input !== null && total === input + (cached ?? 0) + (output ?? 0) + (num(tokens, 'tool') ?? 0);
  const usage = apart ? cacheApartUsage(input, output, cached, null) : cacheInsideUsage(input, output, cached, null);
  // A message of zeros (entireio/cli's checkpoint: a tool call's message between two replies) reports no call.
  return reportsACall(usage) ? usage : null;
}

class Conversation {
  readonly items: Item[] = [];
  readonly responses: ModelResponse[] = [];
  readonly compactions: CompactionEvent[] = [];
  /** The live history: message id → its items, in order. */
  private live = new Map<string, Item[]>();
  private readonly seen = new Map<string, string>();
  /**
   * A note and a `$set` compression between the same two calls are one compression. The harness writes the `$set`
   * first (chatRecordingService since 2026-05), so a compression waits for its note until the next call; a note with
   * no `$set` by then (the JSON form, JSONL before 2026-05) is a compaction of its own.
   */
  private undescribed: CompactionEvent | null = null;
  private note: Note | null = null;

  constructor(
    private readonly ctx: ParseContext,
    private readonly session: Session,
  ) {}

  /**
   * Adds or updates a message; an update of a message already shown replaces its items in place. A `synthetic`
   * message was written by the harness into a new history (the model's "Got it" after a snapshot): no call.
   */
  put(rec: Recorded, synthetic = false): void {
    const m = rec.value;
    if (!isMessage(m)) return;
    const id = str(m, 'id')!;
    const type = str(m, 'type')!;
    if (SHOWN_NOT_SENT.has(type)) {
      const text = partsOf(get(m, 'content')).text;
      const figures = type === 'info' && !this.seen.has(id) ? noteFigures(text) : null;
      if (figures) this.noted(figures, text, m, rec.at);
      else if (!this.seen.has(id)) bump(this.session.skipped, type);
      this.seen.set(id, type);
      return;
    }
    const old = this.live.get(id);
    if (type === 'gemini' && !synthetic && !old) {
      // A new call: what was compressed before it is settled.
      this.settle();
      this.undescribed = null;
    }
    const items = this.itemsOf(m, rec.at);
    if (old) {
      const at = this.items.indexOf(old[0]!);
      const oldIds = new Set(old.map((it) => it.id));
      const rest = this.items.filter((it) => !oldIds.has(it.id));
      rest.splice(at < 0 ? rest.length : at, 0, ...items);
      this.items.splice(0, this.items.length, ...rest);
      const r = this.responses.find((x) => x.id === id);
      if (r) this.responses.splice(this.responses.indexOf(r), 1);
      this.responses.forEach((x, k) => (x.index = k));
    } else {
      this.items.push(...items);
    }
    this.live.set(id, items);
    this.seen.set(id, type);
    if (type === 'gemini' && !synthetic) this.addResponse(m, id, items);
  }

  /** A compression note: the figures of the `$set` compression before it, else a compression of its own. */
  private noted(figures: { before: number | null; after: number | null }, text: string, m: JsonObject, at: At): void {
    if (this.undescribed) {
      this.undescribed.tokensBefore ??= figures.before;
      this.undescribed.tokensAfter ??= figures.after;
      this.undescribed = null;
      bump(this.session.skipped, 'info');
      return;
    }
    this.settle();
    const timestamp = str(m, 'timestamp');
    const marker: Item = { id: str(m, 'id')!, kind: 'compaction', role: 'system', text, source: { file: this.ctx.file, line: at.line ?? null }, ...(timestamp ? { timestamp } : {}) };
    this.items.push(marker);
    this.note = { marker, ...figures };
  }

  /**
   * A note no `$set` followed: the file keeps the whole history, so what the compression took out of the model's
   * context is unknown and the lists stay empty.
   */
  settle(): void {
    const note = this.note;
    if (!note) return;
    this.note = null;
    this.compactions.push({
      id: `compression-${this.compactions.length}`,
      index: this.compactions.length,
      kind: 'summary',
      trigger: 'chat compression',
      tokensBefore: note.before,
      tokensAfter: note.after,
      replacedIds: [],
      keptIds: [],
      summaryId: null,
      atItemId: note.marker.id,
      ...(note.marker.timestamp ? { timestamp: note.marker.timestamp } : {}),
      source: note.marker.source,
    });
  }

  private addResponse(m: JsonObject, id: string, items: Item[]): void {
    const produced = items.filter((it) => it.kind !== 'tool_result').map((it) => it.id);
    if (produced.length === 0) return;
    const timestamp = str(m, 'timestamp');
    const response: ModelResponse = { id, index: 0, itemIds: produced, usage: usageOf(get(m, 'tokens')), model: str(m, 'model') ?? null, ...(timestamp ? { timestamp } : {}), source: { file: this.ctx.file, line: null } };
    // Kept in the order of the history: an updated message keeps its place.
    const position = (r: ModelResponse) => this.items.findIndex((it) => it.id === r.itemIds[0]);
    const at = this.responses.findIndex((r) => position(r) > position(response));
    this.responses.splice(at < 0 ? this.responses.length : at, 0, response);
    this.responses.forEach((r, k) => (r.index = k));
  }

  rewind(id: string): void {
    const ids = [...this.live.keys()];
    const at = ids.indexOf(id);
    for (const gone of at < 0 ? ids : ids.slice(at)) {
      const items = new Set((this.live.get(gone) ?? []).map((it) => it.id));
      this.live.delete(gone);
      // A rewound message was never part of the conversation that went on: it leaves the transcript.
      this.items.splice(0, this.items.length, ...this.items.filter((it) => !items.has(it.id)));
      const r = this.responses.findIndex((x) => x.id === gone);
      if (r >= 0) this.responses.splice(r, 1);
    }
    this.responses.forEach((r, k) => (r.index = k));
  }

  /** A whole new history: what it leaves out was compacted away, its new messages stand in for it. */
  replace(messages: unknown[], at: At, timestamp: string | undefined): void {
    const keep = new Set(messages.filter(isMessage).map((m) => str(m, 'id')!));
    const removed = [...this.live.entries()].filter(([id]) => !keep.has(id));
    const fresh = messages.filter((m) => isMessage(m) && !this.live.has(str(m, 'id')!));
    const edited: [Item, Item][] = [];
    messages.forEach((m, i) => {
      const where = { ...at, path: [...(at.path ?? []), i] };
      if (!isMessage(m)) {
        this.ctx.error(where, 'expected a message record with `id` and `type`');
        return;
      }
      if (fresh.includes(m)) this.put({ value: m, at: where }, true);
      else edited.push(...this.edit(m, where));
    });
    if (edited.length > 0) {
      // Gemini CLI masks old, large tool outputs in place: from here on the model reads the stub, not the output.
      const first = edited[0]![1];
      this.compactions.push({
        id: `masking-${this.compactions.length}`,
        index: this.compactions.length,
        kind: 'omission',
        trigger: 'tool output masking',
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: edited.map(([old]) => old.id),
        keptIds: [],
        summaryId: first.id,
        atItemId: first.id,
        ...(timestamp ? { timestamp } : {}),
        source: { file: this.ctx.file, line: at.line ?? null },
      });
    }
    if (removed.length === 0) return;
    for (const [id] of removed) this.live.delete(id);
    const standIn = fresh.flatMap((m) => this.live.get(str(m as JsonObject, 'id')!) ?? []);
    const summary = standIn.find((it) => it.kind === 'summary') ?? standIn[0];
    // A note just before it (no call between) describes it: its marker goes, its figures stay.
    const note = this.note;
    this.note = null;
    if (note) {
      this.items.splice(this.items.indexOf(note.marker), 1);
      bump(this.session.skipped, 'info');
    }
    const compression: CompactionEvent = {
      id: `compression-${this.compactions.length}`,
      index: this.compactions.length,
      kind: 'summary',
      trigger: 'chat compression',
      tokensBefore: note?.before ?? null,
      tokensAfter: note?.after ?? null,
      replacedIds: removed.flatMap(([, items]) => items.map((it) => it.id)),
      keptIds: [...this.live.values()].flat().filter((it) => !standIn.includes(it)).map((it) => it.id),
      summaryId: summary?.id ?? null,
      atItemId: summary?.id ?? null,
      ...(timestamp ? { timestamp } : {}),
      source: { file: this.ctx.file, line: at.line ?? null },
    };
    this.compactions.push(compression);
    this.undescribed = note ? null : compression;
  }

  /**
   * A message the new history keeps, with some of its content changed: the changed items become new items (the
   * old ones stay in the transcript, seen by the calls before), returned as [old, new] pairs.
   */
  private edit(m: JsonObject, at: At): [Item, Item][] {
    const id = str(m, 'id')!;
    const old = this.live.get(id) ?? [];
    const byId = new Map(old.map((it) => [it.id, it]));
    const pairs: [Item, Item][] = [];
    const next = this.itemsOf(m, at).map((it) => {
      const before = byId.get(it.id);
      if (!before) {
        this.items.push(it);
        return it;
      }
      if (before.text === it.text) return before;
      const changed: Item = { ...it, id: `${it.id}~${this.compactions.length + 1}`, omission: { target: 'tool_result', refs: [before.id], marker: it.text.slice(0, 200) } };
      this.items.push(changed);
      pairs.push([before, changed]);
      return changed;
    });
    this.live.set(id, next);
    return pairs;
  }

  private itemsOf(m: JsonObject, at: At): Item[] {
    const id = str(m, 'id')!;
    const type = str(m, 'type');
    const timestamp = str(m, 'timestamp');
    const base = { source: { file: this.ctx.file, line: at.line ?? null }, ...(timestamp ? { timestamp } : {}) };
    const { text, calls, responses } = partsOf(get(m, 'content'));
    const items: Item[] = [];
    if (type === 'user') {
      const summary = text.trimStart().startsWith('<state_snapshot>');
      if (text || (calls.length === 0 && responses.length === 0)) items.push({ id, kind: summary ? 'summary' : 'message', role: 'user', text, ...base });
      responses.forEach((fr, j) => items.push(toolResult(`${id}.r${j}`, str(fr, 'id'), str(fr, 'name'), responseText(fr), false, base)));
      return items;
    }
    if (type !== 'gemini') {
      this.ctx.warn({ ...at, path: [...(at.path ?? []), 'type'] }, `unknown message type ${JSON.stringify(type)}; read as a user message`);
      return [{ id, kind: 'message', role: 'user', text, ...base }];
    }
    (arr(m, 'thoughts') ?? []).forEach((t, j) => {
      if (!isObject(t)) return;
      const subject = str(t, 'subject');
      const description = str(t, 'description') ?? '';
      items.push({ id: `${id}.t${j}`, kind: 'thinking', role: 'assistant', text: subject ? `${subject}: ${description}` : description, ...base });
    });
    if (text) items.push({ id, kind: 'message', role: 'assistant', text, ...base });
    calls.forEach((fc, j) => items.push({ id: `${id}.fc${j}`, kind: 'tool_call', role: 'assistant', text: asText(get(fc, 'args')), ...base, ...named(str(fc, 'name'), str(fc, 'id')) }));
    const toolCalls = arr(m, 'toolCalls') ?? [];
    const results: Item[] = [];
    toolCalls.forEach((tc, j) => {
      if (!isObject(tc)) {
        this.ctx.error({ ...at, path: [...(at.path ?? []), 'toolCalls', j] }, 'expected a tool call record');
        return;
      }
      const callId = str(tc, 'id');
      const name = str(tc, 'name');
      if (!callId) this.ctx.warn({ ...at, path: [...(at.path ?? []), 'toolCalls', j, 'id'] }, 'tool call has no id; its result cannot be paired with it');
      items.push({ id: `${id}.call${j}`, kind: 'tool_call', role: 'assistant', text: asText(get(tc, 'args')), ...base, ...named(name, callId) });
      if (get(tc, 'result') !== undefined || get(tc, 'resultDisplay') !== undefined) {
        results.push(toolResult(`${id}.result${j}`, callId, name, resultText(tc), str(tc, 'status') === 'error', { ...base, ...(str(tc, 'timestamp') ? { timestamp: str(tc, 'timestamp')! } : {}) }));
      }
    });
    if (items.length === 0) items.push({ id, kind: 'message', role: 'assistant', text: '', ...base });
    return [...items, ...results];
  }
}

function named(name: string | undefined, callId: string | undefined): Partial<Item> {
  return { ...(name ? { name } : {}), ...(callId ? { callId } : {}) };
}

function toolResult(id: string, callId: string | undefined, name: string | undefined, text: string, isError: boolean, base: Pick<Item, 'source' | 'timestamp'>): Item {
  return { id, kind: 'tool_result', role: 'tool', text, ...base, ...named(name, callId), ...(isError ? { isError: true } : {}) };
}

function bump(skipped: Record<string, number>, key: string): void {
  const k = key in Object.prototype ? `(${key})` : key;
  skipped[k] = (Object.prototype.hasOwnProperty.call(skipped, k) ? skipped[k]! : 0) + 1;
}

function applyMetadata(session: Session, v: JsonObject): void {
  const id = str(v, 'sessionId');
  if (id) session.id = id;
  const summary = str(v, 'summary');
  if (summary) session.title = summary;
  for (const key of ['projectHash', 'startTime', 'lastUpdated', 'kind'] as const) {
    const value = str(v, key);
    if (value) session.meta[key] = value;
  }
}

function parseRecords(records: Recorded[], ctx: ParseContext, session: Session): Conversation {
  const conv = new Conversation(ctx, session);
  for (const { at, value: v } of records) {
    const line = at.line ?? null;
    if (!isObject(v)) {
      ctx.error(at, 'expected a record object');
      continue;
    }
    if (isMessage(v)) conv.put({ value: v, at });
    else if (typeof get(v, '$rewindTo') === 'string') conv.rewind(str(v, '$rewindTo')!);
    else if (isObject(get(v, '$set'))) {
      const set = obj(v, '$set')!;
      applyMetadata(session, set);
      const messages = arr(set, 'messages');
      if (messages) conv.replace(messages, { line, path: ['$set', 'messages'] }, str(set, 'lastUpdated'));
    } else if (isMetadata(v)) applyMetadata(session, v);
    else ctx.warn(at, 'unknown record: not a message, `$set`, `$rewindTo` or session metadata');
  }
  conv.settle();
  return conv;
}

export const geminiCli: FormatAdapter = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  sniff(doc: Document) {
    if (doc.kind === 'json') return isMetadata(doc.value) && Array.isArray(get(doc.value, 'messages')) ? 0.95 : 0;
    const [first, ...rest] = doc.records;
    if (!first || !isMetadata(first.value)) return 0;
    const sample = rest.slice(0, 50).map((r) => r.value);
    const known = sample.filter((v) => isMessage(v) || (isObject(v) && (get(v, '$set') !== undefined || get(v, '$rewindTo') !== undefined))).length;
    return sample.length === 0 || known / sample.length >= 0.8 ? 0.95 : 0;
  },
  parse(doc, ctx) {
    const session = emptySession('gemini-cli', ctx.file, idFromFile(ctx.file));
    let conv: Conversation;
    if (doc.kind === 'json' && isObject(doc.value)) {
      applyMetadata(session, doc.value);
      const messages = arr(doc.value, 'messages') ?? [];
      conv = parseRecords(
        messages.map((value, i) => ({ value, at: { path: ['messages', i] } })),
        ctx,
        session,
      );
    } else {
      conv = parseRecords(
        recordsOf(doc).map((r) => ({ value: r.value, at: { line: r.line } })),
        ctx,
        session,
      );
    }
    session.items = conv.items;
    session.responses = conv.responses;
    session.compactions = conv.compactions;
    session.model = conv.responses.find((r) => r.model)?.model ?? null;
    return [session];
  },
};
