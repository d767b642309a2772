// Merges the parts of an OpenHands SDK conversation (one event per file, plus base_state.json) into one session,
// replaying the SDK's own view rules: a Condensation forgets events by id and inserts its summary at
// `summary_offset` of the resulting view.
import { pairToolCalls } from '../model/pairing';
import type { CompactionEvent, Item, ModelResponse, ParseIssue, Session, Usage } from '../model/types';
import { emptySession } from './adapter';

/** Meta keys a part carries for the merge; merged sessions keep only the conversation key until the join ends. */
export const PART = {
  kind: 'openhandsSdkPart',
  seq: 'eventSeq',
  conversation: 'openhandsConversation',
  request: 'condensationRequest',
} as const;

const metaString = (s: Session, key: string): string | null => {
  const v = s.meta[key];
  return typeof v === 'string' ? v : null;
};

/** Which view entry an item belongs to: its event, or itself for a derived summary. */
function viewKey(item: Item): string {
  if (item.kind === 'summary') return item.id;
  const event = item.meta?.['event'];
  return typeof event === 'string' ? event : item.id;
}

function issue(file: string, line: number | null, message: string): ParseIssue {
  return { file, line, field: null, message, severity: 'warning' };
}

/** Adds a warning to the session and to `found`, once: a merged document merged again repeats its checks. */
function warnOnce(s: Session, found: ParseIssue[] | undefined, w: ParseIssue): void {
  if (s.issues.some((i) => i.file === w.file && i.line === w.line && i.message === w.message)) return;
  s.issues.push(w);
  found?.push(w);
}

/**
 * Merges parts of one conversation: event parts in event-file order (parts without a number keep their order),
 * base_state parts for the id, model and usage. Also normalizes one document's events (the adapter calls it).
 */
export function mergeOpenHandsSdk(parts: Session[], found?: ParseIssue[]): Session {
  const warn = (file: string, line: number | null, message: string) => warnOnce(s, found, issue(file, line, message));
  const bases = parts.filter((p) => metaString(p, PART.kind) === 'base_state');
  const events = parts
    .filter((p) => metaString(p, PART.kind) !== 'base_state')
    .map((p, i) => ({ p, i, seq: typeof p.meta[PART.seq] === 'number' ? (p.meta[PART.seq] as number) : Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.seq - b.seq || a.i - b.i)
    .map((x) => x.p);
  const base = bases[0];
  const first = events[0] ?? parts[0]!;
  const s = emptySession('openhands-sdk', first.files[0] ?? '', base?.id ?? first.id);
  s.files = [...new Set([...bases, ...events].flatMap((p) => p.files))];
  s.title = s.id;
  for (const p of parts) {
    s.issues.push(...p.issues);
    for (const [k, n] of Object.entries(p.skipped)) s.skipped[k] = (Object.prototype.hasOwnProperty.call(s.skipped, k) ? s.skipped[k]! : 0) + n;
    for (const [k, v] of Object.entries(p.meta)) if (k !== PART.kind && k !== PART.seq && k !== PART.request) s.meta[k] = v;
  }
  if (bases.length > 1) warn(bases[1]!.files[0] ?? '', null, `a second base_state.json for conversation ${base!.id}: only the first is read`);
  s.model = base?.model ?? null;
  s.contextWindow = base?.contextWindow ?? null;

  const itemById = new Map<string, Item>();
  const itemsByKey = new Map<string, string[]>();
  let view: string[] = [];
  const summaryOffsets = new Map<string, number>();
  let request: string | null = null;
  /** The system prompt the model is sent now: a SystemPromptUpdateEvent takes its place (and its view position). */
  let system: Item | null = null;

  for (const part of events) {
    const dup = part.items.find((it) => itemById.has(it.id));
    if (dup) {
      warn(part.files[0] ?? '', null, `event ${viewKey(dup)} was loaded twice; this copy is left out`);
      continue;
    }
    const partRequest = metaString(part, PART.request);
    if (partRequest !== null) request = partRequest;
    const compactionAt = new Map(part.compactions.map((c) => [c.atItemId, c]));
    const ofPart = new Map(part.items.map((it) => [it.id, it]));
    for (const item of part.items) {
      itemById.set(item.id, item);
      s.items.push(item);
      const c = item.kind === 'compaction' ? compactionAt.get(item.id) : undefined;
      if (c) {
        s.compactions.push(condense(c, item, ofPart));
        continue;
      }
      if (item.kind === 'compaction') continue;
      if (item.role === 'system' && item.kind === 'message' && item.meta?.['event'] !== undefined) {
        if (item.meta['systemPromptUpdate'] !== undefined && system) {
          item.supersedes = system.id;
          const at = view.indexOf(viewKey(system));
          if (at >= 0) {
            view[at] = viewKey(item);
            itemsByKey.set(viewKey(item), [item.id]);
            system = item;
            continue;
          }
        }
        system = item;
      }
      const key = viewKey(item);
      const known = itemsByKey.get(key);
      if (known) known.push(item.id);
      else {
        itemsByKey.set(key, [item.id]);
        const offset = summaryOffsets.get(item.id);
        if (offset !== undefined) view.splice(Math.min(offset, view.length), 0, key);
        else view.push(key);
      }
    }
  }

  /** A Condensation: its forgotten events become the ids of their items, checked against the view. */
  function condense(c: CompactionEvent, at: Item, ofPart: Map<string, Item>): CompactionEvent {
    const replaced: string[] = [];
    const forgottenKeys = new Set<string>();
    let missing = 0;
    for (const f of c.replacedIds) {
      const ofEvent = itemsByKey.get(f);
      if (ofEvent) {
        replaced.push(...ofEvent);
        forgottenKeys.add(f);
      } else if (itemById.has(f)) {
        // Already an item id (a merged document's compaction).
        replaced.push(f);
        forgottenKeys.add(viewKey(itemById.get(f)!));
      } else missing++;
    }
    if (missing) warn(at.source.file, at.source.line, `condensation ${at.id} forgets ${missing} event(s) that are not among the loaded files; load the whole events folder to see them`);
    const firstGone = view.findIndex((k) => forgottenKeys.has(k));
    view = view.filter((k) => !forgottenKeys.has(k));
    const offset = c.summaryId ? ofPart.get(c.summaryId)?.meta?.['summaryOffset'] : undefined;
    if (c.summaryId && typeof offset === 'number' && missing === 0) {
      summaryOffsets.set(c.summaryId, offset);
      // The replay shows a summary where the first forgotten event was (every kept event before it stays
      // before it); the SDK puts it at summary_offset of the new view. They agree for the SDK's condensers.
      const shownAt = firstGone < 0 ? view.length : firstGone;
      if (offset !== shownAt) warn(at.source.file, at.source.line, `condensation ${at.id} puts its summary at view position ${offset}, not where the forgotten events were (${shownAt}); it is shown in their place`);
    }
    const trigger = c.trigger ?? request;
    request = null;
    return { ...c, id: `c${s.compactions.length}`, index: s.compactions.length, trigger, replacedIds: [...new Set(replaced)] };
  }

  s.responses = responsesOf(s, parts);
  for (const it of s.items) delete it.pairId;
  pairToolCalls(s.items);
  return s;
}

/** One response per model call of the agent, in the order its output appears, with usage from base_state. */
function responsesOf(s: Session, parts: Session[]): ModelResponse[] {
  const usage = new Map<string, { usage: Usage; model: string | null }>();
  for (const p of parts) for (const r of p.responses) if (r.usage && !usage.has(r.id)) usage.set(r.id, { usage: r.usage, model: r.model });
  const out = new Map<string, ModelResponse>();
  for (const it of s.items) {
    if (!it.responseId || it.role !== 'assistant') continue;
    const existing = out.get(it.responseId);
    if (existing) {
      existing.itemIds.push(it.id);
      continue;
    }
    const u = usage.get(it.responseId);
    if (u?.usage.contextWindow) s.contextWindow ??= u.usage.contextWindow;
    out.set(it.responseId, { id: it.responseId, index: out.size, itemIds: [it.id], usage: u?.usage ?? null, model: u?.model ?? s.model, source: it.source, ...(it.timestamp ? { timestamp: it.timestamp } : {}) });
  }
  return [...out.values()];
}

/**
 * Sessions loaded together: the OpenHands SDK parts of one conversation become one session. Parts are grouped
 * by conversation (folder name or base_state id); parts whose file names carry no folder join the only
 * conversation loaded, else they form one of their own.
 */
export function joinOpenHandsSdk(sessions: Session[], found?: ParseIssue[]): Session[] {
  const groups = new Map<string | null, Session[]>();
  for (const s of sessions) {
    if (s.format !== 'openhands-sdk') continue;
    const key = metaString(s, PART.conversation);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  if (groups.size === 0) return sessions;
  const loose = groups.get(null);
  const keyed = [...groups.keys()].filter((k): k is string => k !== null);
  if (loose && keyed.length === 1) {
    groups.get(keyed[0]!)!.push(...loose);
    groups.delete(null);
  }
  const mergedAt = new Map<Session, Session>();
  for (const group of groups.values()) {
    const merged = mergeOpenHandsSdk(group, found);
    if (!group.some((p) => metaString(p, PART.kind) !== 'base_state')) {
      warnOnce(merged, found, issue(merged.files[0] ?? '', null, `base_state.json holds the settings and usage of conversation ${merged.id}, but none of its events were loaded: open its events folder too`));
    }
    delete merged.meta[PART.conversation];
    mergedAt.set(group[0]!, merged);
  }
  const out: Session[] = [];
  for (const s of sessions) {
    if (s.format !== 'openhands-sdk') out.push(s);
    else {
      const merged = mergedAt.get(s);
      if (merged) out.push(merged);
    }
  }
  return out;
}
