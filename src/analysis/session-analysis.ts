// Per-call contexts for any session: ground truth from a request log, else replayed compactions.
import type { CompactionEvent, Session } from '../model/types';
import type { ContextTimeline, Span } from './context-timeline';
import type { CallContext } from './context-types';
import { evictionMap, type EvictionRow } from './eviction-map';
import { replayTranscript, type Removal } from './replay';
import { requestContexts } from './request-contexts';

export interface SessionContexts {
  calls: CallContext[];
  /** The session's compactions plus those inferred from the request log. */
  compactions: CompactionEvent[];
  removals: Map<string, Removal>;
  eviction: EvictionRow[];
  /** Every call's context as spans; a replayed transcript's calls read their entries from it. */
  spans: readonly Span[];
  timeline: ContextTimeline | null;
}

export function sessionContexts(session: Session): SessionContexts {
  if (session.requests.length > 0) {
    const r = requestContexts(session);
    const items = session.requests.flatMap((q) => [...q.items, ...q.output]);
    const unique = [...new Map(items.map((it) => [it.id, it])).values()];
    const compactions = [...session.compactions.map((c) => r.completed.get(c.id) ?? c), ...r.inferred];
    return { calls: r.calls, compactions, removals: r.removals, spans: r.spans, timeline: r.timeline, eviction: evictionMap(unique, r.calls, r.spans, r.removals) };
  }
  const r = replayTranscript(session);
  // A transcript's items are the session's: only the Eviction map panel reads this, so it is built when first read
  // (a getter, which a copy or a structured clone reads like a field).
  let eviction: EvictionRow[] | null = null;
  return {
    calls: r.calls,
    compactions: session.compactions,
    removals: r.removals,
    spans: r.spans,
    timeline: r.timeline,
    get eviction() {
      return (eviction ??= evictionMap(session.items, r.calls, r.spans, r.removals));
    },
  };
}
