// Re-run: pick a compaction strategy, its parameters, a trigger and a summarizer (offline, or the user's
// OpenAI-compatible endpoint), run it over the session in a worker, and see the rerun beside the original.
import { useMemo, useRef, useState } from 'react';
import { policySession, strategyInfo } from '../../../src/compaction';
import { cancelRun, showSweepRow, startRun, startSweep, useRerunForm, useSessionRerun, useSweepForm } from '../../data/rerun-client';
import { defaultTriggerNote } from '../../../src/rerun/form';
import { useApp } from '../../store';
import { endpointOrigin } from '../../store/settings-slice';
import type { PanelProps } from './panel-props';
import { EndpointFields } from './rerun/EndpointFields';
import { PolicyFields, PromptFields, StrategyFields, TriggerFields } from './rerun/RerunFormFields';
import { RerunResultView } from './rerun/RerunResultView';
import { SweepFields, SweepTable } from './rerun/SweepSection';
import './rerun/rerun.css';

/** Scrolls the panel (not the page) so `el` is at its top. */
function scrollPanelTo(el: HTMLElement | null) {
  const scroller = el?.closest<HTMLElement>('.panel');
  if (!el || !scroller) return;
  scroller.scrollTo({ top: scroller.scrollTop + el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8 });
}

export default function RerunPanel({ session, view, callIndex, itemById, goTo, rule }: PanelProps) {
  const key = useApp((s) => s.activeKey) ?? session.id;
  const recordedCalls = useMemo(() => [...new Set(view.compactions.map((c) => c.call).filter((c): c is number => c !== null && c > 1))].sort((a, b) => a - b), [view.compactions]);
  const shape = { format: session.format, window: view.contextWindow, serverCompaction: session.compactions.some((c) => c.kind === 'server') && session.requests.some((r) => r.api === 'anthropic'), recordedCalls, harness: policySession(session, view.contextWindow) };
  const [form, setForm] = useRerunForm(key, shape);
  const [sweep, setSweep] = useSweepForm(key, form);
  const run = useSessionRerun(key);
  const origin = useApp(endpointOrigin);
  const resultRef = useRef<HTMLDivElement>(null);
  const [sweepOpen, setSweepOpen] = useState(run.sweep !== null);
  const running = run.status === 'running';
  const uses = strategyInfo(form.strategy).usesSummarizer;

  if (view.calls.length === 0) return <p className="empty">This session has no model calls, so there is nothing to re-run.</p>;

  const args = () => ({ key, session, form, endpoint: useApp.getState().endpoint, origin, rule, window: view.contextWindow });
  const onRun = async () => {
    scrollPanelTo(resultRef.current);
    const out = await startRun(args());
    // Show where the rerun first changed something, unless the user is already past it.
    const first = out?.result.events[0];
    if (first && useApp.getState().callIndex < first.callIndex) goTo({ call: first.callIndex });
  };
  const onSweep = () => void startSweep({ ...args(), sweep });

  return (
    <div className="rr-panel">
      <form
        className="rr-form"
        aria-label="Re-run settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) void onRun();
        }}
      >
        <PolicyFields form={form} setForm={setForm} disabled={running} windowTokens={view.contextWindow} harness={shape.harness} />
        <StrategyFields form={form} setForm={setForm} disabled={running} windowTokens={view.contextWindow} />
        <TriggerFields form={form} setForm={setForm} disabled={running} windowTokens={view.contextWindow} recordedCalls={recordedCalls} defaultNote={defaultTriggerNote(shape)} />
        <PromptFields form={form} setForm={setForm} disabled={running} windowTokens={view.contextWindow} />
        <EndpointFields disabled={running} />
        <div className="rr-actions">
          <button type="submit" className="primary" disabled={running}>
            Run
          </button>
          <button type="button" onClick={() => cancelRun(key)} disabled={!running}>
            Cancel
          </button>
          <span className="muted small">
            {uses ? (origin ? `Summaries from ${run.status === 'running' ? run.summarizer : 'the endpoint'}.` : 'Summaries from the offline summarizer (no network).') : 'This strategy does not call a summarizer.'}
          </span>
        </div>
      </form>
      <form
        className="rr-form"
        aria-label="Sweep settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) onSweep();
        }}
      >
        <details className="rr-sweep-box" open={sweepOpen} onToggle={(e) => setSweepOpen(e.currentTarget.open)}>
          <summary>
            Sweep over a grid <span className="muted small">(e.g. tail 1..5 × three thresholds; a table of reruns)</span>
          </summary>
          <SweepFields form={form} sweep={sweep} setSweep={setSweep} disabled={running} onSweep={onSweep} />
          {run.sweep ? (
            <SweepTable
              sweep={run.sweep}
              shownRow={run.shownRow}
              onPick={(i) => {
                showSweepRow(key, i);
                scrollPanelTo(resultRef.current);
              }}
            />
          ) : null}
        </details>
      </form>
      <div ref={resultRef}>
        <RerunResultView run={run} view={view} callIndex={callIndex} itemById={itemById} goTo={goTo} />
      </div>
    </div>
  );
}
