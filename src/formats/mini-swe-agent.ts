// mini-swe-agent trajectories (`*.traj.json`, mini-swe-agent 1.x and 2.x, `DefaultAgent.save`):
//   {info: {model_stats: {instance_cost, api_calls}, config: {model: {model_name}}, mini_version, exit_status,
//    submission}, messages: [...], compaction?: {records: [...]}, trajectory_format: "mini-swe-agent-1[.x]"}
// Messages are Chat Completions messages plus `extra`: an assistant message's `extra.response` is the provider
// response with its usage, `extra.timestamp` when it arrived. Every assistant message is one model call, sent the
// messages before it; the last message may have role `exit` (how the run ended), which no model ever saw.
// A user message with `extra.interrupt_type: "FormatError"` answers a call whose reply was not kept; that call is
// shown with the reply from `extra.model_response`.
// With compaction on (2.x), the model is sent [first message, summary, messages[compacted_until:]] after each
// `compaction.records[]` entry; the summary message is rebuilt as the agent wrote it.
import type { Document } from '../load/document';
import { arr, get, isObject, num, numAt, obj, str, strAt, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, Session, Usage } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { addChatCalls, type ChatCall } from './chat-calls';
import { unixSecondsToIso } from './openai-responses';
import { responseUsage } from './litellm-usage';

const SUMMARY_OPEN = '<conversation_summary>';

/** The message mini-swe-agent puts in place of the compacted messages (agents/compaction.py summary_message). */
function summaryMessage(summary: string): JsonObject {
  return { role: 'user', content: `${SUMMARY_OPEN}\n${summary}\n</conversation_summary>\nContinue from this checkpoint.` };
}

function markSummary(it: Item): void {
  if (it.kind === 'message' && it.role === 'user' && it.text.startsWith(SUMMARY_OPEN)) it.kind = 'summary';
}

/** A message as the model was sent it: mini-swe-agent strips `extra` before every call. */
function wire(m: unknown): unknown {
  if (!isObject(m)) return m;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(m)) if (key !== 'extra') out[key] = m[key];
  return out;
}

interface Record_ {
  index: number;
  summary: string;
  until: number;
  reason: string | null;
  before: number | null;
  after: number | null;
  timestamp: number | null;
}

function readRecords(root: JsonObject, ctx: ParseContext): Record_[] {
  const list = arr(obj(root, 'compaction') ?? {}, 'records') ?? [];
  const out: Record_[] = [];
  list.forEach((r, i) => {
    const at = { path: ['compaction', 'records', i] };
    const summary = isObject(r) ? str(r, 'summary') : undefined;
    const until = isObject(r) ? num(r, 'compacted_until') : undefined;
    if (!isObject(r) || summary === undefined || until === undefined) {
      ctx.error(at, 'expected a compaction record with `summary` and `compacted_until`');
      return;
    }
    out.push({ index: i, summary, until, reason: str(r, 'reason') ?? null, before: num(r, 'estimated_tokens_before') ?? null, after: num(r, 'estimated_tokens_after') ?? null, timestamp: num(r, 'timestamp') ?? null });
  });
  return out;
}

export const miniSweAgent: FormatAdapter = {
  id: 'mini-swe-agent',
  label: 'mini-swe-agent trajectory',
  // The messages are a Chat Completions container; `extra`, `exit` and the info block are the harness's.
  refines: ['openai-chat'],
  sniff(doc: Document) {
    if (doc.kind !== 'json' || !isObject(doc.value)) return 0;
    const v = doc.value;
    if (!Array.isArray(get(v, 'messages'))) return 0;
    if (str(v, 'trajectory_format')?.startsWith('mini-swe-agent')) return 0.98;
    return strAt(v, 'info.mini_version') !== null ? 0.95 : 0;
  },
  parse(doc, ctx) {
    const root = doc.kind === 'json' && isObject(doc.value) ? doc.value : null;
    const session = emptySession('mini-swe-agent', ctx.file, idFromFile(ctx.file));
    const messages = root ? arr(root, 'messages') : undefined;
    if (!root || !messages) {
      ctx.error({ path: ['messages'] }, 'expected a mini-swe-agent trajectory: an object with a `messages` array');
      return [session];
    }
    session.meta = metaOf(root);
    const configured = strAt(root, 'info.config.model.model_name');
    session.model = configured;
    const records = readRecords(root, ctx);
    const calls: ChatCall[] = [];
    // Which record is in force for each call; filled as the calls are built.
    const firstCallOf = new Map<number, string>();
    let active: Record_ | null = null;
    messages.forEach((m, j) => {
      if (!isObject(m)) {
        ctx.error({ path: ['messages', j] }, `expected a message object, got ${m === null ? 'null' : Array.isArray(m) ? 'an array' : typeof m}`);
        return;
      }
      const role = get(m, 'role');
      const extra = obj(m, 'extra') ?? {};
      const formatError = role === 'user' && str(extra, 'interrupt_type') === 'FormatError';
      if (role !== 'assistant' && !formatError) return;
      const when = num(extra, 'timestamp') ?? null;
      active = recordFor(records, active, j, when);
      if (active && !firstCallOf.has(active.index)) firstCallOf.set(active.index, `call${calls.length + 1}`);
      const input = contextOf(messages, j, active);
      const response = get(extra, 'response');
      const model = (isObject(response) ? str(response, 'model') : undefined) ?? configured;
      const output = formatError ? [{ role: 'assistant', content: str(extra, 'model_response') ?? '' }] : [wire(m)];
      const timestamp = unixSecondsToIso(when ?? undefined);
      calls.push({
        id: `call${calls.length + 1}`,
        messages: input.map((k) => wire(k === -1 ? summaryMessage(active!.summary) : messages[k])),
        at: (i) => ({ path: input[i] === -1 ? ['compaction', 'records', active!.index, 'summary'] : ['messages', input[i]!] }),
        output,
        outputAt: () => ({ path: formatError ? ['messages', j, 'extra', 'model_response'] : ['messages', j] }),
        usage: responseUsage(response),
        model,
        ...(timestamp ? { timestamp } : {}),
        line: null,
      });
    });
    if (records.some((r) => r.timestamp === null)) {
      ctx.warn({ path: ['compaction', 'records'] }, 'a compaction record has no timestamp; it is placed before the first call after its boundary, which may be early');
    }
    addChatCalls(session, calls, ctx, markSummary);
    session.compactions = records.flatMap((r): CompactionEvent[] => {
      const requestId = firstCallOf.get(r.index);
      if (!requestId) return [];
      return [{
        id: `compaction-${r.index + 1}`,
        index: r.index,
        kind: 'summary',
        trigger: r.reason,
        // mini-swe-agent's own estimate (JSON characters / 4), not provider tokens.
        tokensBefore: r.before,
        tokensAfter: r.after,
        replacedIds: [],
        keptIds: [],
        summaryId: null,
        atItemId: null,
        ...(r.timestamp !== null ? { timestamp: unixSecondsToIso(r.timestamp)! } : {}),
        source: { file: ctx.file, line: null },
        log: { strategy: r.reason ?? 'summary', evicted: null, fallback: false, keptIdentifiers: [], lostIdentifiers: [], summary: r.summary, sessionId: null, turn: null, requestId },
      }];
    });
    return [session];
  },
};

/**
 * The record in force for the call that produced message j: the latest one made before that reply arrived
 * (by timestamp), else the latest whose boundary lies before j. Records only ever move forward.
 */
function recordFor(records: Record_[], current: Record_ | null, j: number, when: number | null): Record_ | null {
  let found = current;
  for (const r of records) {
    if (current && r.index <= current.index) continue;
    const before = when !== null && r.timestamp !== null ? r.timestamp <= when : r.until <= j;
    if (before && r.until <= j) found = r;
  }
  return found;
}

/** Indices of the messages call j was sent (-1 stands for the summary message); `exit` never reaches a model. */
function contextOf(messages: unknown[], j: number, active: Record_ | null): number[] {
  const sent = (k: number) => {
    const m = messages[k];
    return isObject(m) && get(m, 'role') !== 'exit';
  };
  const all = [...Array(j).keys()].filter(sent);
  if (!active) return all;
  return [...all.filter((k) => k === 0), -1, ...all.filter((k) => k >= active.until)];
}

function metaOf(root: JsonObject): Session['meta'] {
  const meta: Session['meta'] = {};
  const info = obj(root, 'info');
  if (!info) return meta;
  for (const key of ['instance_cost', 'api_calls'] as const) {
    const v = numAt(info, `model_stats.${key}`);
    if (v !== null) meta[key] = v;
  }
  const exit = str(info, 'exit_status');
  if (exit) meta['exit_status'] = exit;
  const version = str(info, 'mini_version');
  if (version) meta['mini_version'] = version;
  const format = str(root, 'trajectory_format');
  if (format) meta['trajectory_format'] = format;
  const submission = str(info, 'submission');
  if (submission !== undefined) meta['submitted'] = submission.trim().length > 0;
  return meta;
}
