// The inspector shell: step through calls, the context first, panels beside it.
import type React from 'react';
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { AnalysisView } from '../../src/analysis/analysis-view';
import { firstSentByItem } from '../../src/analysis/call-lookup';
import type { Item, Session } from '../../src/model/types';
import type { ReportedView } from '../../src/analysis/reported-view';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { StripScrollButtons } from '../components/StripScrollButtons';
import { onTablistKeyDown } from '../components/tablist-keys';
import { useAnalysis, useCountProgress, type AnalysisResult, type ProgressSource } from '../data/analysis-client';
import { applyLintRules } from '../../src/lints/lint-session';
import { useShortcuts } from '../data/keyboard';
import { applyPendingView } from '../data/pending-view';
import { takeUrlSpot, useUrlSync } from '../data/url-state';
import { useScrollCue } from '../hooks/use-scroll-cue';
import { useTabOverflow } from '../hooks/use-tab-overflow';
import { useWidth } from '../hooks/use-width';
import { useApp } from '../store';
import { ContextView } from './ContextView';
import { HelpDialog } from './HelpDialog';
import { panelsFor, preloadPanels, type PanelDef } from './panels';
import type { GoTo, PanelProps } from './panels/panel-props';
import { SearchDialog } from './SearchDialog';
import { TranscriptView } from './TranscriptView';
import { count as formatCount } from '../format/count';
import { whenIdle } from './when-idle';

/**
 * Where to show an item: the first call whose context holds it, so it appears in the bands;
 * else the call that produced it.
 */
function firstContextWith(view: AnalysisView, id: string): number | null {
  const inContext = view.spans ? firstSentByItem(view.calls, view.spans).get(id) ?? -1 : view.calls.findIndex((c) => c.entries.some((e) => e.id === id));
  if (inContext >= 0) return inContext;
  const produced = view.calls.findIndex((c) => c.outputIds.includes(id));
  return produced >= 0 ? produced : null;
}

/** Below this width the context and the panels take turns instead of sitting side by side. */
const NARROW_PX = 1100;

/** What the stepper needs of the calls: the analysis's, or before it the reported view's (reported-view.ts). */
type StepperCall = { index: number; compactionId: string | null; timestamp?: string | null };

export function Stepper({ view, callIndex, setCall, extra }: { view: { calls: readonly StepperCall[]; cache: AnalysisView['cache'] }; callIndex: number; setCall(i: number): void; extra: React.ReactNode }) {
  const n = view.calls.length;
  const compactionCalls = useMemo(() => view.calls.filter((c) => c.compactionId).map((c) => c.index), [view.calls]);
  const prevC = compactionCalls.findLast((i) => i < callIndex);
  const nextC = compactionCalls.find((i) => i > callIndex);
  const call = view.calls[callIndex];
  return (
    <div className="stepper" role="toolbar" aria-label="Step through calls">
      <button type="button" onClick={() => setCall(callIndex - 1)} disabled={callIndex <= 0} aria-label="Previous call">
        ‹ Prev
      </button>
      <div className="slider">
        <input type="range" aria-label="Call" min={1} max={Math.max(1, n)} value={callIndex + 1} onChange={(e) => setCall(Number(e.target.value) - 1)} disabled={n <= 1} />
        <SliderTicks calls={compactionCalls} n={n} />
        <BreakTicks view={view} n={n} />
      </div>
      <button type="button" onClick={() => setCall(callIndex + 1)} disabled={callIndex >= n - 1} aria-label="Next call">
        Next ›
      </button>
      <span className="call-label" aria-live="polite">
        {n === 0 ? 'No model calls in this session' : `Call ${callIndex + 1} of ${n}`}
        {call?.timestamp ? <span className="muted small"> · {call.timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</span> : null}
      </span>
      <span className="stepper-gap" />
      {extra}
      <button type="button" onClick={() => prevC !== undefined && setCall(prevC)} disabled={prevC === undefined} aria-label="Previous compaction">
        ⟨ compaction
      </button>
      <button type="button" onClick={() => nextC !== undefined && setCall(nextC)} disabled={nextC === undefined} aria-label="Next compaction">
        compaction ⟩
      </button>
    </div>
  );
}

/** One mark per compaction on the slider; thousands of them share a few hundred positions, one mark each. */
const SliderTicks = memo(function SliderTicks({ calls, n }: { calls: readonly number[]; n: number }) {
  const at = [...new Set(calls.map((i) => (n > 1 ? Math.round((i / (n - 1)) * 400) / 4 : 0)))];
  return (
    <div className="slider-ticks" aria-hidden="true">
      {at.map((pct) => (
        <span key={pct} className="slider-tick" style={{ left: `${pct}%` }} />
      ))}
    </div>
  );
});

/** The session's cache breaks on the slider, colored by cause (reported or predicted alike). */
const BreakTicks = memo(function BreakTicks({ view, n }: { view: { cache: AnalysisView['cache'] }; n: number }) {
  const at = new Map<number, string>();
  for (const r of view.cache) if (r.cacheBreak) at.set(n > 1 ? Math.round((r.index / (n - 1)) * 400) / 4 : 0, r.cause ?? 'unknown');
  return (
    <div className="slider-ticks break-ticks" aria-hidden="true">
      {[...at].map(([pct, cause]) => (
        <span key={pct} className={`slider-tick break-tick cause-${cause}`} style={{ left: `${pct}%` }} />
      ))}
    </div>
  );
});

function CountStatus({ result, source }: { result: AnalysisResult; source: ProgressSource }) {
  const progress = useCountProgress(source);
  const e = result.encoding;
  if (!result.exact) {
    const pct = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
    return (
      <span className="count-status estimating" role="status" title="Token counts are estimates until the exact count finishes">
        Estimated tokens · counting exactly {pct}%
      </span>
    );
  }
  // Counting is done: no estimate marker (≈) from here on. A tokenizer standing in for the model's own is said in
  // words, since its counts are exact for it and only the model's own count is unknown.
  return (
    <span className={`count-status${e.approximate ? ' approximate' : ''}`} title={e.approximate ? `Counted exactly with ${e.encoding}, a stand-in for this model's tokenizer: ${e.reason}` : `Counted exactly with ${e.reason}`}>
      {e.encoding}
      {e.approximate ? ' (stand-in)' : null}
    </span>
  );
}

function Ready({ session, view, exact, status: countStatus }: { session: Session; view: AnalysisView; exact: boolean; status: React.ReactNode }) {
  const callIndex = useApp((s) => Math.min(s.callIndex, Math.max(0, view.calls.length - 1)));
  const setCallRaw = useApp((s) => s.setCall);
  const selectItem = useApp((s) => s.selectItem);
  const panel = useApp((s) => s.panel);
  const setPanel = useApp((s) => s.setPanel);
  const leftView = useApp((s) => s.leftView);
  const setLeftView = useApp((s) => s.setLeftView);
  const rule = useApp((s) => s.rule);
  const setRule = useApp((s) => s.setRule);
  const helpOpen = useApp((s) => s.helpOpen);
  const setHelpOpen = useApp((s) => s.setHelpOpen);
  const searchOpen = useApp((s) => s.searchOpen);
  const setSearchOpen = useApp((s) => s.setSearchOpen);
  const [status, setStatus] = useState<string | null>(null);
  const itemById = useMemo(() => new Map<string, Item>(view.items.map((i) => [i.id, i])), [view]);
  const setCall = useCallback((i: number) => setCallRaw(Math.max(0, Math.min(view.calls.length - 1, i))), [setCallRaw, view]);
  // A session followed live with "follow the tail" on shows its newest call as calls arrive; otherwise the call stays.
  const followTail = useApp((s) => (s.activeKey ? s.follows[s.activeKey]?.tail === true : false));
  useEffect(() => {
    if (followTail) setCallRaw(Math.max(0, view.calls.length - 1));
  }, [followTail, view.calls.length, setCallRaw]);
  const [synced, setSynced] = useState(false);
  useUrlSync(synced);

  const goTo = useCallback(
    (t: GoTo) => {
      let call = t.call;
      if (t.item !== undefined) {
        const here = view.calls[call ?? callIndex]?.entries.some((e) => e.id === t.item);
        if (call === undefined && !here) call = firstContextWith(view, t.item) ?? undefined;
        selectItem(t.item);
        const inContext = view.calls[call ?? callIndex]?.entries.some((e) => e.id === t.item) ?? false;
        setLeftView(inContext ? 'context' : 'transcript');
      }
      if (call !== undefined) setCall(call);
    },
    [view, callIndex, selectItem, setCall, setLeftView],
  );

  // Open at the spot the URL names; only the first session of the page owns that spot. Before the first paint, so
  // a step the user takes as soon as the view shows is not undone by this.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current) return;
    opened.current = true;
    // A share link or bundle that opened this session brings its own view.
    // Read before the URL sync rewrites the address bar (it starts once `synced` is set below).
    const spot = takeUrlSpot();
    if (applyPendingView(session, view)) return setSynced(true);
    // A call the user stepped to on the first look (ReportedInspector) is kept, unless the address names one.
    const stepped = firstLookCall?.sessionId === session.id ? firstLookCall.call : 0;
    firstLookCall = null;
    goTo({ ...(spot.turn !== null ? { call: spot.turn - 1 } : { call: stepped }), ...(spot.item ? { item: spot.item } : {}) });
    // With no model call to show a context for, the items themselves are the view.
    if (view.calls.length === 0) setLeftView('transcript');
    else if (spot.view) setLeftView(spot.view);
    else if (!spot.item) setLeftView('context');
    const named = panelsFor(session).find((p) => p.id === spot.panel);
    if (named) setPanel(named.id);
    setSynced(true);
  }, [goTo, view, setLeftView, setPanel, session]);

  const shortcuts = useMemo(
    () => ({
      j: () => setCall(callIndex + 1),
      ArrowRight: () => setCall(callIndex + 1),
      k: () => setCall(callIndex - 1),
      ArrowLeft: () => setCall(callIndex - 1),
      Home: () => setCall(0),
      End: () => setCall(view.calls.length - 1),
      n: () => {
        const next = view.calls.find((c) => c.index > callIndex && c.compactionId);
        if (next) setCall(next.index);
        else setStatus('No later compaction.');
      },
      p: () => {
        const prev = [...view.calls].reverse().find((c) => c.index < callIndex && c.compactionId);
        if (prev) setCall(prev.index);
        else setStatus('No earlier compaction.');
      },
      b: () => {
        if (view.pending.includes('cache')) return setStatus('The cache verdicts are still being worked out; try again in a moment.');
        const next = view.cache.find((r) => r.index > callIndex && r.cacheBreak);
        if (next) setCall(next.index);
        else setStatus('No later cache break.');
      },
      B: () => {
        const prev = view.cache.findLast((r) => r.index < callIndex && r.cacheBreak);
        if (prev) setCall(prev.index);
        else setStatus('No earlier cache break.');
      },
      d: () => {
        if (view.pending.includes('cache')) return setStatus('The cache prefix is still being worked out; try again in a moment.');
        const div = view.cache[callIndex]?.divergence;
        if (div && div.itemIndex >= 0) goTo({ call: callIndex, item: div.itemId });
        else setStatus(div ? 'This call diverges in the tool schemas.' : 'No cache divergence at this call.');
      },
      '/': () => setSearchOpen(true),
      '?': () => setHelpOpen(true),
      Escape: () => {
        setSearchOpen(false);
        setHelpOpen(false);
      },
    }),
    [callIndex, view, setCall, goTo, setSearchOpen, setHelpOpen],
  );
  useShortcuts(shortcuts);
  useEffect(() => {
    if (!status) return;
    const t = setTimeout(() => setStatus(null), 2500);
    return () => clearTimeout(t);
  }, [status]);

  const panels = useMemo(() => panelsFor(session), [session]);
  // Once the first view is up, fetch the code of this session's other panels so their first click shows them at once.
  useEffect(() => {
    const t = setTimeout(() => preloadPanels(panels), 0);
    return () => clearTimeout(t);
  }, [panels]);
  // The Flow tab's diagram is drawn ahead in idle time once the counts are exact, so a first click on Flow finds it
  // drawn instead of paying ~0.5 s of main-thread CPU. Not for the estimate: Mermaid's render is not sliced, and
  // during the count its tasks (up to ~0.2 s) would break the main thread's budget while counting (no task > 100 ms).
  const flowTab = panels.find((p) => p.id === 'flow');
  const hasFlow = flowTab !== undefined;
  useEffect(() => {
    if (!hasFlow || !exact) return;
    // Mermaid's code (13 chunks, ~1.5 MB) is fetched at once, not in idle time: a busy page seldom idles, and the
    // Flow tab clicked first waited for the fetch (0.3-0.7 s on a loaded 2-core machine). Fetching is the network's
    // work; evaluating it comes after the counts, so it takes no task from the count's main-thread budget.
    flowTab?.warm?.();
    return whenIdle(() => void import('./panels/flow-drawing').then((m) => m.predrawFlow(view)).catch(() => undefined));
  }, [hasFlow, flowTab, exact, view]);
  const active = panels.find((p) => p.id === panel) ?? panels[0]!;
  const uid = useId();
  // Narrow windows show one side at a time: choosing a panel shows the panels, a jump to an item the context.
  const body = useRef<HTMLDivElement>(null);
  const narrow = useWidth(body, 1400) < NARROW_PX;
  const [narrowSide, setNarrowSide] = useState<'left' | 'right'>('left');
  const shownPanel = useRef(panel);
  useEffect(() => {
    if (shownPanel.current !== panel) setNarrowSide('right');
    shownPanel.current = panel;
  }, [panel]);
  const tabStrip = useRef<HTMLDivElement>(null);
  useScrollCue(tabStrip, [narrow, panels.length], { selector: '[aria-selected="true"]', key: active.id });
  // A narrow window shows the tabs that fit and lists the others in a menu beside them. A wide one keeps them on one
  // row that scrolls sideways, with buttons at the ends it continues past: wrapped, they took three rows at 1400 px.
  const tabBar = useRef<HTMLDivElement>(null);
  const panelIds = useMemo(() => panels.map((p) => p.id), [panels]);
  const overflow = useTabOverflow(tabBar, panelIds, active.id, narrow);
  const choosePanel = (id: PanelDef['id']) => {
    setPanel(id);
    setNarrowSide('right');
  };
  const panelTabs = (
    <div className="panel-tabs-bar" ref={tabBar}>
      <div className="subtabs panel-tabs" ref={tabStrip} role="tablist" aria-label="Panels" onKeyDown={onTablistKeyDown}>
      {panels.filter((p) => !overflow.includes(p.id)).map((p) => (
        <button
          key={p.id}
          data-tab={p.id}
          type="button"
          role="tab"
          id={`${uid}-tab-${p.id}`}
          aria-controls={`${uid}-panel`}
          aria-selected={p.id === active.id}
          tabIndex={p.id === active.id ? 0 : -1}
          onClick={() => choosePanel(p.id)}
          onPointerEnter={p.warm}
          onFocus={p.warm}
        >
          {p.name}
        </button>
      ))}
      </div>
      {narrow ? null : <StripScrollButtons strip={tabStrip} name="panel tabs" />}
      {overflow.length ? (
        <select
          className="tab-more"
          data-tab-more=""
          aria-label={`More panels (${overflow.length})`}
          value=""
          onChange={(e) => e.target.value && choosePanel(e.target.value as PanelDef['id'])}
          onFocus={() => panels.forEach((p) => overflow.includes(p.id) && p.warm?.())}
        >
          <option value="" disabled hidden>
            More ({overflow.length})
          </option>
          {panels
            .filter((p) => overflow.includes(p.id))
            .map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
        </select>
      ) : null}
    </div>
  );
  const goToShown = useCallback(
    (t: GoTo) => {
      goTo(t);
      if (t.item !== undefined) setNarrowSide('left');
    },
    [goTo],
  );
  const props = { session, view, callIndex, itemById, goTo: goToShown, rule, setRule };
  // A session without model calls has no call to name (never "Call 1 of 0").
  const contextLabel = view.calls.length === 0 ? 'Context (no calls)' : `Context at call ${callIndex + 1}`;
  return (
    <div className="inspector">
      <Stepper view={view} callIndex={callIndex} setCall={setCall} extra={countStatus} />
      {status ? (
        <p className="status-toast" role="status">
          {status}
        </p>
      ) : null}
      <div className={`inspector-body${narrow ? ` narrow show-${narrowSide}` : ''}`} ref={body}>
        {narrow ? (
          <div className="narrow-switch">
            {/* The side's name only: the left view's own tabs below it name the call ("Context at call N" twice read as two things). */}
            <button type="button" className="narrow-left" aria-pressed={narrowSide === 'left'} onClick={() => setNarrowSide('left')}>
              {leftView === 'context' ? 'Context' : 'All items'}
            </button>
            {panelTabs}
          </div>
        ) : null}
        <div className="inspector-left">
          <div className="subtabs" role="tablist" aria-label="Left view" onKeyDown={onTablistKeyDown}>
            <button type="button" role="tab" id={`${uid}-tab-context`} aria-controls={`${uid}-left`} tabIndex={leftView === 'context' ? 0 : -1} aria-selected={leftView === 'context'} onClick={() => setLeftView('context')}>
              {contextLabel}
            </button>
            <button type="button" role="tab" id={`${uid}-tab-transcript`} aria-controls={`${uid}-left`} tabIndex={leftView === 'transcript' ? 0 : -1} aria-selected={leftView === 'transcript'} onClick={() => setLeftView('transcript')}>
              All items ({formatCount(view.facts.items)})
            </button>
            <span className="stepper-gap" />
            <button type="button" className="link" onClick={() => setSearchOpen(true)} aria-label="Search (/)">
              Search /
            </button>
            <button type="button" className="link" onClick={() => setHelpOpen(true)} aria-label="Keyboard shortcuts (?)">
              ?
            </button>
          </div>
          <div className="left-tabpanel" role="tabpanel" id={`${uid}-left`} aria-labelledby={`${uid}-tab-${leftView}`}>
            <ErrorBoundary name={leftView === 'context' ? 'The context view' : 'The transcript'}>
              {leftView === 'context' ? (
                <section className="left-pane" aria-label={contextLabel}>
                  <ContextView view={view} callIndex={callIndex} itemById={itemById} onJump={(id) => goTo({ item: id })} />
                </section>
              ) : (
                <TranscriptView session={{ ...session, items: view.items.length > session.items.length ? view.items : session.items }} />
              )}
            </ErrorBoundary>
          </div>
        </div>
        <div className="inspector-right">
          {narrow ? null : panelTabs}
          <div className="panel" role="tabpanel" id={`${uid}-panel`} aria-labelledby={`${uid}-tab-${active.id}`}>
            <section className="panel-region" aria-label={active.name}>
              <ErrorBoundary key={active.id} name={active.name}>
                <PanelBody def={active} props={props} />
              </ErrorBoundary>
            </section>
          </div>
        </div>
      </div>
      {searchOpen ? (
        <SearchDialog
          items={view.items}
          onClose={() => setSearchOpen(false)}
          onPick={(id) => {
            setSearchOpen(false);
            goToShown({ item: id });
          }}
        />
      ) : null}
      {helpOpen ? <HelpDialog onClose={() => setHelpOpen(false)} /> : null}
    </div>
  );
}

/** The chosen panel: at once when its code is here, else a loading line until it is. */
function PanelBody({ def, props }: { def: PanelDef; props: PanelProps }) {
  const Component = def.module.loaded();
  const [failed, setFailed] = useState<unknown>(null);
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (Component) return;
    let live = true;
    def.module.load().then(
      () => live && setLoaded((n) => n + 1),
      (e: unknown) => live && setFailed(e ?? new Error(`The ${def.name} panel's code could not be fetched`)),
    );
    return () => {
      live = false;
    };
  }, [def, Component]);
  // The error boundary around the panel shows it, with a retry that fetches again.
  if (failed) throw failed;
  if (!Component) return <p className="muted panel-loading">Loading {def.name}…</p>;
  return <Component {...props} />;
}

export function Inspector({ sessionKey, session }: { sessionKey: string; session: Session }) {
  const rule = useApp((s) => s.rule);
  // The instruction files the user added: the summary audit reads them, nothing else does.
  const instructionFiles = useApp((s) => s.sessions.find((x) => x.key === sessionKey)?.instructionFiles);
  const state = useAnalysis(sessionKey, session, rule, { instructionFiles });
  const reported = useApp((s) => s.sessions.find((x) => x.key === sessionKey)?.reported ?? null);
  if (state.status === 'loading') return reported ? <ReportedInspector reported={reported} /> : <AnalysisLoading />;
  if (state.status === 'error') {
    return (
      <div role="alert" className="view-error">
        <strong>The analysis could not finish.</strong> {state.message}
        <details>
          <summary>Error as reported</summary>
          <code>{state.detail}</code>
        </details>
      </div>
    );
  }
  return <WithRules session={session} view={state.result.view} exact={state.result.exact} status={<CountStatus result={state.result} source={state.progress} />} />;
}

/** The view with the user's lint rule settings applied to the candidates (no second lint run). */
function WithRules({ session, view, exact, status }: { session: Session; view: AnalysisView; exact: boolean; status: React.ReactNode }) {
  const lintRules = useApp((s) => s.lintRules);
  const shown = useMemo(
    () => (Object.keys(lintRules.rules).length === 0 ? view : { ...view, lints: applyLintRules(view.lintCandidates, view.format, lintRules) }),
    [view, lintRules],
  );
  return <Ready session={session} view={shown} exact={exact} status={status} />;
}

function AnalysisLoading() {
  return (
    <p className="muted analysis-loading" role="status">
      Counting tokens and rebuilding each call's context…
    </p>
  );
}

const NO_CACHE: AnalysisView['cache'] = [];

/** The call the user stepped to on a session's first look, for its analysis's view to open at. */
let firstLookCall: { sessionId: string; call: number } | null = null;

/**
 * Before the analysis's first view: the calls and compactions as the reported usage shows them, while each call's
 * context is rebuilt.
 */
export function ReportedInspector({ reported }: { reported: ReportedView }) {
  const n = reported.calls.length;
  // Its own call, not the store's (that is the last session's until the analysis's view opens at this one's).
  const [callIndex, setCallIndex] = useState(() => (firstLookCall?.sessionId === reported.sessionId ? firstLookCall.call : 0));
  const setCall = useCallback(
    (i: number) => {
      const call = Math.max(0, Math.min(n - 1, i));
      firstLookCall = { sessionId: reported.sessionId, call };
      setCallIndex(call);
    },
    [n, reported],
  );
  const view = useMemo(() => ({ calls: reported.calls, cache: NO_CACHE }), [reported]);
  // A key pressed as soon as the stepper shows is not lost: the steps it takes carry over to the analysis's view.
  const setSearchOpen = useApp((s) => s.setSearchOpen);
  const setHelpOpen = useApp((s) => s.setHelpOpen);
  const shortcuts = useMemo(() => {
    const compaction = (dir: 1 | -1) => () => {
      const at = dir > 0 ? reported.calls.find((c) => c.index > callIndex && c.compactionId) : reported.calls.findLast((c) => c.index < callIndex && c.compactionId);
      if (at) setCall(at.index);
    };
    return {
      j: () => setCall(callIndex + 1),
      ArrowRight: () => setCall(callIndex + 1),
      k: () => setCall(callIndex - 1),
      ArrowLeft: () => setCall(callIndex - 1),
      Home: () => setCall(0),
      End: () => setCall(n - 1),
      n: compaction(1),
      p: compaction(-1),
      '/': () => setSearchOpen(true),
      '?': () => setHelpOpen(true),
    };
  }, [reported, callIndex, n, setCall, setSearchOpen, setHelpOpen]);
  useShortcuts(shortcuts);
  return (
    <div className="inspector">
      <Stepper view={view} callIndex={callIndex} setCall={setCall} extra={
          <span className="muted small first-look-status" title="The header and the calls come from the provider's reported usage; no token is counted yet">
            From reported usage
          </span>
        } />
      <AnalysisLoading />
    </div>
  );
}
