// Claude Code compaction records (compact_boundary + summary, microcompact_boundary) → items and events.
import { arr, num, obj, str, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item, Session } from '../model/types';
import type { ParseContext } from './adapter';
import { thousands as fmt } from '../model/thousands';

/** What Claude Code writes in place of a tool result that microcompact cleared. */
export const CLEARED_TOOL_RESULT = '[Old tool result content cleared]';

export function isClearedToolResult(text: string): boolean {
  const t = text.trim();
  return t.startsWith(CLEARED_TOOL_RESULT) || /^\[[^\]\n]*content cleared[^\]\n]*\]$/i.test(t);
}


/** What the file holds, as a boundary needs it. */
export interface FileFacts {
  /** Whether the file holds a record of this uuid. */
  holds(uuid: string): boolean;
  /** The context the last response before now reported (input, cache and output tokens); null before any. */
  lastContext(): number | null;
}

/**
 * Claude Code's `preTokens` is the context the summarizer read: within a few percent of the context the last response
 * reported, and a boundary's `logicalParentUuid` often names a message never written. A session continued in a new
 * file and compacted there is written back with that boundary: its logical parent is in the other file and the
 * summarizer read far more than this file's last response reported. Both together say the summary covers turns this
 * file lacks (a large tool result after the last response raises the count alone, with its parent held).
 */
export function boundaryCoversUnheldTurns(logicalParent: string | undefined, preTokens: number | null, file: FileFacts): boolean {
  if (logicalParent === undefined || preTokens === null || file.holds(logicalParent)) return false;
  return preTokens > UNHELD_RATIO * (file.lastContext() ?? 0);
}

/** Over real files the ratio of preTokens to the last reported context is 1.00 to 1.11 (105 boundaries, 64 files). */
const UNHELD_RATIO = 1.5;

interface Segment {
  head: string | null;
  tail: string | null;
  uuids: string[] | null;
}

/** `preservedSegment` as recorded: `{headUuid, anchorUuid, tailUuid}`; snake_case or a uuid list accepted too. */
function segmentOf(meta: JsonObject): Segment | null {
  const seg = obj(meta, 'preservedSegment') ?? obj(meta, 'preserved_segment');
  if (!seg) return null;
  const uuids = (arr(seg, 'uuids') ?? arr(seg, 'messageUuids'))?.filter((u): u is string => typeof u === 'string') ?? null;
  return {
    head: str(seg, 'headUuid') ?? str(seg, 'head_uuid') ?? null,
    tail: str(seg, 'tailUuid') ?? str(seg, 'tail_uuid') ?? null,
    uuids,
  };
}

/**
 * Follows what the model had in context through Claude Code's compactions, so each event can say
 * which items it replaced and which it kept. Items must be added in session order.
 */
export class ClaudeCodeCompactions {
  private context: string[] = [];
  private awaitingSummary: CompactionEvent | null = null;
  /** Record uuid → ids of the items it produced. */
  readonly itemsByUuid = new Map<string, string[]>();

  constructor(
    private readonly session: Session,
    private readonly ctx: ParseContext,
    private readonly file: FileFacts = { holds: () => true, lastContext: () => null },
  ) {}

  /** The user cleared the conversation: the model sees none of it from now on, and no summary stands in for it. */
  clear(): void {
    this.context = [];
    this.awaitingSummary = null;
  }

  /** Conversation items the model sees from now on. */
  add(uuid: string | undefined, items: Item[]): void {
    if (uuid !== undefined) {
      // Appended in place: a copy per record (30k in a long session) was the adapter's largest line.
      let ids = this.itemsByUuid.get(uuid);
      if (!ids) this.itemsByUuid.set(uuid, (ids = []));
      for (const item of items) ids.push(item.id);
    }
    for (const item of items) {
      if (item.kind === 'summary' && item.meta?.['isCompactSummary'] === true) this.summary(item);
      else this.context.push(item.id);
    }
  }

  /** A `compact_boundary` record: everything in context is replaced except the preserved segment. */
  boundary(v: JsonObject, line: number, id: string): Item {
    const meta = obj(v, 'compactMetadata') ?? {};
    const trigger = str(meta, 'trigger') ?? null;
    const preTokens = num(meta, 'preTokens') ?? null;
    const kept = this.preserved(meta, line);
    const keptSet = new Set(kept);
    const item: Item = {
      id,
      kind: 'compaction',
      role: 'system',
      text: `Conversation compacted (${[trigger, preTokens !== null ? `${fmt(preTokens)} tokens` : null].filter(Boolean).join(', ') || 'no details recorded'})`,
      source: { file: this.ctx.file, line },
      meta: { trigger, preTokens },
    };
    const timestamp = str(v, 'timestamp');
    if (timestamp) item.timestamp = timestamp;
    const event = this.event('compact', id, line, timestamp, {
      trigger,
      tokensBefore: preTokens,
      tokensAfter: num(meta, 'postTokens') ?? null,
      replacedIds: this.context.filter((i) => !keptSet.has(i)),
      keptIds: kept,
      atItemId: id,
    });
    if (boundaryCoversUnheldTurns(str(v, 'logicalParentUuid'), preTokens, this.file)) event.coversUnheldTurns = true;
    this.context = [...kept];
    this.awaitingSummary = event;
    return item;
  }

  /** A `microcompact_boundary` record: the listed tool results were cleared in place. */
  microcompact(v: JsonObject, line: number, id: string): Item {
    const meta = obj(v, 'microcompactMetadata') ?? {};
    const preTokens = num(meta, 'preTokens') ?? null;
    const saved = num(meta, 'tokensSaved') ?? null;
    const toolIds = new Set((arr(meta, 'compactedToolIds') ?? []).filter((t): t is string => typeof t === 'string'));
    const inContext = new Set(this.context);
    const replacedIds = this.session.items.filter((i) => i.kind === 'tool_result' && i.callId !== undefined && toolIds.has(i.callId) && inContext.has(i.id)).map((i) => i.id);
    if (replacedIds.length < toolIds.size) {
      this.ctx.warn({ line, path: ['microcompactMetadata', 'compactedToolIds'] }, `${toolIds.size - replacedIds.length} of ${toolIds.size} cleared tool ids have no tool result in this session`);
    }
    const details = [`${toolIds.size} tool result${toolIds.size === 1 ? '' : 's'}`, saved !== null ? `${fmt(saved)} tokens saved` : null].filter(Boolean).join(', ');
    const item: Item = {
      id,
      kind: 'compaction',
      role: 'system',
      text: `Tool results cleared (microcompact: ${details})`,
      source: { file: this.ctx.file, line },
      meta: { trigger: str(meta, 'trigger') ?? null, preTokens, tokensSaved: saved },
    };
    const timestamp = str(v, 'timestamp');
    if (timestamp) item.timestamp = timestamp;
    this.event('microcompact', id, line, timestamp, {
      trigger: str(meta, 'trigger') ?? null,
      tokensBefore: preTokens,
      tokensAfter: preTokens !== null && saved !== null ? preTokens - saved : null,
      replacedIds,
      keptIds: [],
      atItemId: id,
    });
    return item;
  }

  /** The `isCompactSummary` user record after a boundary; without a boundary it is a compaction of its own. */
  private summary(item: Item): void {
    let event = this.awaitingSummary;
    if (!event) {
      event = this.event('compact', item.id, item.source.line ?? 0, item.timestamp, {
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: [...this.context],
        keptIds: [],
        atItemId: null,
      });
      this.context = [];
    }
    event.summaryId = item.id;
    this.context.unshift(item.id);
    this.awaitingSummary = null;
  }

  private event(
    kind: CompactionEvent['kind'],
    id: string,
    line: number,
    timestamp: string | undefined,
    f: Pick<CompactionEvent, 'trigger' | 'tokensBefore' | 'tokensAfter' | 'replacedIds' | 'keptIds' | 'atItemId'>,
  ): CompactionEvent {
    const event: CompactionEvent = {
      id,
      index: this.session.compactions.length,
      kind,
      ...f,
      summaryId: null,
      source: { file: this.ctx.file, line },
    };
    if (timestamp) event.timestamp = timestamp;
    this.session.compactions.push(event);
    return event;
  }

  /** Ids of the preserved segment's items that are still in context, in order. */
  private preserved(meta: JsonObject, line: number): string[] {
    const seg = segmentOf(meta);
    if (!seg) return [];
    const inContext = new Set(this.context);
    if (seg.uuids) return seg.uuids.flatMap((u) => this.itemsByUuid.get(u) ?? []).filter((i) => inContext.has(i));
    const at = ['compactMetadata', 'preservedSegment'];
    const head = seg.head ? this.itemsByUuid.get(seg.head)?.[0] : undefined;
    const tailIds = seg.tail ? this.itemsByUuid.get(seg.tail) : undefined;
    const tail = tailIds?.[tailIds.length - 1];
    if (!head || !tail) {
      this.ctx.warn({ line, path: [...at, head ? 'tailUuid' : 'headUuid'] }, 'preserved segment points to a record with no conversation items before this boundary; kept items unknown');
      return [];
    }
    const ids = this.session.items.map((i) => i.id);
    const from = ids.indexOf(head);
    const to = ids.lastIndexOf(tail);
    if (from > to) {
      this.ctx.warn({ line, path: at }, 'preserved segment ends before it starts; kept items unknown');
      return [];
    }
    return ids.slice(from, to + 1).filter((i) => inContext.has(i));
  }
}
