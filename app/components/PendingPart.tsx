// What a panel shows while the part of the analysis it reads is still being worked out in the worker.
import type { AnalysisView } from '../../src/analysis/analysis-view';
import type { DeferredPart } from '../../src/analysis/analyze-session';

const WHAT: Record<DeferredPart, string> = {
  cache: 'Working out the cache prefix of every call…',
  lints: 'Checking every context for structural problems…',
  audits: 'Auditing the summaries against what they replaced…',
};

/** The waiting line for `part`, or null once the view has it. */
export function PendingPart({ view, part }: { view: Pick<AnalysisView, 'pending'>; part: DeferredPart }) {
  if (!view.pending.includes(part)) return null;
  return (
    <p className="empty pending-part" role="status">
      {WHAT[part]} The rest of the inspector works meanwhile.
    </p>
  );
}
