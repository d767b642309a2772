// The Self-Sum judge in the inspector: the paper's Table 10 rubric scores the open trajectory's summaries, and the
// shown re-run's beside them, at the app's one endpoint setting (the fields the Re-run panel uses). The judge is a
// language model: without an endpoint nothing is scored, and the panel says so.
import { useMemo } from 'react';
import { chatCompletionsUrl } from '../../../src/client';
import { describeTrigger, strategyInfo } from '../../../src/compaction';
import { CONTENT_CRITERIA, TIMING_CRITERIA, type JudgeOutcome } from '../../../src/corpus/judge';
import type { Session } from '../../../src/model/types';
import { judgedSummaries, rerunTrajectory } from '../../../src/research';
import { endpointBlocked } from '../../components/EndpointPolicyNotice';
import { useSessionRerun } from '../../data/rerun-client';
import { useApp } from '../../store';
import { endpointOrigin } from '../../store/settings-slice';
import { EndpointFields } from './rerun/EndpointFields';
import { plural } from './research-parts';
import { judgeInInspector, useInspectorJudge, type JudgeJob, type JudgeSide, type SideCell } from '../../data/self-sum-judge';

const CRITERION_LABEL: Record<(typeof TIMING_CRITERIA)[number] | (typeof CONTENT_CRITERIA)[number], string> = {
  necessity: 'Necessity',
  timeliness: 'Timeliness',
  task_awareness: 'Task awareness',
  avoidance_of_redundancy: 'Avoidance of redundancy',
  coverage_of_critical_information: 'Coverage of critical information',
  faithfulness_to_observations: 'Faithfulness to observations',
  abstraction_level: 'Abstraction level',
  future_utility: 'Future utility',
};

export function SelfSumJudge({ session }: { session: Session }) {
  const key = useApp((s) => s.activeKey) ?? session.id;
  const endpoint = useApp((s) => s.endpoint);
  const origin = useApp(endpointOrigin);
  const rerun = useSessionRerun(key);
  const state = useInspectorJudge((s) => s.bySession[key]);
  const running = state?.running === true;

  const shown = rerun.shown;
  const rerunSession = useMemo(() => (shown ? rerunTrajectory(session, shown.result.events) : null), [session, shown]);
  const recordedCount = judgedSummaries(session).length;
  const rerunCount = rerunSession ? judgedSummaries(rerunSession).length : 0;
  const rerunLabel = shown ? (rerun.shownLabel ?? `${strategyInfo(shown.result.strategy).label} · ${describeTrigger(shown.result.trigger)} · ${shown.result.summarizer} summarizer`) : null;

  const empty = endpoint.baseUrl.trim() === '';
  const target = empty ? null : chatCompletionsUrl(endpoint.baseUrl);
  const blocked = origin !== null && endpointBlocked(origin);
  const ready = target?.ok === true && endpoint.model.trim() !== '' && !blocked;

  const score = () => {
    const jobs: JudgeJob[] = [];
    if (recordedCount > 0) jobs.push({ side: 'recorded', session });
    if (rerunSession && rerunCount > 0) jobs.push({ side: 'rerun', session: rerunSession });
    if (jobs.length > 0) void judgeInInspector(key, jobs, useApp.getState().endpoint, rerunLabel);
  };

  const status = running
    ? 'Scoring…'
    : empty
      ? 'The judge needs an endpoint: set a Base URL and a model above.'
      : !ready
        ? blocked
          ? 'Allow the endpoint above to score.'
          : 'Set a valid Base URL and a model to score.'
        : recordedCount + rerunCount === 0
          ? 'No summaries to score.'
          : rerunCount > 0
            ? `Scores the ${plural(recordedCount, 'recorded summary', 'recorded summaries')} and the re-run's ${plural(rerunCount, 'summary', 'summaries')}.`
            : `Scores the ${plural(recordedCount, 'recorded summary', 'recorded summaries')}. Run a re-run with a summarizing strategy to score its summaries beside them.`;

  return (
    <section className="research-section ss-judge" aria-labelledby="ss-judge-h">
      <h3 id="ss-judge-h">Judge the summaries</h3>
      <p className="research-note">
        The Self-Sum paper's Table 10 rubric: a language model reads the trajectory with its summaries and scores when each summary fired (necessity, timeliness, task awareness, avoidance of redundancy) and what it kept
        (coverage, faithfulness, abstraction, future utility), 1–5. The trajectory is sent to the endpoint below, the same one the Re-run panel and corpus mode use; scores are cached, so asking again sends nothing.
      </p>
      <EndpointFields
        disabled={running}
        legend="Judge endpoint"
        offline={
          <span className="ss-judge-need" role="note">
            <strong>No endpoint set: the judge cannot score offline.</strong> It is a language model, so scoring needs an OpenAI-compatible endpoint. Set its Base URL and model below; nothing is sent until you press Score summaries.
          </span>
        }
      />
      <div className="ss-judge-actions">
        <button type="button" className="primary" disabled={!ready || running || recordedCount + rerunCount === 0} onClick={score}>
          Score summaries
        </button>
        <span className="muted small" role="status" aria-live="polite">
          {status}
        </span>
      </div>
      {state && Object.keys(state.cells).length > 0 ? <JudgeTable cells={state.cells} rerunLabel={state.rerunLabel} /> : null}
    </section>
  );
}

function scoreOf(cell: SideCell | undefined, pick: (o: Extract<JudgeOutcome, { ok: true }>) => number | null): string {
  if (!cell) return '—';
  if (cell.status === 'pending') return '…';
  if (!cell.outcome.ok) return 'failed';
  const v = pick(cell.outcome);
  return v === null ? '—' : String(v);
}

function JudgeTable({ cells, rerunLabel }: { cells: Partial<Record<JudgeSide, SideCell>>; rerunLabel: string | null }) {
  const sides: JudgeSide[] = cells.rerun ? ['recorded', 'rerun'] : ['recorded'];
  const head: Record<JudgeSide, string> = { recorded: 'Recorded', rerun: 'Re-run' };
  const rows: { label: string; strong?: boolean; pick: (o: Extract<JudgeOutcome, { ok: true }>) => number | null }[] = [
    { label: 'Timing (mean)', strong: true, pick: (o) => o.scores.timing },
    ...TIMING_CRITERIA.map((k) => ({ label: CRITERION_LABEL[k], pick: (o: Extract<JudgeOutcome, { ok: true }>) => o.scores.criteria[k] })),
    { label: 'Content (mean)', strong: true, pick: (o) => o.scores.content },
    ...CONTENT_CRITERIA.map((k) => ({ label: CRITERION_LABEL[k], pick: (o: Extract<JudgeOutcome, { ok: true }>) => o.scores.criteria[k] })),
    { label: 'Overall', strong: true, pick: (o) => o.scores.overall },
  ];
  return (
    <div className="research-table-wrap">
      <table className="research-table ss-judge-table">
        <caption className="muted small">Scores from 1 to 5{rerunLabel && cells.rerun ? `; re-run: ${rerunLabel}` : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Criterion</th>
            {sides.map((s) => (
              <th key={s} scope="col" className="num">
                {head[s]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} className={r.strong ? 'ss-judge-mean' : undefined}>
              <th scope="row">{r.label}</th>
              {sides.map((s) => (
                <td key={s} className="num">
                  {scoreOf(cells[s], r.pick)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {sides.map((s) => {
        const cell = cells[s];
        if (!cell || cell.status !== 'done') return null;
        return (
          <p key={s} className={cell.outcome.ok ? 'small ss-judge-why' : 'small research-warn'}>
            <strong>{head[s]}:</strong> {cell.outcome.ok ? `${cell.outcome.scores.justification || 'no justification given'}${cell.outcome.cached ? ' (from cache)' : ''}` : `not scored: ${cell.outcome.reason}`}
          </p>
        );
      })}
    </div>
  );
}
