// Compaction log JSONL (the course's "Observe" record): one line per compaction a harness ran.
// {"strategy":"summarize","tokens_before":1840,"tokens_after":420,"evicted":9,"fallback":false,
//  "kept_ids":["db-prod-1","5432"],"lost_ids":["v2.14.3"],"summary":"## Conversation Summary …",
//  "session_id":"s1","turn":7,"request_id":"req_07","timestamp":"2025-03-13T09:12:00Z"}
import { recordsOf, type Document, type JsonlRecord } from '../load/document';
import { get, isObject, type JsonObject } from '../model/narrow';
import { classifyText } from '../model/markers';
import type { CompactionEvent, CompactionLogFields, Item, Session } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { countKey, setOwn } from '../model/dictionary';
import { thousands } from '../model/thousands';

interface LogRecord {
  line: number;
  fields: CompactionLogFields;
  tokensBefore: number | null;
  tokensAfter: number | null;
  evictedIds: string[];
  timestamp?: string;
}

class FieldError extends Error {
  constructor(
    readonly field: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}` : typeof v;
}

function optNumber(r: JsonObject, key: string): number | null {
  const v = get(r, key);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new FieldError([key], `expected a number, got ${describe(v)}`);
  return v;
}

function optString(r: JsonObject, key: string): string | null {
  const v = get(r, key);
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isFinite(v) && key !== 'summary') return String(v);
  if (typeof v !== 'string') throw new FieldError([key], `expected a string, got ${describe(v)}`);
  return v;
}

/** Identifier lists: strings, and numbers written without quotes (a port logged as 5432). */
function idList(r: JsonObject, key: string): string[] {
  const v = get(r, key);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new FieldError([key], `expected a list of identifiers, got ${describe(v)}`);
  return v.map((x, i) => {
    if (typeof x === 'string') return x;
    if (typeof x === 'number' && Number.isFinite(x)) return String(x);
    throw new FieldError([key, i], `expected an identifier string, got ${describe(x)}`);
  });
}

function timestampOf(r: JsonObject): string | undefined {
  const v = get(r, 'timestamp');
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  // Unix seconds or milliseconds.
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
  throw new FieldError(['timestamp'], `expected an ISO time or Unix time, got ${describe(v)}`);
}

/** Reads one record; throws FieldError naming the first bad field. */
function readRecord(rec: JsonlRecord, r: JsonObject): LogRecord {
  const strategy = get(r, 'strategy');
  if (typeof strategy !== 'string' || !strategy) throw new FieldError(['strategy'], `expected a strategy name, got ${describe(strategy)}`);
  const evictedRaw = get(r, 'evicted');
  let evicted: number | null = null;
  let evictedIds: string[] = [];
  if (Array.isArray(evictedRaw)) {
    evictedIds = idList(r, 'evicted');
    evicted = evictedIds.length;
  } else {
    evicted = optNumber(r, 'evicted');
  }
  const fallback = get(r, 'fallback');
  if (fallback !== undefined && fallback !== null && typeof fallback !== 'boolean') throw new FieldError(['fallback'], `expected true or false, got ${describe(fallback)}`);
  const turn = optNumber(r, 'turn');
  const timestamp = timestampOf(r);
  const fields: CompactionLogFields = {
    strategy,
    evicted,
    fallback: typeof fallback === 'boolean' ? fallback : null,
    keptIdentifiers: idList(r, 'kept_ids'),
    lostIdentifiers: idList(r, 'lost_ids'),
    summary: optString(r, 'summary'),
    sessionId: optString(r, 'session_id'),
    turn,
    requestId: optString(r, 'request_id'),
  };
  return { line: rec.line, fields, tokensBefore: optNumber(r, 'tokens_before'), tokensAfter: optNumber(r, 'tokens_after'), evictedIds, ...(timestamp ? { timestamp } : {}) };
}

function tokens(n: number | null): string {
  return n === null ? '?' : thousands(n);
}

/** "summarize: 1,840 → 420 tokens (fallback)" */
export function compactionLabel(r: { fields: CompactionLogFields; tokensBefore: number | null; tokensAfter: number | null }): string {
  const size = r.tokensBefore === null && r.tokensAfter === null ? '' : `: ${tokens(r.tokensBefore)} → ${tokens(r.tokensAfter)} tokens`;
  return `${r.fields.strategy}${size}${r.fields.fallback ? ' (fallback)' : ''}`;
}

function addRecord(session: Session, r: LogRecord, file: string): void {
  const source = { file, line: r.line };
  const atId = `log${r.line}`;
  const ts = r.timestamp ? { timestamp: r.timestamp } : {};
  const meta: Record<string, string | number | boolean | null> = { strategy: r.fields.strategy, fallback: r.fields.fallback, turn: r.fields.turn, requestId: r.fields.requestId };
  session.items.push({ id: atId, kind: 'compaction', role: 'system', text: compactionLabel(r), source, meta, ...ts });
  let summaryId: string | null = null;
  if (r.fields.summary) {
    summaryId = `${atId}.summary`;
    // The course inserts the recap (or, on fallback, the static marker) as an assistant message.
    const marker = classifyText(r.fields.summary) === 'marker';
    const item: Item = { id: summaryId, kind: marker ? 'omission' : 'summary', role: 'assistant', text: r.fields.summary, source, ...ts };
    if (marker) item.omission = { target: 'turns', refs: r.evictedIds, marker: r.fields.summary.trim() };
    session.items.push(item);
  }
  const event: CompactionEvent = {
    id: atId,
    index: session.compactions.length,
    kind: 'log',
    trigger: r.fields.strategy,
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter,
    replacedIds: r.evictedIds,
    keptIds: [],
    summaryId,
    atItemId: atId,
    ...ts,
    source,
    log: r.fields,
  };
  session.compactions.push(event);
}

function isLogRecord(v: unknown): boolean {
  return isObject(v) && typeof get(v, 'strategy') === 'string' && get(v, 'tokens_before') !== undefined;
}

export const compactionLog: FormatAdapter = {
  id: 'compaction-log',
  label: 'Compaction log',
  sniff(doc: Document) {
    const sample = recordsOf(doc).slice(0, 50);
    if (sample.length === 0) return 0;
    return sample.filter((r) => isLogRecord(r.value)).length / sample.length >= 0.8 ? 0.95 : 0;
  },
  parse(doc, ctx: ParseContext) {
    // One session per recorded session_id, so a log covering several sessions joins each to its transcript.
    const bySession = new Map<string | null, Session>();
    const sessionFor = (sid: string | null): Session => {
      let s = bySession.get(sid);
      if (!s) {
        s = emptySession('compaction-log', ctx.file, idFromFile(ctx.file));
        if (sid !== null) s.meta['joinSessionId'] = sid;
        bySession.set(sid, s);
      }
      return s;
    };
    const stray: Record<string, number> = {};
    for (const rec of recordsOf(doc)) {
      const v = rec.value;
      if (!isObject(v)) {
        ctx.error({ line: rec.line }, `expected a compaction record object, got ${describe(v)}`);
        continue;
      }
      if (get(v, 'strategy') === undefined) {
        // Other events some harnesses interleave (turn markers, metrics) carry no compaction.
        const type = get(v, 'type') ?? get(v, 'event');
        if (typeof type === 'string') {
          countKey(stray, type);
          continue;
        }
      }
      try {
        const r = readRecord(rec, v);
        addRecord(sessionFor(r.fields.sessionId), r, ctx.file);
      } catch (e) {
        if (!(e instanceof FieldError)) throw e;
        ctx.error({ line: rec.line, path: e.field }, `compaction record skipped: ${e.message}`);
      }
    }
    if (bySession.size === 0) sessionFor(null);
    const sessions = [...bySession.values()];
    if (sessions.length > 1) for (const s of sessions) s.id = `${s.id}#${String(s.meta['joinSessionId'] ?? 'none')}`;
    for (const [type, n] of Object.entries(stray)) setOwn(sessions[0]!.skipped, type, n);
    return sessions;
  },
};
