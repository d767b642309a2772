// Contexts straight from a request log, and the compactions the log implies between two calls.
import { classifyText } from '../model/markers';
import type { CompactionEvent, Item, RecordedRequest, Session } from '../model/types';
import type { CallContext } from './context-types';
import { spansOfCalls } from './context-timeline';
import { assignRegions } from './regions';
import type { Removal, Replay } from './replay';

export interface RequestReplay extends Replay {
  /** Compactions inferred from consecutive requests that no log recorded. */
  inferred: CompactionEvent[];
  /** Logged compactions completed with what the requests show (replaced, kept, summary); by id. */
  completed: Map<string, CompactionEvent>;
}

const INFERRED = 'inferred-';

/** Was this compaction inferred between two logged requests (no record of it), not recorded by the harness? */
export function isInferredCompaction(id: string): boolean {
  return id.startsWith(INFERRED);
}

function isRecap(item: Item): boolean {
  return item.kind === 'summary' || item.kind === 'omission' || classifyText(item.text) !== null;
}

/**
 * A logged compaction that names this call: by request id, else by turn (the 1-based call number,
 * as the course's joining tuple counts it); or a recorded compaction event placed before this call; else a recorded
 * provider-side compaction new in this call.
 */
function loggedFor(session: Session, r: RecordedRequest, before: ReadonlySet<string>): CompactionEvent | undefined {
  return (
    session.compactions.find((c) => (c.log ? (c.log.requestId !== null ? c.log.requestId === r.id : c.log.turn === r.index + 1) : c.requestId !== undefined && c.requestId === r.id)) ??
    // A provider-side compaction takes effect at the first call whose input carries its block or item.
    session.compactions.find((c) => c.kind === 'server' && c.atItemId !== null && !before.has(c.atItemId) && r.items.some((it) => it.id === c.atItemId))
  );
}

export function requestContexts(session: Session): RequestReplay {
  const removals = new Map<string, Removal>();
  const inferred: CompactionEvent[] = [];
  const completed = new Map<string, CompactionEvent>();
  const calls: CallContext[] = [];
  session.requests.forEach((r, k) => {
    const prev = k > 0 ? session.requests[k - 1]! : null;
    let compactionId: string | null = null;
    if (prev) {
      const now = new Set(r.items.map((it) => it.id));
      const before = new Set(prev.items.map((it) => it.id));
      const removed = prev.items.filter((it) => !now.has(it.id));
      if (removed.length > 0) {
        const recap = r.items.find((it) => !before.has(it.id) && isRecap(it));
        // A removed tool result whose call is still present, replaced by a placeholder result, was masked; so was
        // any item a new placeholder names as the content it stands in for (SWE-agent's elided observations).
        const placeholderFor = new Set(r.items.filter((n) => !before.has(n.id)).flatMap((n) => n.omission?.refs ?? []));
        const maskedIds = new Set(
          removed
            .filter((it) => placeholderFor.has(it.id) || (it.kind === 'tool_result' && r.items.some((n) => !before.has(n.id) && n.kind === 'tool_result' && n.callId === it.callId)))
            .map((it) => it.id),
        );
        // Every removed item replaced at its own position by a new item of the same role and kind, with no recap
        // and no placeholder: the earlier prompt was edited in place (a timestamp in the system prompt), not compacted.
        const editedInPlace =
          !recap &&
          maskedIds.size === 0 &&
          removed.every((it) => {
            const n = r.items[prev.items.indexOf(it)];
            return n !== undefined && !before.has(n.id) && n.role === it.role && n.kind === it.kind && n.omission === undefined;
          });
        if (!editedInPlace || loggedFor(session, r, before)) {
        const label: Removal['label'] = maskedIds.size === removed.length ? 'masked' : recap && recap.kind !== 'omission' && classifyText(recap.text) !== 'marker' ? 'summarized' : 'dropped';
        const logged = loggedFor(session, r, before);
        const event: CompactionEvent = logged ? { ...logged } : {
          id: `${INFERRED}${k}`,
          index: session.compactions.length + inferred.length,
          kind: 'inferred',
          trigger: null,
          tokensBefore: null,
          tokensAfter: null,
          replacedIds: [],
          keptIds: [],
          summaryId: null,
          atItemId: null,
          source: r.source,
          ...(r.timestamp ? { timestamp: r.timestamp } : {}),
        };
        if (logged) completed.set(event.id, event);
        else inferred.push(event);
        if (event.replacedIds.length === 0) event.replacedIds = removed.map((it) => it.id);
        if (event.keptIds.length === 0) event.keptIds = prev.items.filter((it) => now.has(it.id)).map((it) => it.id);
        if (event.summaryId === null && recap) event.summaryId = recap.id;
        if (event.atItemId === null && recap) event.atItemId = recap.id;
        compactionId = event.id;
        for (const it of removed) if (!removals.has(it.id)) removals.set(it.id, { label: maskedIds.has(it.id) ? 'masked' : label, compactionId: event.id, fromCall: k });
        }
      }
    }
    calls.push({
      index: k,
      id: r.id,
      entries: assignRegions(r.items),
      output: r.output,
      tools: r.tools,
      usage: r.usage,
      model: r.model,
      api: r.api,
      prefixUnrecorded: r.prefixUnrecorded === true,
      compactionId,
      recorded: true,
      ...(r.timestamp ? { timestamp: r.timestamp } : {}),
    });
  });
  return { calls, removals, spans: spansOfCalls(calls), timeline: null, inferred, completed };
}
