// What a first view can show from the provider's reported usage alone, before any context is counted: the calls
// (with the compaction before each), their reported usage, and the session's reported figures. Reported usage is
// the ground truth; the counts that follow explain it. Small, so the load worker sends it to the page at once.
import type { Session, Usage } from '../model/types';
import { replayTranscript } from './replay';
import { reportedFigures, type ReportedFigures } from './session-facts';

export interface ReportedCall {
  index: number;
  id: string;
  usage: Usage | null;
  model: string | null;
  timestamp: string | null;
  /** Compaction applied between the previous call and this one, if any (as the analysis's calls say). */
  compactionId: string | null;
}

export interface ReportedView {
  sessionId: string;
  calls: ReportedCall[];
  figures: ReportedFigures;
}

/**
 * The calls are the analysis's own (the same replay), so their number and compactions are the final ones. Null for
 * a request log: its calls and inferred compactions come from comparing the requests, which is the analysis's work.
 */
export function reportedView(session: Session): ReportedView | null {
  if (session.requests.length > 0) return null;
  const { calls } = replayTranscript(session);
  return {
    sessionId: session.id,
    calls: calls.map((c) => ({ index: c.index, id: c.id, usage: c.usage, model: c.model, timestamp: c.timestamp ?? null, compactionId: c.compactionId })),
    figures: reportedFigures(calls, session.compactions.length),
  };
}
