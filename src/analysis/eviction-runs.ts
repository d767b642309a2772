// An eviction-map row as runs of one label, its sentence for screen readers, and per-call label counts.
import type { Item } from '../model/types';
import type { EvictionLabel } from './context-types';

export const EVICTION_LABELS: readonly EvictionLabel[] = ['verbatim', 'summarized', 'omitted', 'masked', 'dropped', 'cleared', 'rolled-back'];

export interface LabelRun {
  label: EvictionLabel;
  /** First and last call of the run, 0-based, inclusive. */
  start: number;
  end: number;
}

/** The label at one call, or null when the item did not exist yet (runs are sorted; a binary search). */
export function labelAt(runs: readonly LabelRun[], call: number): EvictionLabel | null {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = runs[mid]!;
    if (call < r.start) hi = mid - 1;
    else if (call > r.end) lo = mid + 1;
    else return r.label;
  }
  return null;
}

/** One label per call, for `calls` calls. */
export function labelsOf(runs: readonly LabelRun[], calls: number): (EvictionLabel | null)[] {
  const out = new Array<EvictionLabel | null>(calls).fill(null);
  for (const r of runs) out.fill(r.label, r.start, Math.min(r.end + 1, calls));
  return out;
}

/** "verbatim in calls 2–6, summarized from call 7" (1-based call numbers, as the app shows them). */
export function describeLabels(runs: readonly LabelRun[], calls: number): string {
  const parts = runs.map((r) => {
    if (r.end === calls - 1 && r.start < r.end) return `${r.label} from call ${r.start + 1}`;
    if (r.start === r.end) return `${r.label} in call ${r.start + 1}`;
    return `${r.label} in calls ${r.start + 1}\u2013${r.end + 1}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'not sent to any call';
}

/** "tool result", "user message", "tool call", … */
export function itemKindPhrase(item: Pick<Item, 'kind' | 'role'>): string {
  switch (item.kind) {
    case 'message':
      return `${item.role} message`;
    case 'tool_call':
      return 'tool call';
    case 'tool_result':
      return 'tool result';
    case 'omission':
      return 'omission marker';
    case 'compaction':
      return 'compaction';
    default:
      return item.kind;
  }
}

export type LabelCounts = Record<EvictionLabel, number>;

/** How many items carry each label at one call. */
export function labelCountsAt(rows: readonly { runs: readonly LabelRun[] }[], call: number): LabelCounts {
  const counts: LabelCounts = { verbatim: 0, summarized: 0, omitted: 0, masked: 0, dropped: 0, cleared: 0, 'rolled-back': 0 };
  for (const row of rows) {
    const l = labelAt(row.runs, call);
    if (l) counts[l]++;
  }
  return counts;
}
