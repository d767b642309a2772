// Self-Sum: the trajectory's segments H¹ … H^{k+1} on one step axis, when each summary fired (timing turn,
// steps since the last summary, consecutive ones flagged), and the summary as the next segment received it.
import { useMemo } from 'react';
import { selfSumSegments, stripCells, type SelfSumReport, type SelfSumSegment, type SelfSumStep, type SelfSumSummary } from '../../../src/research';
import type { Item } from '../../../src/model/types';
import type { PanelProps } from './panel-props';
import { fmt, MarkedText, plural, segName, sumName, useCallOf, useOutputIds, VirtualStack } from './research-parts';
import { SelfSumJudge } from './SelfSumJudge';
import './rerun/rerun.css';
import './self-sum.css';

/** Summary steps listed in the lead line; the table has them all. */
const LEAD_STEPS = 12;

const KIND_LABEL: Record<SelfSumStep['kind'], string> = {
  action: 'action',
  timing: 'summary action (timing turn)',
  summary: 'summary (content turn)',
  answer: 'answer',
  other: 'turn without action',
};

function stepRange(seg: SelfSumSegment): string {
  if (seg.firstStep === null) return 'no steps';
  return seg.firstStep === seg.lastStep ? `step ${seg.firstStep}` : `steps ${seg.firstStep}–${seg.lastStep}`;
}

/** The segment's context: what its last call was sent, the same count the context view shows for that call. */
function contextLabel(seg: SelfSumSegment): string {
  return seg.lastCall === null ? 'no call' : `${fmt(seg.contextTokens)} tokens sent at call ${seg.lastCall + 1}`;
}

function segmentLabel(seg: SelfSumSegment): string {
  return `${segName(seg.index)}: ${stepRange(seg)}, ${plural(seg.steps, 'step')} (${plural(seg.actionSteps, 'action')}), ${contextLabel(seg)}`;
}

export default function SelfSumPanel({ session, view, callIndex, itemById, goTo }: PanelProps) {
  const report = useMemo(() => selfSumSegments(session, view), [session, view]);
  const callOf = useCallOf(view);
  const outputs = useOutputIds(view, callIndex);
  const currentStep = report.steps.find((s) => s.itemIds.some((id) => outputs.has(id))) ?? null;

  if (report.steps.length === 0) return <p className="empty">This trajectory has no agent turns, so it has no segments to show.</p>;

  const goToItem = (item: string | null | undefined, fallback?: string | null) => {
    const id = item ?? fallback;
    if (!id) return;
    const call = callOf(id);
    goTo(call === undefined ? { item: id } : { call, item: id });
  };
  const { segments, summaries } = report;
  const consecutive = summaries.filter((s) => s.consecutive).length;

  return (
    <div className="research ss">
      <p className="research-lead">
        <strong>{plural(segments.length, 'segment')}</strong> · {plural(summaries.length, 'summary', 'summaries')} · {plural(report.steps.length, 'step')}
        {summaries.length > 0 ? (
          <>
            {' '}
            · fired at {summaries.length === 1 ? 'step' : 'steps'} {summaries.slice(0, LEAD_STEPS).map((s) => s.firedAtStep).join(', ')}
            {summaries.length > LEAD_STEPS ? ', …' : ''}
          </>
        ) : null}
        {consecutive > 0 ? <span className="research-flag"> · {plural(consecutive, 'consecutive summary', 'consecutive summaries')}</span> : null}
      </p>

      <section className="research-section" aria-labelledby="ss-strip-h">
        <h3 id="ss-strip-h">Segments</h3>
        <SegmentStrip report={report} currentStep={currentStep} onSegment={(seg) => goToItem(seg.openerId, seg.itemIds[0])} onSummary={(s) => goToItem(s.itemId)} onStep={(s) => goToItem(s.itemIds[0])} />
        <p className="research-note">
          Width: steps (every agent turn counts, timing and summary turns included, as the paper's summary prompt counts them). Each segment after the first starts with U<sup>(k)</sup> = (q, s<sub>k</sub>): the query and the latest summary, and nothing of the segments before. Tokens and grey bar: what the segment's last call was sent (system prompt, U<sup>(k)</sup> and the segment so far), as the context view counts that call.
          {report.systemTokens > 0 ? <> The system prompt ({fmt(report.systemTokens)} tokens) is in every segment's count.</> : null}
        </p>
      </section>

      {summaries.length === 0 ? (
        <p className="empty">No summaries: the agent never summarized, so the whole trajectory is one segment, {segName(1)}.</p>
      ) : (
        <>
          <section className="research-section" aria-labelledby="ss-timing-h">
            <h3 id="ss-timing-h">Summary timing</h3>
            <TimingTable summaries={summaries} currentStep={currentStep?.step ?? null} onSummary={(s) => goToItem(s.itemId)} onTiming={(s) => goToItem(s.timingItemId)} />
          </section>

          <SelfSumJudge session={session} />

          <section className="research-section" aria-labelledby="ss-fed-h">
            <h3 id="ss-fed-h">Each summary and the segment it starts</h3>
            <VirtualStack
              items={summaries}
              label="Summaries fed into the next segment"
              estimate={220}
              itemKey={(s) => s.itemId}
              className="ss-fed-list"
              render={(s) => <FedCard summary={s} current={currentStep?.segment === s.segment + 1} itemById={itemById} onOpen={() => goToItem(s.fed?.itemId, s.itemId)} />}
            />
          </section>
        </>
      )}
    </div>
  );
}

function SegmentStrip({ report, currentStep, onSegment, onSummary, onStep }: { report: SelfSumReport; currentStep: SelfSumStep | null; onSegment(seg: SelfSumSegment): void; onSummary(s: SelfSumSummary): void; onStep(s: SelfSumStep): void }) {
  const cells = useMemo(() => stripCells(report.segments.map((s) => s.steps), 8), [report.segments]);
  const maxTokens = Math.max(1, ...report.segments.map((s) => s.contextTokens));
  const summaryOf = new Map(report.summaries.map((s) => [s.itemId, s]));
  const stepsOf = (k: number) => report.steps.filter((s) => s.segment === k);
  return (
    <div className="ss-strip-wrap">
      {report.summaries.length > 0 ? (
        <div className={`ss-markers${report.summaries.length > 14 ? ' dots' : report.summaries.length > 6 ? ' dense' : ''}`} role="group" aria-label="Summaries on the step axis">
          {report.segments.map((seg, i) => {
            const closing = seg.summaryId ? summaryOf.get(seg.summaryId) : undefined;
            if (!closing) return null;
            const cell = cells[i]!;
            return (
              <button
                key={closing.itemId}
                type="button"
                className={`ss-marker${closing.consecutive ? ' consecutive' : ''}`}
                style={{ left: `${cell.left + cell.width}%` }}
                aria-label={`${sumName(closing.k)}: summary fired at step ${closing.firedAtStep}${closing.consecutive ? ', consecutive' : ''}`}
                title={`${sumName(closing.k)} fired at step ${closing.firedAtStep}, written at step ${closing.contentStep}`}
                onClick={() => onSummary(closing)}
              >
                {sumName(closing.k)} <span className="ss-marker-step">@{closing.firedAtStep}</span>
              </button>
            );
          })}
        </div>
      ) : null}
      <ol className="ss-strip" aria-label="Segments">
        {report.segments.map((seg, i) => {
          const cell = cells[i]!;
          const current = currentStep?.segment === seg.index;
          const steps = stepsOf(seg.index);
          return (
            <li key={seg.index} className={`ss-cell${current ? ' current' : ''}`} style={{ left: `${cell.left}%`, width: `${cell.width}%` }}>
              <button type="button" className="ss-seg" aria-label={segmentLabel(seg)} title={segmentLabel(seg)} aria-current={current ? 'step' : undefined} onClick={() => onSegment(seg)}>
                <span className="ss-seg-name">{segName(seg.index)}</span>
                <span className="ss-seg-facts">{plural(seg.steps, 'step')}</span>
                <span className="ss-seg-facts">{fmt(seg.contextTokens)} tok</span>
                <span className="ss-seg-tokens" aria-hidden="true">
                  <span style={{ width: `${(seg.contextTokens / maxTokens) * 100}%` }} />
                </span>
              </button>
              <span className="ss-ticks" aria-hidden="true">
                {steps.map((s) => (
                  <span key={s.step} className={`ss-tick tick-${s.kind}${currentStep?.step === s.step ? ' current' : ''}`} title={`Step ${s.step}: ${KIND_LABEL[s.kind]}`} onClick={() => onStep(s)} />
                ))}
              </span>
            </li>
          );
        })}
      </ol>
      <div className="ss-axis" aria-hidden="true">
        <span>step 1</span>
        <span>step {report.steps.length}</span>
      </div>
      <ul className="research-legend" aria-label="Step kinds">
        <li>
          <span className="swatch tick-action" /> action
        </li>
        <li>
          <span className="swatch tick-timing" /> timing turn: the <q>summary</q> action
        </li>
        <li>
          <span className="swatch tick-summary" /> content turn: writes the summary
        </li>
        <li>
          <span className="swatch tick-answer" /> answer
        </li>
      </ul>
    </div>
  );
}

function TimingTable({ summaries, currentStep, onSummary, onTiming }: { summaries: SelfSumSummary[]; currentStep: number | null; onSummary(s: SelfSumSummary): void; onTiming(s: SelfSumSummary): void }) {
  return (
    <div className="research-table-wrap">
      <table className="research-table ss-timing">
        <thead>
          <tr>
            <th scope="col">Summary</th>
            <th scope="col">Fired at step</th>
            <th scope="col">Steps since last</th>
            <th scope="col">Written at step</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col">Next segment</th>
          </tr>
        </thead>
        <tbody>
          {summaries.map((s) => {
            const here = currentStep !== null && (currentStep === s.contentStep || currentStep === s.timingStep);
            return (
              <tr key={s.itemId} className={`${s.consecutive ? 'flagged' : ''}${here ? ' current' : ''}`}>
                <th scope="row">
                  <button type="button" className="link" aria-label={`Go to summary ${sumName(s.k)}`} onClick={() => onSummary(s)}>
                    {sumName(s.k)}
                  </button>
                </th>
                <td>
                  {s.timingStep !== null ? (
                    <button type="button" className="link" aria-label={`Go to the timing turn of ${sumName(s.k)}, step ${s.timingStep}`} onClick={() => onTiming(s)}>
                      {s.timingStep}
                    </button>
                  ) : (
                    <span title="No summary action before it: the agent wrote the summary straight away">
                      {s.firedAtStep} <span className="muted small">(no timing turn)</span>
                    </span>
                  )}
                </td>
                <td>
                  {s.stepsSinceLast}
                  {s.k === 1 ? <span className="muted small"> since start</span> : null}
                  {s.consecutive ? <span className="badge warn">consecutive</span> : null}
                </td>
                <td>{s.contentStep}</td>
                <td className="num">{fmt(s.tokens)}</td>
                <td>
                  {s.fed ? (
                    <>
                      {segName(s.segment + 1)}
                      {s.fed.span ? null : <span className="badge warn">not verbatim</span>}
                    </>
                  ) : (
                    <span className="muted">not restated</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="research-note">Steps since last: environment actions between the previous summary and this one's decision. A summary with none is consecutive (the paper's data prompt: "Do not summarize consecutively").</p>
    </div>
  );
}

function FedCard({ summary: s, current, itemById, onOpen }: { summary: SelfSumSummary; current: boolean; itemById: ReadonlyMap<string, Item>; onOpen(): void }) {
  const next = segName(s.segment + 1);
  const why = s.timingThoughtId ? itemById.get(s.timingThoughtId)?.text : undefined;
  return (
    <article className={`ss-fed${current ? ' current' : ''}`} aria-label={`${sumName(s.k)} fed into ${next}`}>
      <header>
        <h4>
          <button type="button" className="link" onClick={onOpen} aria-label={s.fed ? `Go to the first user turn of ${next}` : `Go to summary ${sumName(s.k)}`}>
            {sumName(s.k)} → {next}
          </button>
        </h4>
        <span className="muted small">
          {s.timingStep !== null ? <>decided at step {s.timingStep}, </> : null}written at step {s.contentStep} · {fmt(s.tokens)} tokens
        </span>
      </header>
      {why ? (
        <p className="ss-why">
          <span className="ss-label">Why now</span> <span className="ss-why-text">{why}</span>
        </p>
      ) : null}
      {s.fed ? (
        <>
          <p className="ss-label">
            {next} starts with <code>{s.fed.itemId}</code> ({fmt(s.fed.tokens)} tokens){s.fed.span ? ', the summary marked:' : ':'}
          </p>
          {s.fed.span ? null : <p className="research-warn">This turn does not contain the summary verbatim: the next segment got something else. Both are shown.</p>}
          <blockquote className="ss-fed-text">
            <MarkedText text={s.fed.text} span={s.fed.span} />
          </blockquote>
          {s.fed.span ? null : (
            <>
              <p className="ss-label">The summary as written:</p>
              <blockquote className="ss-fed-text ss-summary-text">{s.text}</blockquote>
            </>
          )}
        </>
      ) : (
        <>
          <p className="research-warn">No user turn after it restates the summary (the trajectory may end here).</p>
          <blockquote className="ss-fed-text ss-summary-text">{s.text}</blockquote>
        </>
      )}
    </article>
  );
}
