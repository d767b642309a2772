// Codex compaction: a `compacted` record replaces the history with `replacement_history`.
import { get, isObject, str, type JsonObject } from '../model/narrow';
import { redactionHint } from '../model/markers';
import type { CompactionEvent, Item, Session } from '../model/types';
import type { ParseContext } from './adapter';
import { codexItem } from './codex-items';
import { userWordsOf } from '../model/harness-messages';

/** Opaque summaries that server-side compaction returns instead of text. */
const ENCRYPTED_SUMMARY_TYPES = new Set(['compaction', 'compaction_summary']);

const keyOf = (i: Pick<Item, 'kind' | 'role' | 'text'>) => `${i.kind}\u0000${i.role}\u0000${i.text}`;

/**
 * Follows what the model had in context through Codex's compactions. A `compacted` record and the
 * `event_msg` `context_compacted` written beside it (before or after) are one compaction.
 */
export class CodexCompactions {
  private context: string[] = [];
  private readonly byId = new Map<string, Item>();
  private last: { event: CompactionEvent; from: 'compacted' | 'event'; joined: boolean } | null = null;
  private itemsSinceLast = 0;

  constructor(
    private readonly session: Session,
    private readonly ctx: ParseContext,
  ) {}

  add(item: Item): void {
    this.byId.set(item.id, item);
    this.context.push(item.id);
    this.itemsSinceLast++;
  }

  /**
   * The `thread_rolled_back` event (the user took the last `numTurns` turns back): the ids leaving the context, as
   * codex-rs `drop_last_n_user_turns` cuts the history. It cuts at the `numTurns`-th user message from the end (all of
   * them when there are fewer; a message the harness wrote, as `<environment_context>` or `<turn_aborted>`, is none),
   * and takes with it the context updates the harness put just before that turn (developer and harness-written user
   * messages: `trim_pre_turn_context_updates`), never what came before the first turn.
   */
  rollBack(numTurns: number): string[] {
    const turns = this.context.flatMap((id, k) => (userWordsOf(this.byId.get(id)!) !== null ? [k] : []));
    if (numTurns <= 0 || turns.length === 0) return [];
    let cut = numTurns >= turns.length ? turns[0]! : turns[turns.length - numTurns]!;
    const update = (it: Item) => it.kind === 'message' && (it.role === 'developer' || it.role === 'system' || (it.role === 'user' && userWordsOf(it) === null));
    while (cut > turns[0]! && update(this.byId.get(this.context[cut - 1]!)!)) cut--;
    const gone = this.context.slice(cut);
    this.context = this.context.slice(0, cut);
    return gone;
  }

  /** The `compacted` record; returns the items it adds (marker, summary, new context items). */
  compacted(p: JsonObject, line: number, timestamp: string | undefined): Item[] {
    const out: Item[] = [];
    let n = 0;
    const nextId = () => `L${line}.${n++}`;
    const base = (kind: Item['kind'], role: Item['role'], text: string): Item => {
      const item: Item = { id: nextId(), kind, role, text, source: { file: this.ctx.file, line } };
      if (timestamp) item.timestamp = timestamp;
      return item;
    };
    const rawMessage = get(p, 'message');
    if (rawMessage !== undefined && typeof rawMessage !== 'string') this.ctx.error({ line, path: ['payload', 'message'] }, 'compacted message is not a string');
    const message = typeof rawMessage === 'string' ? rawMessage : '';
    const rawHistory = get(p, 'replacement_history');
    if (rawHistory !== undefined && rawHistory !== null && !Array.isArray(rawHistory)) {
      this.ctx.error({ line, path: ['payload', 'replacement_history'] }, 'replacement_history is not an array');
    }
    const history = Array.isArray(rawHistory) ? rawHistory : null;

    const reuse = this.last && this.last.from === 'event' && !this.last.joined && this.itemsSinceLast === 0 ? this.last.event : null;
    let marker: Item | null = null;
    if (!reuse) {
      marker = base('compaction', 'system', `Context compacted (${history ? `replacement history of ${history.length} item${history.length === 1 ? '' : 's'}` : 'no replacement history recorded'})`);
      out.push(marker);
    }

    // The summary: the recorded text, or the opaque item server-side compaction returns.
    let summary: Item | null = null;
    const encrypted = history?.find((h) => isObject(h) && ENCRYPTED_SUMMARY_TYPES.has(String(get(h, 'type'))));
    if (message.trim()) {
      summary = base('summary', 'user', message);
    } else if (isObject(encrypted)) {
      const enc = str(encrypted, 'encrypted_content') ?? '';
      const hint = redactionHint(enc);
      summary = base('summary', 'user', hint ? enc.trim() : '[encrypted compaction summary]');
      if (hint) summary.redacted = hint;
      summary.meta = { encrypted: true };
    }
    if (summary) {
      const hint = summary.redacted ?? redactionHint(summary.text);
      if (hint) summary.redacted = hint;
      out.push(summary);
    }

    const kept: string[] = [];
    const next: string[] = [];
    let summaryPlaced = false;
    if (history) {
      const used = new Set<string>();
      history.forEach((h, k) => {
        const at = ['payload', 'replacement_history', k];
        if (!isObject(h)) {
          this.ctx.error({ line, path: at }, 'replacement history entry is not an object');
          return;
        }
        if (ENCRYPTED_SUMMARY_TYPES.has(String(get(h, 'type')))) {
          if (summary && !summaryPlaced) {
            next.push(summary.id);
            summaryPlaced = true;
          }
          return;
        }
        const conv = codexItem(h, 'pending', line, this.ctx, at);
        if (!conv) return;
        // Codex sends the summary as a user message (with a preamble); that entry is the summary.
        if (summary && !summaryPlaced && message.trim() && conv.item.text.includes(message.trim())) {
          summary.role = conv.item.role;
          next.push(summary.id);
          summaryPlaced = true;
          return;
        }
        const key = keyOf(conv.item);
        const match = this.context.find((id) => !used.has(id) && this.byId.get(id) && keyOf(this.byId.get(id)!) === key);
        if (match) {
          used.add(match);
          kept.push(match);
          next.push(match);
          return;
        }
        const fresh: Item = { ...conv.item, id: nextId(), meta: { ...conv.item.meta, replacementHistory: true } };
        if (timestamp) fresh.timestamp = timestamp;
        out.push(fresh);
        next.push(fresh.id);
      });
    }
    if (summary && !summaryPlaced) next.push(summary.id);

    const keptSet = new Set(kept);
    // Codex records no size with a compaction: its tokens before stay null, so the session's facts take the last
    // reported prompt and say so ('reported', not 'recorded').
    const fields = {
      replacedIds: this.context.filter((id) => !keptSet.has(id)),
      keptIds: kept,
      summaryId: summary?.id ?? null,
      // Server-side compaction returns only an encrypted summary: the audit cannot read what it kept.
      ...(summary?.meta?.['encrypted'] === true ? { opaque: true } : {}),
    };
    if (reuse) {
      Object.assign(reuse, fields);
      this.last = { event: reuse, from: 'compacted', joined: true };
    } else {
      const event = this.event(marker!, line, timestamp);
      Object.assign(event, fields);
      this.last = { event, from: 'compacted', joined: false };
    }
    for (const item of out) this.byId.set(item.id, item);
    this.context = next;
    this.itemsSinceLast = 0;
    return out;
  }

  /** The `context_compacted` event: joins the `compacted` record beside it, or stands alone. */
  contextCompacted(line: number, timestamp: string | undefined): Item[] {
    if (this.last && this.last.from === 'compacted' && !this.last.joined && this.itemsSinceLast === 0) {
      this.last.joined = true;
      return [];
    }
    const marker: Item = { id: `L${line}`, kind: 'compaction', role: 'system', text: 'Context compacted', source: { file: this.ctx.file, line } };
    if (timestamp) marker.timestamp = timestamp;
    // Without a replacement history nothing says what was replaced: the lists stay empty.
    const event = this.event(marker, line, timestamp);
    this.last = { event, from: 'event', joined: false };
    this.itemsSinceLast = 0;
    return [marker];
  }

  private event(marker: Item, line: number, timestamp: string | undefined): CompactionEvent {
    const event: CompactionEvent = {
      id: marker.id,
      index: this.session.compactions.length,
      kind: 'replacement',
      trigger: 'auto',
      tokensBefore: null,
      tokensAfter: null,
      replacedIds: [],
      keptIds: [],
      summaryId: null,
      atItemId: marker.id,
      source: { file: this.ctx.file, line },
    };
    if (timestamp) event.timestamp = timestamp;
    this.session.compactions.push(event);
    return event;
  }
}
