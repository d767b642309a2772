// The line above a preview: how much of the file it shows and how the rest is coming. Once the whole
// file is parsed, it also runs the full session's analysis, so the full view replaces the preview
// ready to use instead of through a loading screen.
import { useEffect } from 'react';
import type { Session } from '../../src/model/types';
import { useAnalysis, useCountProgress, type ProgressSource } from '../data/analysis-client';
import { useApp } from '../store';
import type { LoadedSession } from '../store/session-slice';
import './preview-status.css';
import { count as formatCount } from '../format/count';

const mb = (bytes: number) => `${(bytes / 1e6).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
const count = (n: number) => formatCount(n);

export function PreviewStatus({ loaded }: { loaded: LoadedSession }) {
  const load = useApp((s) => s.previewLoads[loaded.key]);
  const p = loaded.preview;
  if (!p) return null;
  const progress = load?.progress ?? null;
  const reading = progress?.phase === 'reading' && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : null;
  return (
    <div className="preview-status">
      <p role="status">
        Showing the first {mb(p.bytes)} of {mb(p.totalBytes)} ({count(p.records)} of ~{count(p.estimatedRecords)} records) while the rest {load?.full ? 'is analysed' : 'loads'}…
      </p>
      {load?.full ? (
        <FullAnalysis previewKey={loaded.key} fullKey={load.full.key} session={load.full.session} file={p.file} />
      ) : (
        <>
          <progress aria-label={`Loading the rest of ${p.file}`} max={100} value={reading ?? undefined} />
          <span className="preview-phase">{reading !== null ? `reading ${reading}%` : 'parsing the rest'}</span>
        </>
      )}
      <span className="preview-hint">Sharing and the library wait for the whole file.</span>
    </div>
  );
}

/** The full session's analysis, started under its own key; the load hands over once it is exact (or failed). */
function FullAnalysis({ previewKey, fullKey, session, file }: { previewKey: string; fullKey: string; session: Session; file: string }) {
  const rule = useApp((s) => s.rule);
  // Only its exact view is ever shown (the preview stays until then): no estimate view is worked out first.
  const state = useAnalysis(fullKey, session, rule, { exactFirst: true });
  const markReady = useApp((s) => s.markPreviewFullReady);
  // The inspector joins the same analysis when the full session takes the tab. It hands over once the counts
  // are exact, so the view the user is reading changes once, not twice (estimate, then exact).
  const done = state.status === 'error' || (state.status === 'ready' && state.result.exact);
  useEffect(() => {
    if (done) markReady(previewKey);
  }, [done, markReady, previewKey]);
  const counting = state.status === 'ready' ? (state.result.exact ? null : state.progress) : state.status === 'loading' ? (state.progress ?? null) : null;
  return <Counting source={counting} items={session.items.length} file={file} />;
}

/** The count's progress bar: it alone re-renders on each tick. */
function Counting({ source, items, file }: { source: ProgressSource | null; items: number; file: string }) {
  const progress = useCountProgress(source ?? NO_PROGRESS);
  const counting = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;
  return (
    <>
      <progress aria-label={`Analysing all of ${file}`} max={100} value={counting ?? undefined} />
      <span className="preview-phase" title={`${count(items)} items in the whole file`}>
        {counting !== null ? `counting tokens ${counting}%` : 'building its view'}
      </span>
    </>
  );
}

const NO_PROGRESS: ProgressSource = { get: () => null, subscribe: () => () => undefined };
