// LiveKit Agents ChatContext: `ChatContext.to_dict()` output `{items: […]}`, or a session report
// `{chat_history: {items: […]}, room?, job_id?, …}`.
//
// Items: message {id, role, content: [string | {type: image_content|audio_content|instructions …}],
// interrupted, created_at, extra}, function_call {id, call_id, name, arguments}, function_call_output
// {id, call_id, name, output, is_error}, agent_handoff {id, old_agent_id, new_agent_id},
// agent_config_update (never sent to the model: counted as skipped).
//
// A summary is a message with `extra.is_summary` or text starting `<chat_history_summary>` /
// `[history summary]`. ChatContext._summarize drops every earlier user/assistant message, tool call
// and output (earlier summaries included) and keeps system/developer messages, handoffs and config
// updates; so a summary replaces every earlier item except those and except what an earlier summary
// already replaced. Our convention: `extra.summarized_ids: [item ids]` names the replaced items exactly.
import type { Document } from '../load/document';
import { arr, asText, bool, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import { classifyText } from '../model/markers';
import type { CompactionEvent, Item, Role } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { countKey } from '../model/dictionary';

const ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output', 'agent_handoff', 'agent_config_update']);
const ROLES = new Map<string, Role>([
  ['system', 'system'],
  ['developer', 'developer'],
  ['user', 'user'],
  ['assistant', 'assistant'],
]);

function itemsOf(value: unknown): { items: unknown[]; path: string[]; report: JsonObject | null } | null {
  if (!isObject(value)) return null;
  const direct = arr(value, 'items');
  if (direct) return { items: direct, path: ['items'], report: null };
  const history = obj(value, 'chat_history');
  const nested = history ? arr(history, 'items') : undefined;
  return nested ? { items: nested, path: ['chat_history', 'items'], report: value } : null;
}

/** Text of a message's content list: strings as they are, audio by transcript, images as `[image]`. */
export function livekitContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return asText(content);
  return content
    .map((c) => {
      if (typeof c === 'string') return c;
      if (!isObject(c)) return '';
      const type = str(c, 'type');
      // Instructions render as their audio variant unless a session switched to text, as LiveKit's str() does.
      if (type === 'instructions') return str(c, 'audio') ?? str(c, 'text') ?? '';
      if (type === 'audio_content') return str(c, 'transcript') ?? '[audio]';
      if (type === 'image_content') return '[image]';
      return `[${type ?? 'content'}]`;
    })
    .join('\n');
}

/** LiveKit's `created_at` is Unix seconds. */
function isoTime(seconds: number | undefined): string | undefined {
  if (seconds === undefined) return undefined;
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Counts a skipped record by type (`constructor` is a type like any other: see model/dictionary.ts). */
function countSkipped(skipped: Record<string, number>, type: string): void {
  countKey(skipped, type);
}

function sniffScore(items: unknown[]): number {
  const sample = items.slice(0, 50).filter(isObject);
  if (sample.length === 0) return 0;
  const typed = sample.filter((it) => ITEM_TYPES.has(str(it, 'type') ?? ''));
  if (typed.length / sample.length < 0.8) return 0;
  // OpenAI Responses items look alike but carry typed content parts and no LiveKit-only fields.
  const partTypes = sample.flatMap((it) => (arr(it, 'content') ?? []).filter(isObject).map((p) => str(p, 'type') ?? ''));
  if (partTypes.some((t) => /^(input|output)_/.test(t))) return 0;
  const unique = sample.some((it) => {
    const type = str(it, 'type');
    return (
      type === 'agent_handoff' ||
      type === 'agent_config_update' ||
      (type === 'function_call_output' && get(it, 'is_error') !== undefined) ||
      (type === 'message' && (get(it, 'interrupted') !== undefined || get(it, 'created_at') !== undefined))
    );
  });
  if (unique) return 0.95;
  const stringContent = sample.some((it) => (arr(it, 'content') ?? []).some((c) => typeof c === 'string'));
  return stringContent ? 0.9 : 0;
}

function summaryCompaction(
  summary: Item,
  index: number,
  earlier: Item[],
  replacedBefore: Set<string>,
  explicit: unknown,
  at: (string | number)[],
  ctx: ParseContext,
): CompactionEvent {
  let replacedIds: string[];
  const structural = (it: Item) => it.role === 'system' || it.role === 'developer' || it.kind === 'handoff';
  if (Array.isArray(explicit)) {
    const known = new Set(earlier.map((it) => it.id));
    replacedIds = [];
    explicit.forEach((id, j) => {
      if (typeof id === 'string' && known.has(id)) replacedIds.push(id);
      else ctx.warn({ path: [...at, 'extra', 'summarized_ids', j] }, `summarized id ${JSON.stringify(id)} is no earlier item of this context`);
    });
  } else {
    replacedIds = earlier.filter((it) => !structural(it) && !replacedBefore.has(it.id)).map((it) => it.id);
  }
  const replaced = new Set(replacedIds);
  return {
    id: `c${index}`,
    index,
    kind: 'summary',
    trigger: null,
    tokensBefore: null,
    tokensAfter: null,
    replacedIds,
    keptIds: earlier.filter((it) => structural(it) && !replaced.has(it.id)).map((it) => it.id),
    summaryId: summary.id,
    atItemId: summary.id,
    ...(summary.timestamp ? { timestamp: summary.timestamp } : {}),
    source: summary.source,
  };
}

export const livekit: FormatAdapter = {
  id: 'livekit',
  label: 'LiveKit ChatContext',
  sniff(doc: Document) {
    if (doc.kind !== 'json') return 0;
    const found = itemsOf(doc.value);
    return found && found.items.length > 0 ? sniffScore(found.items) : 0;
  },
  parse(doc, ctx) {
    const session = emptySession('livekit', ctx.file, idFromFile(ctx.file));
    const found = doc.kind === 'json' ? itemsOf(doc.value) : null;
    if (!found) {
      ctx.error({ path: ['items'] }, 'expected `items` (ChatContext.to_dict) or `chat_history.items` (session report)');
      return [session];
    }
    if (found.report) {
      const room = str(found.report, 'room') ?? str(found.report, 'room_name');
      const job = str(found.report, 'job_id');
      if (room) session.meta['room'] = room;
      if (job) session.meta['jobId'] = job;
      const roomId = str(found.report, 'room_id');
      if (roomId) session.id = roomId;
    }
    const source = { file: ctx.file, line: null };
    const replacedBefore = new Set<string>();
    const seenIds = new Set<string>();
    found.items.forEach((raw, i) => {
      const at = [...found.path, i];
      if (!isObject(raw)) {
        ctx.error({ path: at }, 'expected an item object');
        return;
      }
      const type = str(raw, 'type') ?? (get(raw, 'role') !== undefined ? 'message' : undefined);
      let id = str(raw, 'id') ?? `i${i}`;
      if (seenIds.has(id)) {
        ctx.warn({ path: [...at, 'id'] }, `duplicate item id ${JSON.stringify(id)}; this item is renamed ${id}#${i}`);
        id = `${id}#${i}`;
      }
      seenIds.add(id);
      const timestamp = isoTime(num(raw, 'created_at'));
      const base = { id, source, ...(timestamp ? { timestamp } : {}) };
      switch (type) {
        case 'message': {
          const role = ROLES.get(str(raw, 'role') ?? '');
          if (!role) {
            ctx.error({ path: [...at, 'role'] }, `unknown role ${JSON.stringify(get(raw, 'role'))}; expected system, developer, user or assistant`);
            return;
          }
          const text = livekitContentText(get(raw, 'content'));
          const extra = obj(raw, 'extra');
          const flagged = extra ? bool(extra, 'is_summary') === true : false;
          const cls = classifyText(text);
          const item: Item = { ...base, role, kind: flagged || cls === 'summary' ? 'summary' : cls === 'marker' ? 'omission' : 'message', text };
          if (cls === 'marker') item.omission = { target: 'observation', refs: [], marker: text.trim() };
          const meta: NonNullable<Item['meta']> = {};
          if (bool(raw, 'interrupted') === true) meta['interrupted'] = true;
          if (flagged) meta['isSummary'] = true;
          if (Object.keys(meta).length) item.meta = meta;
          if (item.kind === 'summary') {
            const earlier = session.items.slice();
            const c = summaryCompaction(item, session.compactions.length, earlier, replacedBefore, extra ? get(extra, 'summarized_ids') : undefined, at, ctx);
            for (const r of c.replacedIds) replacedBefore.add(r);
            session.compactions.push(c);
          }
          session.items.push(item);
          return;
        }
        case 'function_call': {
          const callId = str(raw, 'call_id');
          if (!callId) ctx.warn({ path: [...at, 'call_id'] }, 'function call has no call_id; it cannot be paired with its output');
          const name = str(raw, 'name');
          session.items.push({ ...base, role: 'assistant', kind: 'tool_call', text: asText(get(raw, 'arguments')), ...(name ? { name } : {}), ...(callId ? { callId } : {}) });
          return;
        }
        case 'function_call_output': {
          const callId = str(raw, 'call_id');
          if (!callId) ctx.warn({ path: [...at, 'call_id'] }, 'function call output has no call_id; it cannot be paired with its call');
          const name = str(raw, 'name');
          const item: Item = { ...base, role: 'tool', kind: 'tool_result', text: asText(get(raw, 'output')), ...(name ? { name } : {}), ...(callId ? { callId } : {}) };
          if (bool(raw, 'is_error') === true) item.isError = true;
          session.items.push(item);
          return;
        }
        case 'agent_handoff': {
          const from = str(raw, 'old_agent_id');
          const to = str(raw, 'new_agent_id');
          if (!to) ctx.warn({ path: [...at, 'new_agent_id'] }, 'handoff names no new agent');
          const meta: NonNullable<Item['meta']> = { newAgent: to ?? null };
          if (from) meta['oldAgent'] = from;
          session.items.push({ ...base, role: 'system', kind: 'handoff', text: '', name: `${from ?? '(start)'} → ${to ?? '?'}`, meta });
          return;
        }
        case 'agent_config_update':
          // Instructions/tool changes for the next agent: LiveKit never sends these items to the model.
          countSkipped(session.skipped, 'agent_config_update');
          return;
        default:
          ctx.warn({ path: [...at, 'type'] }, `unknown item type ${JSON.stringify(get(raw, 'type'))}; skipped`);
          countSkipped(session.skipped, type ?? 'unknown');
      }
    });
    return [session];
  },
};
