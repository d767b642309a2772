// Corpus mode: progress while files are measured, the charts, the judge and the table of trajectories.
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import type { ChartFilter } from '../../../src/corpus/corpus-charts';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { useApp } from '../../store';
import type { CorpusEntry, CorpusState } from '../../store/corpus-slice';
import { cancelCorpus, closeCorpus } from '../../data/corpus-client';
import { openCorpusEntry } from '../../data/corpus-entry';
import { CorpusCharts } from './CorpusCharts';
import { CorpusTable } from './CorpusTable';
import { JudgePanel } from './JudgePanel';
import { PolicyComparePanel } from './PolicyComparePanel';
import { count as formatCount } from '../../format/count';

const int = (n: number) => formatCount(n);
const NO_ROWS: CorpusEntry[] = [];

function size(bytes: number): string {
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(2)} GB`;
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function Header({ c }: { c: CorpusState }) {
  const p = c.progress;
  const formats = useMemo(() => {
    const m = new Map<string, number>();
    for (const r of c.rows) m.set(r.format, (m.get(r.format) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  }, [c.rows]);
  const flagged = c.rows.filter((r) => r.success !== null);
  const succeeded = flagged.filter((r) => r.success).length;
  const seconds = ((c.finishedAt ?? Date.now()) - c.startedAt) / 1000;
  return (
    <header className="corpus-header">
      <div className="corpus-title">
        <h2>
          Corpus <span className="muted">· {c.name}</span>
        </h2>
        <div className="corpus-actions">
          {c.status === 'running' ? (
            <button type="button" onClick={cancelCorpus}>
              Stop measuring
            </button>
          ) : null}
          <button type="button" onClick={closeCorpus}>
            Close corpus
          </button>
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>Trajectories</dt>
          <dd>{int(c.rows.length)}</dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd>
            {int(p.filesDone)} of {int(p.filesTotal)} ({size(p.bytesTotal)})
          </dd>
        </div>
        <div>
          <dt>Formats</dt>
          <dd>{formats.length ? formats.map(([f, n]) => `${f} ${int(n)}`).join(' · ') : '—'}</dd>
        </div>
        <div>
          <dt>Success</dt>
          <dd>{flagged.length ? `${Math.round((100 * succeeded) / flagged.length)}% of ${int(flagged.length)} with a flag` : '—'}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd title={c.counter === 'estimate' ? 'A corpus over 200 MB is counted with the fast estimate' : 'Exact o200k_base counts (a stand-in for models without a public tokenizer)'}>
            {c.counter === 'estimate' ? 'estimated' : 'o200k_base'}
          </dd>
        </div>
      </dl>
      {c.status === 'running' ? (
        <div className="corpus-progress">
          <progress max={Math.max(1, p.bytesTotal)} value={p.bytesDone} aria-label="Corpus measured" />
          <span className="small muted" aria-live="polite">
            Measuring {p.current ?? '…'} — {int(p.filesDone)} of {int(p.filesTotal)} files, {size(p.bytesDone)} of {size(p.bytesTotal)}
          </span>
        </div>
      ) : (
        <p className="small muted corpus-status" role="status">
          {c.status === 'done'
            ? `Measured ${int(c.rows.length)} trajectories from ${int(p.filesTotal)} file${p.filesTotal === 1 ? '' : 's'} in ${seconds.toFixed(1)} s.`
            : c.status === 'cancelled'
              ? `Stopped after ${int(p.filesDone)} of ${int(p.filesTotal)} files.`
              : `Measuring stopped: ${c.error ?? 'unknown error'}.`}
        </p>
      )}
      {c.issueCount > 0 ? (
        <details className="corpus-issues">
          <summary>
            {int(c.issueCount)} problem{c.issueCount === 1 ? '' : 's'} while reading ({int(c.issues.filter((i) => i.severity === 'error').length)} errors shown first)
          </summary>
          <ul>
            {[...c.issues]
              .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
              .slice(0, 200)
              .map((i, n) => (
                <li key={n} className={i.severity}>
                  <code>{[i.file, i.line !== null ? `line ${i.line}` : null, i.field].filter(Boolean).join(' · ')}</code>: {i.message}
                </li>
              ))}
          </ul>
        </details>
      ) : null}
    </header>
  );
}

export default function CorpusView() {
  const corpus = useApp((s) => s.corpus);
  const judge = useApp((s) => s.judge);
  const [filter, setFilter] = useState<ChartFilter | null>(null);
  const open = useCallback((e: CorpusEntry) => void openCorpusEntry(e), []);
  // Charts and table follow the rows at low priority, so progress and input stay smooth while rows stream in.
  const rows = useDeferredValue(corpus?.rows ?? NO_ROWS);
  if (!corpus) return null;
  return (
    <div className="corpus-view">
      <ErrorBoundary name="The corpus header">
        <Header c={corpus} />
      </ErrorBoundary>
      <ErrorBoundary name="The corpus charts">
        <CorpusCharts rows={rows} filter={filter} setFilter={setFilter} open={open} />
      </ErrorBoundary>
      <ErrorBoundary name="The judge">
        <JudgePanel rows={rows} running={corpus.status === 'running'} />
      </ErrorBoundary>
      <ErrorBoundary name="Compare policies">
        <PolicyComparePanel rows={rows} running={corpus.status === 'running'} />
      </ErrorBoundary>
      <ErrorBoundary name="The corpus table">
        <CorpusTable rows={rows} judge={judge} filter={filter} open={open} />
      </ErrorBoundary>
    </div>
  );
}
