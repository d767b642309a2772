// "Compare policies" over a corpus: every preset replayed on a sample of the trajectories (offline summarizer, in a
// corpus worker), then each policy's median and total over them and how often it was the cheapest — the table
// `compaction-inspector rerun runs/ --policies …` prints, so a harness builder sees which policy wins on their runs.
import { useEffect, useId, useRef, useState } from 'react';
import { isPolicyId, policyInfo } from '../../../src/compaction';
import { compareCandidates, runCorpusCompare, type CorpusCompareState } from '../../data/corpus-compare';
import type { CorpusEntry } from '../../store/corpus-slice';
import { count as formatCount } from '../../format/count';
import '../panels/compare.css';

const num = (n: number | null) => (n === null ? '—' : formatCount(Math.round(n)));
const usd = (n: number | null) => (n === null ? '—' : `$${n.toFixed(2)}`);

export function PolicyComparePanel({ rows, running }: { rows: CorpusEntry[]; running: boolean }) {
  const id = useId();
  const [size, setSize] = useState(20);
  const [run, setRun] = useState<CorpusCompareState | null>(null);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  const candidates = compareCandidates(rows);
  const busy = run?.status === 'running';

  const start = () => {
    if (candidates.length === 0) return;
    const r = runCorpusCompare(rows, size, setRun);
    stop.current = () => r.cancel();
  };

  return (
    <details className="judge-panel cp-corpus">
      <summary>
        <span className="judge-title">Compare policies</span>{' '}
        <span className="muted small">every harness preset replayed on a sample of the {formatCount(candidates.length)} trajectories; each policy’s median and total</span>
      </summary>
      <p className="muted small">
        Each sampled trajectory is replayed with Claude Code’s, Codex’s, OpenHands’, Inspect’s, the API’s server-side and observation-masking policies, offline, as the Compare policies tab does for one session. Nothing leaves the page.
      </p>
      <div className="judge-actions">
        <label htmlFor={`${id}-n`}>Trajectories to replay</label>
        <input id={`${id}-n`} type="number" min={1} max={500} step={1} value={size} onChange={(e) => setSize(Math.max(1, Math.min(500, Math.floor(Number(e.target.value) || 1))))} />
        <button type="button" className="primary" disabled={busy || running || candidates.length === 0} onClick={start}>
          Compare policies
        </button>
        {busy ? (
          <button type="button" onClick={() => stop.current?.()}>
            Cancel
          </button>
        ) : null}
        <span className="muted small" role="status" aria-live="polite">
          {running
            ? 'Comparing starts once the corpus is measured.'
            : run
              ? `${run.status === 'running' ? 'Replaying' : run.status === 'cancelled' ? 'Cancelled after' : 'Compared'} ${run.done} of ${run.total} trajectories${run.failed ? ` (${run.failed} did not load)` : ''}.`
              : candidates.length === 0
                ? 'No trajectory has more than one model call.'
                : ''}
        </span>
      </div>
      {run && run.rows.length > 0 ? (
        <div className="cp-table-wrap">
          <table className="cp-table" aria-label="Policies over the corpus">
            <thead>
              <tr>
                <th scope="col">Policy</th>
                <th scope="col" className="num">
                  Sessions
                </th>
                <th scope="col" className="num" title="Trajectories where the policy had the lowest total dollars (each of a tie counts; one where every policy costs the same counts for none)">
                  Cheapest
                </th>
                <th scope="col" className="num">
                  Median total $
                </th>
                <th scope="col" className="num">
                  Total $
                </th>
                <th scope="col" className="num">
                  Median input
                </th>
                <th scope="col" className="num">
                  Total input
                </th>
                <th scope="col" className="num">
                  Median peak
                </th>
                <th scope="col" className="num">
                  Median lost, needed
                </th>
              </tr>
            </thead>
            <tbody>
              {run.rows.map((r) => (
                <tr key={r.id} className={r.baseline ? 'cp-baseline' : undefined}>
                  <td>{r.baseline ? 'Recorded runs' : isPolicyId(r.id) ? policyInfo(r.id).label : r.label}</td>
                  <td className="num">{r.sessions}</td>
                  <td className="num">{r.cheapest}</td>
                  <td className="num">{usd(r.median.totalUsd)}</td>
                  <td className="num">{usd(r.total.totalUsd)}</td>
                  <td className="num">{num(r.median.totalInputTokens)}</td>
                  <td className="num">{num(r.total.totalInputTokens)}</td>
                  <td className="num">{num(r.median.peakTokens)}</td>
                  <td className="num">{num(r.median.lostNeeded)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}
