// Model calls whose exact input messages a harness recorded (SWE-agent `query`, mini-swe-agent messages): each
// call becomes a RecordedRequest, so what the model saw comes from the file, not from a replay. Repeated messages
// keep one id across calls (as in request logs); a message a history processor elided in place becomes a
// placeholder that names the content it stands in for, so the inspector shows that content as masked.
import { pairToolCalls } from '../model/pairing';
import type { Item, ModelResponse, RecordedRequest, Session, Usage } from '../model/types';
import type { At, ParseContext } from './adapter';
import { chatMessagesToItems } from './openai-chat';
import { ContentIds } from './request-log';

export interface ChatCall {
  /** Request id, unique in the session. */
  id: string;
  /** The messages the model was sent, in Chat Completions shape. */
  messages: unknown[];
  /** Where message i is in the file. */
  at(i: number): At;
  /** What the model answered (assistant messages), when recorded. */
  output: unknown[];
  outputAt(i: number): At;
  usage: Usage | null;
  model: string | null;
  timestamp?: string;
  line: number | null;
}

/**
 * Labels an item from its text the way its harness wrote it: a placeholder for content taken out (set
 * `omission`), or a summary the harness inserted (set `kind`).
 */
export type ItemRule = (item: Item) => void;

/**
 * Fills `session.requests`, `session.responses` and `session.items` from the calls, in order; the session's
 * items are the first-seen copies of every distinct message.
 */
export function addChatCalls(session: Session, calls: ChatCall[], ctx: ParseContext, rule: ItemRule | null = null): void {
  const ids = new ContentIds();
  let previous: Item[] = [];
  const seen = new Set<string>();
  for (const call of calls) {
    const index = session.requests.length;
    const base = `r${index}.`;
    const ts = call.timestamp ? { timestamp: call.timestamp } : {};
    const counts = new Map<string, number>();
    const raw = chatMessagesToItems(call.messages, ctx, call.at, `${base}m`);
    if (rule) for (const it of raw) rule(it);
    const items = ids.canonical(raw, counts, base, {});
    // A placeholder first seen here stands in for whatever the previous call held at its place.
    items.forEach((it, k) => {
      if (seen.has(it.id) || !it.omission || it.omission.refs.length > 0) return;
      const was = previous[k];
      if (was && !was.omission && was.role === it.role && was.id !== it.id) it.omission = { ...it.omission, refs: [was.id] };
    });
    for (const it of items) seen.add(it.id);
    const responseId = `${call.id}.response`;
    const output = ids.canonical(chatMessagesToItems(call.output, ctx, call.outputAt, `${base}o`), counts, base, { responseId, ...ts });
    for (const it of output) seen.add(it.id);
    pairToolCalls(items);
    const source = { file: ctx.file, line: call.line };
    const request: RecordedRequest = { id: call.id, index, ...ts, model: call.model, api: 'openai-chat', items, tools: null, output, usage: call.usage, source };
    session.requests.push(request);
    const response: ModelResponse = { id: responseId, index: session.responses.length, itemIds: output.map((it) => it.id), usage: call.usage, model: call.model, ...ts, source };
    session.responses.push(response);
    previous = items;
  }
  session.items = ids.firstSeen;
  session.model = session.model ?? calls.find((c) => c.model)?.model ?? null;
}
