// An eviction-map row as runs of one label, its sentence for screen readers, and per-call label counts.
import type { Item } from '../model/types';
import type { EvictionLabel } from './context-types';

export const EVICTION_LABELS: readonly EvictionLabel[] = ['verbatim', 'summarized', 'omitted', 'masked', 'dropped'];

export interface LabelRun {
  label: EvictionLabel | null;
  /** First and last call of the run, 0-based, inclusive. */
  start: number;
  end: number;
}

/** Consecutive calls with the same label, so a row draws as a few blocks instead of one cell per call. */
export function labelRuns(labels: readonly (EvictionLabel | null)[]): LabelRun[] {
  const runs: LabelRun[] = [];
  labels.forEach((label, i) => {
    const last = runs[runs.length - 1];
    if (last && last.label === label) last.end = i;
    else runs.push({ label, start: i, end: i });
  });
  return runs;
}

/** "verbatim in calls 2–6, summarized from call 7" (1-based call numbers, as the app shows them). */
export function describeLabels(labels: readonly (EvictionLabel | null)[]): string {
  const n = labels.length;
  const parts = labelRuns(labels)
    .filter((r): r is LabelRun & { label: EvictionLabel } => r.label !== null)
    .map((r) => {
      if (r.end === n - 1 && r.start < r.end) return `${r.label} from call ${r.start + 1}`;
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
export function labelCountsAt(rows: readonly { labels: readonly (EvictionLabel | null)[] }[], call: number): LabelCounts {
  const counts: LabelCounts = { verbatim: 0, summarized: 0, omitted: 0, masked: 0, dropped: 0 };
  for (const row of rows) {
    const l = row.labels[call];
    if (l) counts[l]++;
  }
  return counts;
}
