// "Score summaries": the Self-Sum judge over a sample of the trajectories that summarized. The endpoint fields are
// the app's one endpoint setting (the Re-run panel's summarizer uses the same); the key stays in memory.
import { useEffect, useId, useRef, useState } from 'react';
import { chatCompletionsUrl } from '../../../src/client';
import { EndpointPolicyNotice, endpointBlocked } from '../../components/EndpointPolicyNotice';
import { useApp } from '../../store';
import { originOfBaseUrl } from '../../store/settings-slice';
import type { CorpusEntry } from '../../store/corpus-slice';
import { judgeCandidates, pickSample, runJudge, type JudgeRun } from '../../data/judge-runner';
import { count as formatCount } from '../../format/count';

export function JudgePanel({ rows, running }: { rows: CorpusEntry[]; running: boolean }) {
  const endpoint = useApp((s) => s.endpoint);
  const setEndpoint = useApp((s) => s.setEndpoint);
  const judge = useApp((s) => s.judge);
  const id = useId();
  const [size, setSize] = useState(20);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const run = useRef<JudgeRun | null>(null);
  useEffect(() => () => run.current?.cancel(), []);

  const candidates = judgeCandidates(rows).length;
  const target = endpoint.baseUrl.trim() ? chatCompletionsUrl(endpoint.baseUrl) : null;
  const origin = target?.ok ? originOfBaseUrl(endpoint.baseUrl) : null;
  const blocked = origin !== null && endpointBlocked(origin);
  const ready = target?.ok === true && endpoint.model.trim() !== '' && !blocked;
  const busy = progress !== null && progress.done < progress.total;
  const cells = Object.values(judge);
  const scored = cells.filter((c) => c.status === 'done');
  const failed = cells.filter((c) => c.status === 'failed');
  const fromCache = scored.filter((c) => c.status === 'done' && c.cached).length;
  const mean = (k: 'timing' | 'content') => (scored.length ? (scored.reduce((n, c) => n + (c.status === 'done' ? c.scores[k] : 0), 0) / scored.length).toFixed(2) : '—');

  const start = () => {
    const sample = pickSample(rows, size);
    if (sample.length === 0) return;
    setProgress({ done: 0, total: sample.length });
    run.current = runJudge(sample, endpoint, (done) => setProgress({ done, total: sample.length }));
  };

  return (
    <details className="judge-panel">
      <summary>
        <span className="judge-title">Score summaries with a judge</span>{' '}
        <span className="muted small">
          Self-Sum Table 10 rubric · {formatCount(candidates)} trajectories with summaries
          {scored.length ? ` · ${scored.length} scored: timing ${mean('timing')}, content ${mean('content')} (1–5)` : ''}
        </span>
      </summary>
      <p className="muted small">
        Each sampled trajectory is sent, with its summaries, to the endpoint below; the judge scores when it summarized and what the summaries kept (four criteria each, 1–5). Scores are cached by the
        hash of the trajectory and its summaries, so asking again sends nothing. The endpoint is the same one the Re-run panel uses.
      </p>
      <div className="judge-fields">
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input id={`${id}-url`} type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="http://127.0.0.1:11434/v1" value={endpoint.baseUrl} onChange={(e) => setEndpoint({ baseUrl: e.target.value })} />
        <label htmlFor={`${id}-key`}>API key</label>
        <input id={`${id}-key`} type="password" autoComplete="off" spellCheck={false} placeholder="optional, kept in memory" value={endpoint.apiKey} onChange={(e) => setEndpoint({ apiKey: e.target.value })} />
        <label htmlFor={`${id}-model`}>Model</label>
        <input id={`${id}-model`} type="text" autoComplete="off" spellCheck={false} placeholder="e.g. gpt-5-mini" value={endpoint.model} onChange={(e) => setEndpoint({ model: e.target.value })} />
        <label htmlFor={`${id}-n`}>Sample size</label>
        <input id={`${id}-n`} type="number" min={1} max={1000} step={1} value={size} onChange={(e) => setSize(Math.max(1, Math.min(1000, Math.floor(Number(e.target.value) || 1))))} />
      </div>
      {target && !target.ok ? <p className="judge-warn small">{target.reason}</p> : null}
      {origin ? <EndpointPolicyNotice origin={origin} baseUrl={endpoint.baseUrl} model={endpoint.model} className="judge-warn" lost="Drop the corpus again afterwards (dropped files cannot be re-read) and type the API key again." /> : null}
      <div className="judge-actions">
        <button type="button" className="primary" disabled={!ready || busy || candidates === 0 || running} onClick={start}>
          Score summaries
        </button>
        {busy ? (
          <button type="button" onClick={() => run.current?.cancel()}>
            Cancel scoring
          </button>
        ) : null}
        <span className="muted small" role="status" aria-live="polite">
          {running
            ? 'Scoring starts once the corpus is measured.'
            : blocked
              ? 'Allow the endpoint above to score.'
              : !ready
                ? 'Set a Base URL and a model to score.'
              : candidates === 0
                ? 'No trajectory in this corpus wrote a summary.'
                : progress
                  ? `Scored ${progress.done} of ${progress.total}${fromCache ? ` (${fromCache} from cache)` : ''}${failed.length ? `; ${failed.length} failed (hover “failed” in the table for why)` : ''}.`
                  : `Scores a spread sample of ${Math.min(size, candidates)} of them; results appear as columns in the table.`}
        </span>
      </div>
    </details>
  );
}
