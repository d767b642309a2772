// Running totals over corpus rows, kept per format: what `corpus` prints without --jsonl. Rows are folded in
// as they arrive and never kept.
import type { CorpusRow } from './corpus-row';
import { thousands } from '../model/thousands';

export interface FormatTotals {
  format: string;
  trajectories: number;
  turns: number;
  totalTokens: number;
  peakContextTokens: number;
  summaries: number;
  omissions: number;
  tokensSaved: number;
  invented: number;
  lost: number;
  lints: number;
  /** Rows with a success flag, and how many of them succeeded. */
  withSuccess: number;
  succeeded: number;
}

export class CorpusTotals {
  private readonly byFormat = new Map<string, FormatTotals>();

  add(r: CorpusRow): void {
    let t = this.byFormat.get(r.format);
    if (!t) {
      t = { format: r.format, trajectories: 0, turns: 0, totalTokens: 0, peakContextTokens: 0, summaries: 0, omissions: 0, tokensSaved: 0, invented: 0, lost: 0, lints: 0, withSuccess: 0, succeeded: 0 };
      this.byFormat.set(r.format, t);
    }
    t.trajectories++;
    t.turns += r.turns;
    t.totalTokens += r.total_tokens;
    t.peakContextTokens = Math.max(t.peakContextTokens, r.peak_context_tokens);
    t.summaries += r.summaries;
    t.omissions += r.omissions;
    t.tokensSaved += r.tokens_saved;
    t.invented += r.invented_identifiers;
    t.lost += r.lost_identifiers;
    t.lints += r.lints;
    if (r.success !== null) {
      t.withSuccess++;
      if (r.success) t.succeeded++;
    }
  }

  formats(): FormatTotals[] {
    return [...this.byFormat.values()].sort((a, b) => b.trajectories - a.trajectories || a.format.localeCompare(b.format));
  }

  get trajectories(): number {
    let n = 0;
    for (const t of this.byFormat.values()) n += t.trajectories;
    return n;
  }
}

const int = (n: number) => thousands(Math.round(n));

/** A plain-text table: one line per format with means per trajectory. */
export function renderTotals(totals: CorpusTotals, files: number, failedFiles: number): string {
  const rows = totals.formats();
  const header = ['format', 'trajectories', 'turns/traj', 'tokens/traj', 'peak ctx', 'summaries', 'omissions', 'saved/traj', 'invented', 'lost', 'lints', 'success'];
  const lines = rows.map((t) => {
    const per = (x: number) => int(x / t.trajectories);
    return [
      t.format,
      int(t.trajectories),
      (t.turns / t.trajectories).toFixed(1),
      per(t.totalTokens),
      int(t.peakContextTokens),
      int(t.summaries),
      int(t.omissions),
      per(t.tokensSaved),
      int(t.invented),
      int(t.lost),
      int(t.lints),
      t.withSuccess ? `${((100 * t.succeeded) / t.withSuccess).toFixed(0)}% of ${int(t.withSuccess)}` : '—',
    ];
  });
  const table = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const out = table.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  out.push('', `${int(totals.trajectories)} trajectories from ${int(files)} file${files === 1 ? '' : 's'}${failedFiles ? `; ${int(failedFiles)} file${failedFiles === 1 ? '' : 's'} gave none` : ''}.`);
  return out.join('\n');
}
