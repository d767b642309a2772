// Token budget per call: stacked bands, reported cache usage beside each bar, window and threshold lines, compactions.
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CallBands, CallView } from '../../../src/analysis/analysis-view';
import { CAUSE_LABEL } from '../../../src/charts/cache-summary';
import { BAND_LABEL, BAND_ORDER, bandsTotal, bucketCalls, bucketOf, compactionThreshold, newInputByRegion, stackBands, usageSplit, type BandKey, type Bucket, type UsageSplit } from '../../../src/charts/budget-bars';
import { callTicks, fitDomain, stepPath, tickFormat, yScale } from '../../../src/charts/budget-scale';
import type { Item } from '../../../src/model/types';
import type { PanelProps } from './panel-props';
import './token-budget.css';
import { useWidth } from '../../hooks/use-width';
import { maxOf } from '../../../src/model/arrays';
import { count as fmt } from '../../format/count';

/** Above this many calls, consecutive calls share a bar (drawn as their peak call). */
const MAX_BARS = 400;
/** Narrowest slot per bar; below it consecutive calls share a bar. */
const MIN_SLOT = 4;
const PLOT_HEIGHT = 240;
const TOP = 18;
const BOTTOM = 22;
const AXIS_WIDTH = 52;


function compactTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M`;
  if (n >= 10_000) return `${+(n / 1000).toFixed(1)}k`;
  return fmt(n);
}

function barName(call: CallView, total: number, bucket: Bucket, size: number): string {
  const io = `${fmt(total - call.bands.output)} in, ${fmt(call.bands.output)} out`;
  const compaction = call.compactionId ? `, after compaction ${call.compactionId}` : '';
  if (size === 1) return `Call ${call.index + 1}: ${fmt(total)} tokens (${io})${compaction}`;
  return `Calls ${bucket.start + 1}–${bucket.end + 1}: peak ${fmt(total)} tokens at call ${call.index + 1} (${io})${compaction}`;
}

export default function TokenBudgetPanel({ view, callIndex, goTo, itemById }: PanelProps) {
  const calls = view.calls;
  const patternId = `hatch-${useId().replace(/:/g, '')}`;
  const wrapRef = useRef<HTMLDivElement>(null);
  const barRefs = useRef<(SVGGElement | null)[]>([]);
  const refocus = useRef(false);
  const [hover, setHover] = useState<number | null>(null);
  // Bars are drawn once the pane's width is known: drawn at a guess, all of them were drawn again a frame later.
  const measured = useWidth(wrapRef, null);
  const wrapWidth = measured ?? 0;

  const totals = useMemo(() => calls.map((c) => bandsTotal(c.bands)), [calls]);
  // As many bars as the pane has room for: the chart fits its pane and never scrolls sideways.
  const maxBars = Math.max(1, Math.min(MAX_BARS, Math.floor((wrapWidth - 2) / MIN_SLOT)));
  const buckets = useMemo(() => (measured === null ? [] : bucketCalls(totals, maxBars)), [measured, totals, maxBars]);
  const bucketSize = buckets[0] ? buckets[0].end - buckets[0].start + 1 : 1;
  const usage = useMemo(() => calls.map((c) => usageSplit(c.usage, c.reportedPrompt)), [calls]);
  const anyUsage = usage.some((u) => u !== null);
  const threshold = useMemo(() => compactionThreshold(view.compactions), [view.compactions]);
  const ctxWindow = view.contextWindow;
  const dataMax = Math.max(maxOf(totals, 0), maxOf(usage.map((u) => u?.prompt ?? 0), 0));
  const domain = useMemo(() => fitDomain(dataMax, [{ value: ctxWindow }, { value: threshold }]), [dataMax, ctxWindow, threshold]);
  const [windowOn, thresholdOn] = domain.onScale as [boolean, boolean];
  const y = yScale(domain.ticks.max, PLOT_HEIGHT);

  const plotWidth = Math.max(0, wrapWidth - 2);
  const slot = buckets.length ? Math.max(MIN_SLOT, plotWidth / buckets.length) : 0;
  const chartWidth = Math.max(plotWidth, slot * buckets.length);
  const gap = slot >= 8 ? Math.min(slot * 0.22, 10) : slot >= 5 ? 1 : 0;
  const inner = slot - gap;
  // Bars too thin for a usage bar beside them get the reported figures as step lines across the chart.
  const dense = slot < 8;
  const usageBars = anyUsage && !dense;
  const mainW = usageBars ? Math.max(1, inner * 0.7) : Math.max(1, inner);
  const usageW = usageBars ? Math.max(1, inner - mainW - (inner >= 8 ? 2 : 0)) : 0;
  const tf = tickFormat(domain.ticks.max);
  const current = bucketOf(buckets, callIndex);

  // Bars are memoized: a step re-renders the two bars whose `current` changed, not all of them.
  const geo = useMemo<Geometry>(() => ({ slot, gap, mainW, usageW, usageGap: inner >= 8 ? 2 : 0, max: domain.ticks.max }), [slot, gap, mainW, usageW, inner, domain.ticks.max]);
  const peak = useMemo(() => totals.reduce((m, t) => Math.max(m, t), 0), [totals]);
  const compactionCount = useMemo(() => calls.reduce((k, c) => k + (c.compactionId ? 1 : 0), 0), [calls]);
  const compacted = useMemo(() => buckets.map((bk) => calls.slice(bk.start, bk.end + 1).some((c) => c.compactionId !== null)), [buckets, calls]);
  // The first cache break in each bar's calls, reported or predicted, marked above the bar by its cause.
  const breakAt = useMemo(() => buckets.map((bk) => view.cache.slice(bk.start, bk.end + 1).find((r) => r.cacheBreak) ?? null), [buckets, view.cache]);
  // Bar names change with the data, not with the step: built once, not for every bar on every step.
  const names = useMemo(() => buckets.map((bk) => barName(calls[bk.peak]!, totals[bk.peak]!, bk, bucketSize)), [buckets, calls, totals, bucketSize]);
  const latest = useRef({ buckets, goTo });
  latest.current = { buckets, goTo };
  const handlers = useMemo<BarHandlers>(() => {
    const go = (b: number) => {
      const { buckets: bs, goTo: to } = latest.current;
      const bucket = bs[Math.max(0, Math.min(bs.length - 1, b))];
      if (bucket) to({ call: bucket.peak });
    };
    return {
      activate: go,
      key(e, b) {
        const last = latest.current.buckets.length - 1;
        const to: Record<string, number> = { ArrowRight: b + 1, ArrowDown: b + 1, ArrowLeft: b - 1, ArrowUp: b - 1, Home: 0, End: last, PageDown: b + 10, PageUp: b - 10 };
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          e.stopPropagation();
          go(b);
          return;
        }
        const target = to[e.key];
        if (target === undefined) return;
        e.preventDefault();
        e.stopPropagation();
        refocus.current = true;
        go(target);
      },
      hover(b) {
        const bucket = b === null ? undefined : latest.current.buckets[b];
        setHover(bucket ? bucket.peak : null);
      },
      ref(b, el) {
        barRefs.current[b] = el;
      },
    };
  }, []);

  // Keyboard focus stays on the current bar after a keyboard step. (The chart fits its pane, so no bar is out of
  // view; reading the pane's scrollWidth here forced a layout of the whole page after every render.)
  useEffect(() => {
    if (refocus.current) {
      refocus.current = false;
      barRefs.current[current]?.focus();
    }
  }, [current]);

  if (calls.length === 0) {
    return <p className="empty">This session has no model calls, so there is no token budget to chart.</p>;
  }

  const shown = hover ?? callIndex;
  const shownCall = calls[shown] ?? calls[0]!;
  const shownUsage = usage[shownCall.index] ?? null;

  return (
    <div className="budget">
      <p className="budget-lead">
        <strong>
          Call {callIndex + 1} of {calls.length}
        </strong>
        : {fmt(calls[callIndex]?.contextTokens ?? 0)} tokens of context, {fmt(calls[callIndex]?.bands.output ?? 0)} output.{' '}
        <span className="muted">
          Peak context {fmt(view.facts.peakContextTokens)} · {view.facts.compactions.total === 0 ? 'no compactions' : `${view.facts.compactions.total} compaction${view.facts.compactions.total === 1 ? '' : 's'}`}
          {bucketSize > 1 ? ` · ${bucketSize} calls per bar (each bar shows its highest call)` : ''}
        </span>
      </p>
      <ul className="budget-lines" aria-label="Reference lines">
        <li className={windowOn ? 'line-window' : 'line-window off'}>
          <span className="line-swatch" aria-hidden="true" />
          {ctxWindow === null
            ? view.contextWindowOverruled !== undefined
              ? `Context window: unknown (a call was sent ${fmt(view.contextWindowOverruled.served)} tokens, more than the ${fmt(view.contextWindowOverruled.listed)} listed for this model)`
              : 'Context window: unknown (the session does not record it and the model is not one we know)'
            : windowOn
              ? `Context window: ${fmt(ctxWindow)} tokens`
              : `Context window: ${fmt(ctxWindow)} tokens — off scale, ${peak > 0 ? `${fmt(Math.round(ctxWindow / peak))}× the peak` : 'above the chart'}`}
        </li>
        <li className={thresholdOn ? 'line-threshold' : 'line-threshold off'}>
          <span className="line-swatch" aria-hidden="true" />
          {threshold === null
            ? 'Compaction threshold: none recorded (no compaction reports the size it fired at)'
            : `Compaction threshold: ${fmt(threshold)} tokens (smallest size a compaction fired at)${thresholdOn ? '' : ' — off scale'}`}
        </li>
      </ul>

      <div className="budget-chart">
        <svg className="budget-axis" width={AXIS_WIDTH} height={TOP + PLOT_HEIGHT + BOTTOM} aria-hidden="true">
          <text x={AXIS_WIDTH - 6} y={10} textAnchor="end" className="axis-unit">
            tokens
          </text>
          <g transform={`translate(0, ${TOP})`}>
            {domain.ticks.values.map((v) => (
              <text key={v} x={AXIS_WIDTH - 6} y={y(v)} dy="0.32em" textAnchor="end">
                {tf(v)}
              </text>
            ))}
          </g>
        </svg>
        <div className="budget-scroll" ref={wrapRef}>
          <svg
            className="budget-plot"
            width={chartWidth}
            height={TOP + PLOT_HEIGHT + BOTTOM}
            role="group"
            aria-label={`Token budget per call: ${buckets.length} bar${buckets.length === 1 ? '' : 's'}. Arrow keys step between calls.`}
            onMouseLeave={() => setHover(null)}
          >
            <defs>
              <pattern id={patternId} patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
                <rect className="hatch-bg" width="6" height="6" />
                <line className="hatch-line" x1="0" y1="0" x2="0" y2="6" />
              </pattern>
            </defs>
            <g transform={`translate(0, ${TOP})`}>
              <g className="grid" aria-hidden="true">
                {domain.ticks.values.map((v) => (
                  <line key={v} x1={0} x2={chartWidth} y1={y(v)} y2={y(v)} />
                ))}
              </g>
              {buckets.map((bucket, b) => (
                <Bar
                  key={bucket.start}
                  b={b}
                  call={calls[bucket.peak]!}
                  name={names[b]!}
                  usage={usageBars ? (usage[bucket.peak] ?? null) : null}
                  compacted={compacted[b]!}
                  isCurrent={b === current}
                  geo={geo}
                  patternId={patternId}
                  handlers={handlers}
                />
              ))}
              {anyUsage && dense ? (
                <g className="usage-lines" aria-hidden="true">
                  <path className="use-line-prompt" d={stepPath(buckets.map((b) => usage[b.peak]?.prompt ?? null), slot, y)} />
                  <path className="use-line-read" d={stepPath(buckets.map((b) => usage[b.peak]?.cacheRead ?? null), slot, y)} />
                </g>
              ) : null}
              {thresholdOn && threshold !== null ? <RefLine className="ref-threshold" y={y(threshold)} width={chartWidth} label={`threshold ${compactTokens(threshold)}`} /> : null}
              {windowOn && ctxWindow !== null ? <RefLine className="ref-window" y={y(ctxWindow)} width={chartWidth} label={`window ${compactTokens(ctxWindow)}`} /> : null}
              <g className="cache-break-marks">
                {breakAt.map((r, b) =>
                  r ? (
                    <path key={b} className={`cache-break-mark cause-${r.cause ?? 'unknown'}`} d={`M${b * slot + slot / 2},-2 l4,-7 h-8 Z`}>
                      <title>{`Call ${r.call}: cache break — ${CAUSE_LABEL[r.cause ?? 'unknown']}${r.missTokens ? `, ${fmt(r.missTokens)} tokens processed again` : ''}`}</title>
                    </path>
                  ) : null,
                )}
              </g>
              <g className="x-ticks" aria-hidden="true">
                {(buckets.length > 0 ? callTicks(calls.length) : []).map((n) => {
                  const b = bucketOf(buckets, n - 1);
                  return (
                    <text key={n} x={b * slot + slot / 2} y={PLOT_HEIGHT + 15} textAnchor="middle" className={b === current ? 'tick current' : 'tick'}>
                      {n}
                    </text>
                  );
                })}
              </g>
            </g>
          </svg>
          {current >= 0 ? <CurrentMark x={current * slot + slot / 2} slot={slot} width={chartWidth} /> : null}
        </div>
      </div>

      <Readout call={shownCall} usage={shownUsage} patternId={patternId} hovering={hover !== null && hover !== callIndex} prefixUnrecorded={shownCall.prefixUnrecorded} anyUsage={anyUsage} dense={dense} itemById={itemById} />
    </div>
  );
}

/**
 * The current call's mark, drawn in its own small layer over the chart: moved on every step, it would
 * otherwise repaint the whole chart of hundreds of bars each time.
 */
function CurrentMark({ x, slot, width }: { x: number; slot: number; width: number }) {
  const w = Math.max(slot, 8);
  return (
    <svg className="budget-current" width={width} height={TOP + PLOT_HEIGHT + BOTTOM} aria-hidden="true">
      <g transform={`translate(${x}, ${TOP})`}>
        <rect className="current-slot" x={-w / 2} y={-TOP + 2} width={w} height={PLOT_HEIGHT + TOP - 2} />
        <path className="current-caret" d={`M0,${PLOT_HEIGHT + 1} l4,5 h-8 Z`} />
      </g>
    </svg>
  );
}

interface Geometry {
  slot: number;
  gap: number;
  mainW: number;
  usageW: number;
  usageGap: number;
  /** Top of the y axis in tokens. */
  max: number;
}

interface BarHandlers {
  activate(b: number): void;
  key(e: KeyboardEvent<SVGGElement>, b: number): void;
  hover(b: number | null): void;
  ref(b: number, el: SVGGElement | null): void;
}

const Bar = memo(function Bar({
  b,
  call,
  name,
  usage,
  compacted,
  isCurrent,
  geo,
  patternId,
  handlers,
}: {
  b: number;
  call: CallView;
  name: string;
  usage: UsageSplit | null;
  compacted: boolean;
  isCurrent: boolean;
  geo: Geometry;
  patternId: string;
  handlers: BarHandlers;
}) {
  const y = yScale(geo.max, PLOT_HEIGHT);
  const x0 = b * geo.slot;
  const x = x0 + geo.gap / 2;
  return (
    <g
      ref={(el) => handlers.ref(b, el)}
      className={isCurrent ? 'bar current' : 'bar'}
      role="button"
      tabIndex={isCurrent ? 0 : -1}
      aria-label={name}
      aria-current={isCurrent ? 'step' : undefined}
      onClick={() => handlers.activate(b)}
      onKeyDown={(e) => handlers.key(e, b)}
      onMouseEnter={() => handlers.hover(b)}
      onFocus={() => handlers.hover(b)}
      onBlur={() => handlers.hover(null)}
    >
      <rect className="hit" x={x0} y={-TOP} width={geo.slot} height={TOP + PLOT_HEIGHT} />
      {compacted ? <CompactionMark x={x0} /> : null}
      {stackBands(call.bands).map((s) => (
        <rect key={s.key} className={`band band-${s.key}`} x={x} width={geo.mainW} y={y(s.to)} height={Math.max(0, y(s.from) - y(s.to))} style={s.key === 'tools' ? { fill: `url(#${patternId})` } : undefined} />
      ))}
      {usage ? <UsageBar u={usage} x={x + geo.mainW + geo.usageGap} w={geo.usageW} y={y} /> : null}
      <rect className="focus-ring" x={x0 + 0.5} y={-TOP + 2.5} width={Math.max(0, geo.slot - 1)} height={PLOT_HEIGHT + TOP - 3} />
    </g>
  );
});

function CompactionMark({ x }: { x: number }) {
  return (
    <g className="compaction-mark" aria-hidden="true">
      <line x1={x} x2={x} y1={-TOP + 8} y2={PLOT_HEIGHT} />
      <path d={`M${x - 5},${-TOP + 1} L${x + 5},${-TOP + 1} L${x},${-TOP + 9} Z`} />
    </g>
  );
}

function RefLine({ className, y, width, label }: { className: string; y: number; width: number; label: string }) {
  return (
    <g className={`ref ${className}`} aria-hidden="true">
      <line x1={0} x2={width} y1={y} y2={y} />
      {/* A line at the top of the plot has its label below it: above, it ran into the cache-break marks. */}
      <text x={4} y={y < 14 ? y + 12 : y - 4}>
        {label}
      </text>
    </g>
  );
}

function UsageBar({ u, x, w, y }: { u: UsageSplit; x: number; w: number; y: (v: number) => number }) {
  const parts: [string, number][] = [
    ['use-read', u.cacheRead],
    ['use-write', u.cacheWrite],
    ['use-uncached', u.uncached],
  ];
  let from = 0;
  return (
    <g className="usage" aria-hidden="true">
      {parts.map(([cls, v]) => {
        if (v <= 0) return null;
        const r = <rect key={cls} className={cls} x={x} width={w} y={y(from + v)} height={Math.max(0, y(from) - y(from + v))} />;
        from += v;
        return r;
      })}
    </g>
  );
}

const BAND_NOTE: Partial<Record<BandKey, string>> = {
  tools: 'tool schemas',
  newInput: 'first sent in this call',
  tail: 'already sent before',
};

/**
 * The tools band of a call whose format leaves the system prompt and tools out: the engine's unrecorded prefix (the
 * figure the context view and the cache panel give) and what neither it nor the items at their fitted size account for.
 */
function unrecordedNote(call: CallView): string {
  const prefix = call.unrecordedPrefixTokens;
  if (prefix === null) return 'unrecorded prefix: no usage to estimate it';
  const un = call.unaccountedTokens;
  return `estimated unrecorded prefix ${fmt(prefix)}${un !== 0 ? `, ${un > 0 ? '+' : '−'}${fmt(Math.abs(un))} unaccounted` : ''}`;
}

function Readout({
  call,
  usage,
  patternId,
  hovering,
  prefixUnrecorded,
  anyUsage,
  dense,
  itemById,
}: {
  call: CallView;
  usage: UsageSplit | null;
  patternId: string;
  hovering: boolean;
  prefixUnrecorded: boolean;
  anyUsage: boolean;
  dense: boolean;
  itemById: ReadonlyMap<string, Item>;
}) {
  const bands: CallBands = call.bands;
  const isSystem = (id: string) => {
    const role = itemById.get(id)?.role;
    return role === 'system' || role === 'developer';
  };
  const fresh = newInputByRegion(call.entries, isSystem, bands);
  // A new summary stays in the Summary band: the note says where it went rather than adding it to this band's figure.
  const freshNote =
    fresh.length > 1 || (fresh.length === 1 && fresh[0]!.region !== 'tail')
      ? fresh.map((f) => (f.region === 'summary' ? `the new summary, ${fmt(f.tokens)}, in Summary` : `${fmt(f.tokens)} ${f.region}`)).join(', ')
      : null;
  return (
    <div className="budget-readout">
      <div className="readout-col">
        <h3>
          {hovering ? 'Pointing at' : 'Bands of'} call {call.index + 1}
        </h3>
        <ul className="legend" aria-label={`Bands of call ${call.index + 1}`}>
          {BAND_ORDER.map((k) => (
            <li key={k} className={bands[k] === 0 ? 'zero' : undefined}>
              <svg width="12" height="12" aria-hidden="true">
                <rect className={`band band-${k}`} width="12" height="12" rx="2" style={k === 'tools' ? { fill: `url(#${patternId})` } : undefined} />
              </svg>
              <span className="legend-name">
                {/* A file that leaves the prefix out leaves out the system prompt with the tools: the band holds both. */}
                {k === 'tools' && prefixUnrecorded ? 'System prompt and tools' : BAND_LABEL[k]}
                {k === 'tools' && prefixUnrecorded ? (
                  <span className="muted small"> ({unrecordedNote(call)})</span>
                ) : k === 'newInput' && freshNote ? (
                  <span className="muted small"> (first sent here: {freshNote})</span>
                ) : BAND_NOTE[k] ? (
                  <span className="muted small"> ({BAND_NOTE[k]})</span>
                ) : null}
              </span>
              <span className="legend-value">{fmt(bands[k])}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="readout-col">
        <h3>Reported usage</h3>
        {usage ? (
          <ul className="legend" aria-label={`Reported usage of call ${call.index + 1}`}>
            <li>
              <span className="swatch use-read" aria-hidden="true" />
              <span className="legend-name">Cache read</span>
              <span className="legend-value">{usage.readReported ? fmt(usage.cacheRead) : <span className="muted">not reported</span>}</span>
            </li>
            <li>
              <span className="swatch use-write" aria-hidden="true" />
              <span className="legend-name">Cache write</span>
              <span className="legend-value">{usage.writeReported ? fmt(usage.cacheWrite) : <span className="muted">not reported</span>}</span>
            </li>
            <li>
              <span className="swatch use-uncached" aria-hidden="true" />
              <span className="legend-name">Uncached</span>
              <span className="legend-value">{fmt(usage.uncached)}</span>
            </li>
            <li className="legend-total">
              <span />
              <span className="legend-name">Prompt (reported)</span>
              <span className="legend-value">{fmt(usage.prompt)}</span>
            </li>
          </ul>
        ) : (
          <p className="muted small">{anyUsage ? 'This call reports no usage.' : 'No call of this session reports usage, so there is no cache bar.'}</p>
        )}
        {anyUsage ? (
          <p className="muted small readout-hint">
            {dense
              ? 'The bars are too thin for a usage bar each: the solid line is the reported cache read, the dotted line the reported prompt.'
              : 'The thin bar beside each call shows its reported prompt: cache read, cache write, uncached.'}
          </p>
        ) : null}
      </div>
    </div>
  );
}
