// Messages a person types while Claude Code works: `queue-operation` records and `queued_command` attachments.
//
// The convention, read from real session files (docs/formats.md, Claude Code section):
// - `enqueue` (with `content`) puts a text on the queue;
// - `dequeue` takes it as the next prompt when the turn ends: a `user` record repeats it, so nothing is added here;
// - `remove` takes it mid-turn: Claude Code sends it beside the tool results it has just written, to the next model
//   call. Versions from 2.1.101 on (seen in 2.1.101, 2.1.150, 2.1.217) also write a `queued_command` attachment
//   record with the text (`prompt`); older ones (2.1.38 to 2.1.92) write nothing else, and the text is only in the
//   `enqueue`, and a `remove` takes the oldest text the person typed, ahead of the harness's entries. A slash command queued this way reaches the model as plain text (2.1.38 "/mcp": "Let me check the MCP
//   servers status");
// - `popAll` hands the queue back to the prompt box (the person edits it): nothing is sent until a `user` record;
// - `remove`s with no model call after them, before the next prompt, are a clean-up (2.1.49 drops its background
//   task records that way, dozens at one instant): nothing was sent.
import { get, isObject, obj, str, type JsonObject } from '../model/narrow';
import type { Item } from '../model/types';
import { originKind } from './claude-code-items';
import type { TreeRecord } from './claude-code-tree';

interface Queued {
  text: string;
  line: number;
  timestamp: string | undefined;
}

/** The text of a `queued_command` attachment, or undefined for any other record. */
export function queuedCommandText(v: JsonObject): string | undefined {
  if (get(v, 'type') !== 'attachment') return undefined;
  const a = obj(v, 'attachment');
  if (!a || get(a, 'type') !== 'queued_command') return undefined;
  const prompt = get(a, 'prompt');
  if (typeof prompt === 'string') return prompt;
  // Pasted images come as content blocks: the text parts are what can be read here.
  if (Array.isArray(prompt)) return prompt.map((b) => (isObject(b) ? (str(b, 'text') ?? `[${str(b, 'type') ?? 'block'}]`) : '')).join('\n');
  return undefined;
}

/**
 * Who wrote a `queued_command` attachment's text, as Claude Code's attachment renderer reads it: the attachment's
 * `origin.kind`, else `task-notification` for a `commandMode` of that name (older records carry no origin), else
 * undefined (the person's, as `origin.kind` `human` is).
 */
export function queuedCommandOrigin(v: JsonObject): string | undefined {
  const a = obj(v, 'attachment');
  if (!a) return undefined;
  return originKind(get(a, 'origin')) ?? (get(a, 'commandMode') === 'task-notification' ? 'task-notification' : undefined);
}

/**
 * Background-task bookkeeping Claude Code 2.1.4x puts on the same queue as a JSON object (`{"task_id":…}`); the
 * model reads the `<task-notification>` queued beside it, never the object.
 */
function isBookkeeping(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    return isObject(JSON.parse(t));
  } catch {
    return false;
  }
}

/** A background-task record or a task notification: the harness's entries on the queue, not the person's. */
function isHarnessEntry(text: string): boolean {
  return isBookkeeping(text) || text.trimStart().startsWith('<task-notification>');
}

/** A prompt the person (or the harness, for a dequeued notification) sent as a turn of its own: no tool result. */
function isPromptRecord(v: JsonObject): boolean {
  if (get(v, 'type') !== 'user' || get(v, 'isMeta') === true) return false;
  const message = obj(v, 'message');
  const content = message ? get(message, 'content') : undefined;
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  return !content.some((b) => isObject(b) && typeof get(b, 'type') === 'string' && String(get(b, 'type')).endsWith('tool_result'));
}

/** The `compact_boundary` record Claude Code writes where a compaction took effect. */
const isCompactBoundary = (v: JsonObject): boolean => get(v, 'type') === 'system' && get(v, 'subtype') === 'compact_boundary';

/** A record of a model call (not Claude Code's `<synthetic>` error notes, which no model wrote). */
function isCallRecord(v: JsonObject): boolean {
  if (get(v, 'type') !== 'assistant') return false;
  const message = obj(v, 'message');
  return !!message && get(message, 'model') !== '<synthetic>';
}

/**
 * The queued texts that reached the model with no record of their own (a `remove` without a `queued_command`
 * attachment of the same text), by the position of the record they go before: the first model call after the
 * `remove`. One pass over the records.
 */
export function queuedDeliveries(records: readonly TreeRecord[]): Map<number, Queued[]> {
  const out = new Map<number, Queued[]>();
  let pending: Queued[] = [];
  // Taken mid-turn, waiting for the next model call; and the attachments written since the last call.
  let taken: Queued[] = [];
  let attached: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const v = records[i]!.value;
    const type = get(v, 'type');
    if (type === 'queue-operation') {
      const op = get(v, 'operation');
      const content = str(v, 'content');
      if (op === 'enqueue') {
        if (content !== undefined) pending.push({ text: content, line: records[i]!.line, timestamp: str(v, 'timestamp') });
        continue;
      }
      if (op === 'popAll') {
        pending = [];
        continue;
      }
      if (op !== 'remove' && op !== 'dequeue') continue;
      // Newer versions name the text they take. Older ones take the oldest text the person typed before any harness
      // entry: the queue serves a typed message before the background-task records and notifications queued ahead
      // of it (2.1.49: "can you commit changes to each section atomically?" queued behind a task's record and its
      // notification, one `remove`, and the agent's next words answer the message; the records go in a later
      // clean-up). With no typed text queued, the oldest.
      let k = content === undefined ? pending.findIndex((q) => !isHarnessEntry(q.text)) : pending.findIndex((q) => q.text === content);
      if (k < 0) k = 0;
      const [q] = pending.splice(k, 1);
      if (q && op === 'remove' && !isBookkeeping(q.text)) taken.push(q);
      continue;
    }
    const text = queuedCommandText(v);
    if (text !== undefined) {
      attached.push(text);
      continue;
    }
    // A compaction is a model call too: a text taken just before Claude Code compacts goes to the summarizer (its
    // summary quotes it, and the first call after the summary answers it).
    if (isCallRecord(v) || isCompactBoundary(v)) {
      const sent = taken.filter((q) => !attached.includes(q.text));
      if (sent.length) out.set(i, sent);
      taken = [];
      attached = [];
    } else if (isPromptRecord(v)) {
      // The turn ended before another call: what was removed was not sent.
      taken = [];
      attached = [];
    }
  }
  return out;
}

/**
 * The user item of a queued text (source: the record that holds the text). Its origin, when the record names one, and
 * else its opening decide whose words it is (model/harness-messages.ts).
 */
export function queuedItem(id: string, text: string, file: string, line: number, timestamp: string | undefined, origin?: string): Item {
  const item: Item = { id, kind: 'message', role: 'user', text, source: { file, line }, meta: origin === undefined ? { queued: true } : { queued: true, origin } };
  if (timestamp) item.timestamp = timestamp;
  return item;
}
