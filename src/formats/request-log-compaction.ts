// Provider-side compaction in a request log: an Anthropic `compaction` block (beta compact-2026-01-12) or an
// OpenAI Responses `compaction` item, passed back in later requests. The provider reads nothing before the
// latest one, so a logged request holds more than the model saw; and the compaction itself is an event.
import { arr, get, isObject, num, str, type JsonObject } from '../model/narrow';
import { promptTokens } from '../model/usage';
import type { CompactionEvent, Item, RecordedRequest } from '../model/types';
import { isAnthropicCompaction } from './anthropic';
import { isOpaqueCompaction } from './openai-responses-compaction';
import { isResponsesCompaction } from './openai-responses';

/** What a logged call tells about compaction beyond its items. */
export interface CallCompactionFacts {
  /** A `/responses/compact` call: its output replaces the input of the next call. */
  endpoint: boolean;
  /** Anthropic `usage.iterations`: the prompt of the compaction pass and of the message pass, when reported. */
  compactionPrompt: number | null;
  messagePrompt: number | null;
}

const INSTRUCTION_ROLES = new Set<Item['role']>(['system', 'developer']);

export function isProviderCompaction(item: Item): boolean {
  return isAnthropicCompaction(item) || isResponsesCompaction(item);
}

/** `/responses/compact` as the record's URL or path says, or its response's `object`. */
export function isCompactEndpoint(record: JsonObject, response: JsonObject | null): boolean {
  const request = get(record, 'request');
  const url = str(record, 'url') ?? str(record, 'path') ?? str(record, 'endpoint') ?? (isObject(request) ? (str(request, 'url') ?? str(request, 'path')) : undefined);
  if (url !== undefined && /\/responses\/compact\/?(\?|$)/.test(url)) return true;
  return response !== null && str(response, 'object') === 'response.compaction';
}

/** Prompt tokens of one `usage.iterations` entry of the given type (input plus cache reads and writes). */
function iterationPrompt(usage: unknown, type: 'compaction' | 'message'): number | null {
  const list = isObject(usage) ? arr(usage, 'iterations') : undefined;
  const entry = list?.find((e) => isObject(e) && get(e, 'type') === type);
  if (!isObject(entry)) return null;
  const input = num(entry, 'input_tokens');
  if (input === undefined) return null;
  return input + (num(entry, 'cache_read_input_tokens') ?? 0) + (num(entry, 'cache_creation_input_tokens') ?? 0);
}

export function callCompactionFacts(record: JsonObject, response: JsonObject | null): CallCompactionFacts {
  const usage = response ? get(response, 'usage') : undefined;
  return { endpoint: isCompactEndpoint(record, response), compactionPrompt: iterationPrompt(usage, 'compaction'), messagePrompt: iterationPrompt(usage, 'message') };
}

/**
 * The items the model saw: instructions, then the latest compaction and what follows it. Items a
 * `/responses/compact` call returned beside its compaction item (the user messages it keeps) stay too.
 */
export function effectiveContext(items: Item[], retained: ReadonlySet<string>): Item[] {
  let last = -1;
  items.forEach((it, k) => {
    if (isProviderCompaction(it)) last = k;
  });
  if (last < 0) return items;
  return items.filter((it, k) => k >= last || INSTRUCTION_ROLES.has(it.role) || retained.has(it.id));
}

function reportedPrompt(r: RecordedRequest | undefined): number | null {
  return r?.usage ? promptTokens(r.usage) : null;
}

/**
 * One `server` event per compaction item, at the first call whose input carries it. Tokens before and after, from
 * the call that produced it:
 * - an Anthropic compaction pass (the `compaction` block leads the response): the compaction pass's prompt and the
 *   message pass's, from `usage.iterations`; without them, the last reported prompt before it and that call's own
 *   (it answered from the compacted context);
 * - a `/responses/compact` call: its own prompt, and the next call's;
 * - a message call whose output ends with a `compaction` item (OpenAI Responses `[message, compaction]`): its input
 *   was still the whole history, so the compaction happens before the next call — before is its prompt plus its
 *   output, after the next call's prompt.
 * A compaction in the last call's response, which no later request carries, is an event all the same (after the
 * last call).
 * The replaced and kept items are left to the request diff, which sees both calls.
 */
export function serverCompactions(requests: RecordedRequest[], facts: CallCompactionFacts[], firstIndex: number): CompactionEvent[] {
  const events: CompactionEvent[] = [];
  const seen = new Set<string>();
  const producedAt = new Map<string, { call: number; item: Item }>();
  const push = (it: Item, k: number | undefined, j: number, r: RecordedRequest) => {
    const f = k !== undefined ? facts[k] : undefined;
    let before: number | null;
    let after: number | null;
    if (k !== undefined && f) {
      const out = requests[k]!.output;
      const trailing = !f.endpoint && out.indexOf(it) > 0 && f.compactionPrompt === null;
      if (trailing) {
        const p = reportedPrompt(requests[k]);
        before = p === null ? null : p + (requests[k]!.usage?.output ?? 0);
        after = firstPrompt(requests, k + 1);
      } else {
        // The call that compacted: a compact call read the whole history; a message call that compacted
        // on the way answered from the compacted context, so its own prompt is already "after".
        before = f.compactionPrompt ?? (f.endpoint ? reportedPrompt(requests[k]) : lastPrompt(requests, k));
        after = f.messagePrompt ?? (f.endpoint ? firstPrompt(requests, k + 1) : reportedPrompt(requests[k]));
      }
    } else {
      before = lastPrompt(requests, j);
      after = firstPrompt(requests, j);
    }
    events.push({
      id: `server-${it.id}`,
      index: firstIndex + events.length,
      kind: 'server',
      trigger: f?.endpoint ? 'responses/compact' : null,
      tokensBefore: before,
      tokensAfter: after,
      replacedIds: [],
      keptIds: [],
      summaryId: it.id,
      atItemId: it.id,
      ...(isOpaqueCompaction(it) ? { opaque: true } : {}),
      ...(r.timestamp ? { timestamp: r.timestamp } : {}),
      source: it.source,
    });
  };
  requests.forEach((r, j) => {
    for (const it of r.items) {
      if (!isProviderCompaction(it) || seen.has(it.id)) continue;
      seen.add(it.id);
      push(it, producedAt.get(it.id)?.call, j, r);
    }
    for (const it of r.output) if (isProviderCompaction(it) && !producedAt.has(it.id)) producedAt.set(it.id, { call: j, item: it });
  });
  // Produced by a call, carried by none after it: the log ends before the next request.
  for (const [id, { call, item }] of producedAt) {
    if (seen.has(id)) continue;
    seen.add(id);
    push(item, call, requests.length, requests[call]!);
  }
  return events;
}

/** Last reported prompt of a call before call `j`. */
function lastPrompt(requests: RecordedRequest[], j: number): number | null {
  for (let i = j - 1; i >= 0; i--) {
    const p = reportedPrompt(requests[i]);
    if (p !== null) return p;
  }
  return null;
}

/** First reported prompt of a call from call `j` on. */
function firstPrompt(requests: RecordedRequest[], j: number): number | null {
  for (let i = j; i < requests.length; i++) {
    const p = reportedPrompt(requests[i]);
    if (p !== null) return p;
  }
  return null;
}
