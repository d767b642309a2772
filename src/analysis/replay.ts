// Rebuilds what the model saw at each call by replaying a transcript's recorded compactions.
import type { CompactionEvent, Item, Session } from '../model/types';
import { modelCalls } from './calls';
import type { CallContext, EvictionLabel } from './context-types';
import { ContextTimeline, type Span } from './context-timeline';

/** Why an item left (or changed in) the live context, as of the compaction that did it. */
export interface Removal {
  label: Exclude<EvictionLabel, 'verbatim'>;
  /** The compaction that took the item out; null when the user's `/clear` did. */
  compactionId: string | null;
  /** Index of the first call that no longer saw the item verbatim. */
  fromCall: number;
}

export interface Replay {
  calls: CallContext[];
  /** Per original item id: what happened to it, if anything did. */
  removals: Map<string, Removal>;
  /** Every call's context as spans (an item's stretch of consecutive calls that were sent it). */
  spans: readonly Span[];
  /** Where the calls' entries are read from when they are not stored per call (a replayed transcript). */
  timeline: ContextTimeline | null;
}

/**
 * Formats whose files never record the system prompt or the tool schemas the harness sent. The OpenHands SDK
 * records its system prompt but not the tools' parameter schemas.
 */
const PREFIX_UNRECORDED = new Set<Session['format']>(['claude-code', 'codex', 'openhands', 'openhands-sdk', 'cline', 'gemini-cli']);

/** The wire API behind formats that record only one provider's sessions; it decides cache rules. */
const API_OF_FORMAT: Partial<Record<Session['format'], CallContext['api']>> = {
  'claude-code': 'anthropic',
  anthropic: 'anthropic',
  codex: 'openai-responses',
  'openai-responses': 'openai-responses',
  'openai-chat': 'openai-chat',
  // Cline and Roo keep Anthropic-style history whatever the provider; most tasks run on Claude.
  cline: 'anthropic',
};

const CLEARED_TEXT = '[Old tool result content cleared]';

function isMarker(item: Item | undefined): boolean {
  return !!item && item.kind === 'omission' && item.omission?.target === 'turns';
}

/** How a compaction's removals are labelled in the eviction map. */
function labelFor(c: CompactionEvent, summary: Item | undefined): Removal['label'] {
  if (c.kind === 'microcompact') return 'masked';
  if (c.kind === 'omission') return 'omitted';
  if (!summary || isMarker(summary)) return 'dropped';
  return 'summarized';
}

/** Items a model never receives as input: compaction records are bookkeeping of the harness. */
function sentToModel(item: Item): boolean {
  return item.kind !== 'compaction';
}

export function replayTranscript(session: Session): Replay {
  const byId = new Map(session.items.map((it) => [it.id, it]));
  const position = new Map(session.items.map((it, i) => [it.id, i]));
  const calls = modelCalls(session);
  const callAt = new Map<number, number>();
  calls.forEach((call, ci) => {
    const first = call.itemIds.map((id) => position.get(id)).filter((p): p is number => p !== undefined);
    if (first.length) callAt.set(Math.min(...first), ci);
  });
  // A compaction takes effect where it is recorded: its boundary, else its summary, else its first kept item.
  const compactionAt = new Map<number, CompactionEvent[]>();
  for (const c of session.compactions) {
    const anchor = [c.atItemId, c.summaryId].map((id) => (id ? position.get(id) : undefined)).find((p) => p !== undefined);
    if (anchor === undefined) continue;
    compactionAt.set(anchor, [...(compactionAt.get(anchor) ?? []), c]);
  }

  // The live context as open spans by item id (a compaction touches only what it replaces); a call's list is
  // read back from the timeline when needed.
  const live = new Map<string, Span>();
  const spans: Span[] = [];
  let liveSystem = 0;
  const isSystem = (it: Item) => it.role === 'system' || it.role === 'developer';
  const open = (item: Item, order: number) => {
    const span: Span = { item, from: callsSeen, to: -1, order };
    spans.push(span);
    live.set(item.id, span);
    if (isSystem(item)) liveSystem++;
    return span;
  };
  const close = (span: Span) => {
    span.to = callsSeen;
    live.delete(span.item.id);
    if (isSystem(span.item)) liveSystem--;
  };
  const inserted = new Set<string>();
  const removals = new Map<string, Removal>();
  const out: CallContext[] = [];
  let pendingCompaction: string | null = null;
  let callsSeen = 0;
  let timeline: ContextTimeline | null = null;

  const apply = (c: CompactionEvent, at: number) => {
    const summary = c.summaryId ? byId.get(c.summaryId) : undefined;
    const label = labelFor(c, summary);
    const replaced = new Set(c.replacedIds);
    const gone = [...replaced].map((id) => live.get(id)).filter((x): x is Span => !!x);
    if (label === 'masked') {
      for (const sp of gone) {
        close(sp);
        open({ ...sp.item, text: sp.item.omission?.marker ?? CLEARED_TEXT, omission: { target: 'tool_result', refs: [], marker: CLEARED_TEXT } }, sp.order);
      }
    } else if (c.restatedIn !== undefined) {
      // The next context starts over from the item that restates the summary and the kept items (Self-Sum's
      // U^(k), an iterated-summarization prompt): everything before it but the system prompt goes, and the
      // summary is never sent on its own.
      for (const sp of [...live.values()]) {
        if (isSystem(sp.item)) continue;
        close(sp);
        if (!replaced.has(sp.item.id) && !removals.has(sp.item.id)) removals.set(sp.item.id, { label, compactionId: c.id, fromCall: callsSeen });
      }
      if (summary) {
        inserted.add(summary.id);
        if (!removals.has(summary.id)) removals.set(summary.id, { label, compactionId: c.id, fromCall: callsSeen });
      }
    } else {
      // The summary takes the place of the first item it replaced (which no context holds any more), else the end.
      const first = gone.reduce<Span | null>((m, sp) => (m === null || sp.order < m.order ? sp : m), null);
      for (const sp of gone) close(sp);
      if (summary && !inserted.has(summary.id)) {
        open(summary, first ? first.order : at - 0.5);
        inserted.add(summary.id);
      }
    }
    for (const id of replaced) if (!removals.has(id)) removals.set(id, { label, compactionId: c.id, fromCall: callsSeen });
    pendingCompaction = c.id;
  };

  session.items.forEach((item, i) => {
    // The user took the last turns back before this item (Codex's thread rollback): the model is sent none of them
    // from here on. No compaction did it, so no removal names one.
    if (item.rollsBack)
      for (const id of item.rollsBack) {
        const sp = live.get(id);
        if (!sp) continue;
        close(sp);
        if (!removals.has(id)) removals.set(id, { label: 'rolled-back', compactionId: null, fromCall: callsSeen });
      }
    // A call whose own output is the summary (Self-Sum) was sent the context before that summary existed.
    const startsCall = callAt.has(i);
    if (!startsCall) for (const c of compactionAt.get(i) ?? []) apply(c, i);
    const ci = callAt.get(i);
    if (ci !== undefined) {
      const call = calls[ci]!;
      const index = out.length;
      out.push({
        index,
        id: call.id,
        get entries() {
          return timeline!.entriesAt(index);
        },
        output: call.itemIds.map((id) => byId.get(id)).filter((x): x is Item => !!x),
        tools: null,
        usage: call.usage,
        model: call.model,
        api: API_OF_FORMAT[session.format] ?? null,
        prefixUnrecorded: PREFIX_UNRECORDED.has(session.format) || liveSystem === 0,
        compactionId: pendingCompaction,
        recorded: false,
        ...(call.timestamp ? { timestamp: call.timestamp } : {}),
        ...(call.process ? { process: call.process } : {}),
      });
      pendingCompaction = null;
      callsSeen++;
      for (const c of compactionAt.get(i) ?? []) apply(c, i);
    }
    // The user cleared the conversation (Claude Code 1.0 wrote on in the same file): the model sees none of it from
    // here on but the system prompt. No compaction did it, so no removal names one.
    if (item.meta?.['clearsContext'] === true)
      for (const sp of [...live.values()]) {
        if (isSystem(sp.item)) continue;
        close(sp);
        if (!removals.has(sp.item.id)) removals.set(sp.item.id, { label: 'cleared', compactionId: null, fromCall: callsSeen });
      }
    if (sentToModel(item) && !inserted.has(item.id)) {
      // An item that supersedes another (the OpenHands SDK's SystemPromptUpdateEvent) takes its place from here on.
      const replaced = item.supersedes !== undefined ? live.get(item.supersedes) : undefined;
      if (replaced) close(replaced);
      open(item, replaced ? replaced.order : i);
      inserted.add(item.id);
    }
  });
  for (const s of live.values()) s.to = callsSeen;
  // An item taken out before any call was sent it leaves an empty span: no context holds it.
  timeline = new ContextTimeline(spans.filter((sp) => sp.to > sp.from), callsSeen);
  return { calls: out, removals, spans: timeline.spans, timeline };
}
