// The corpus charts in plain SVG: omission frequency by turn (Agent-Omit Fig. 6b), summaries per trajectory,
// the turns summaries fire at, mean tokens by outcome, and tokens against reward or success. A bar filters the
// table to the trajectories it counts; a point opens its trajectory.
import { memo, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import {
  axisTicks,
  describeFilter,
  linear,
  maxOf,
  minOf,
  omissionByTurn,
  summariesHistogram,
  summaryTurnHistogram,
  tokensByOutcome,
  tokensScatter,
  type ChartFilter,
  type Outcome,
} from '../../../src/corpus/corpus-charts';
import { tickFormat } from '../../../src/charts/budget-scale';
import type { CorpusEntry } from '../../store/corpus-slice';
import { categoryTicks, ChartFrame, M, PLOT_H, PLOT_W, WIDE_PLOT_W, WIDE_W } from './ChartFrame';
import { count as formatCount } from '../../format/count';

export interface ChartsProps {
  rows: CorpusEntry[];
  filter: ChartFilter | null;
  setFilter(f: ChartFilter | null): void;
  open(entry: CorpusEntry): void;
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
const int = (v: number) => formatCount(Math.round(v));
const sameFilter = (a: ChartFilter | null, b: ChartFilter) => a !== null && JSON.stringify(a) === JSON.stringify(b);

function activate(e: KeyboardEvent, fn: () => void) {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    fn();
  }
}

/** A clickable bar: filters the table, or clears the filter when it is the active one. */
function Bar(props: { x: number; y: number; w: number; h: number; className: string; label: string; f: ChartFilter; current: ChartFilter | null; setFilter(f: ChartFilter | null): void }) {
  const { x, y, w, h, className, label, f, current, setFilter } = props;
  const active = sameFilter(current, f);
  const toggle = () => setFilter(active ? null : f);
  return (
    <g
      role="button"
      tabIndex={0}
      aria-pressed={active}
      aria-label={`${label}. ${active ? 'Showing these in the table; press to show all' : 'Show these in the table'}`}
      className={`bar-hit${active ? ' active' : ''}`}
      onClick={toggle}
      onKeyDown={(e) => activate(e, toggle)}
    >
      {/* A hit area the full plot height, so short bars are easy to click. */}
      <rect x={x} y={0} width={w} height={PLOT_H} className="hit" />
      <rect x={x} y={y} width={w} height={Math.max(h, h > 0 ? 1 : 0)} className={`bar ${className}`} />
      <title>{label}</title>
    </g>
  );
}

function OmissionChart({ rows, filter, setFilter }: ChartsProps) {
  const { turns, beyond } = useMemo(() => omissionByTurn(rows), [rows]);
  const any = turns.some((t) => t.thought + t.observation > 0);
  const yTicks = axisTicks(0, Math.max(0.05, maxOf(turns, (t) => Math.max(t.thoughtRate, t.observationRate))), 4);
  const y = linear(yTicks.min, yTicks.max, PLOT_H, 0);
  const slot = PLOT_W / Math.max(1, turns.length);
  const bw = Math.max(1, slot * 0.4);
  const xTicks = categoryTicks(turns.map((t) => t.turn)).map((t) => ({ x: (t - 0.5) * slot, label: String(t) }));
  return (
    <ChartFrame
      title="Omission frequency by turn"
      note="Share of the trajectories reaching a turn that omitted their thought or observations in it (Agent-Omit Fig. 6b). A bar filters the table."
      xLabel="Turn (agent step)"
      yLabel="Trajectories omitting (%)"
      yTicks={yTicks}
      yScale={y}
      yFormat={pct}
      xTicks={xTicks}
      legend={[
        { label: 'thought omitted', className: 'c-thinking' },
        { label: 'observations omitted', className: 'c-omission' },
      ]}
      empty={any ? null : 'No omissions in this corpus: Agent-Omit trajectories record them.'}
      footer={beyond ? `${beyond} omissions after turn 60 are not drawn.` : null}
    >
      {turns.map((t, i) => (
        <g key={t.turn}>
          <Bar
            x={i * slot + slot * 0.1}
            y={y(t.thoughtRate)}
            w={bw}
            h={PLOT_H - y(t.thoughtRate)}
            className="c-thinking"
            label={`Turn ${t.turn}: thought omitted in ${t.thought} of ${t.reached} trajectories (${pct(t.thoughtRate)})`}
            f={{ kind: 'omission-turn', turn: t.turn, what: 'thought' }}
            current={filter}
            setFilter={setFilter}
          />
          <Bar
            x={i * slot + slot * 0.1 + bw}
            y={y(t.observationRate)}
            w={bw}
            h={PLOT_H - y(t.observationRate)}
            className="c-omission"
            label={`Turn ${t.turn}: observations omitted in ${t.observation} of ${t.reached} trajectories (${pct(t.observationRate)})`}
            f={{ kind: 'omission-turn', turn: t.turn, what: 'observation' }}
            current={filter}
            setFilter={setFilter}
          />
        </g>
      ))}
    </ChartFrame>
  );
}

function SummariesChart({ rows, filter, setFilter }: ChartsProps) {
  const { buckets, capped } = useMemo(() => summariesHistogram(rows), [rows]);
  const yTicks = axisTicks(0, Math.max(1, maxOf(buckets, (b) => b.count)), 4);
  const y = linear(yTicks.min, yTicks.max, PLOT_H, 0);
  const slot = PLOT_W / Math.max(1, buckets.length);
  const last = buckets.length - 1;
  return (
    <ChartFrame
      title="Summaries per trajectory"
      note="How many trajectories wrote 0, 1, 2, … summaries. A bar filters the table."
      xLabel={capped ? `Summaries in the trajectory (last bar: ${last} or more)` : 'Summaries in the trajectory'}
      yLabel="Trajectories"
      yTicks={yTicks}
      yScale={y}
      yFormat={int}
      xTicks={categoryTicks(buckets.map((b) => b.value)).map((v) => ({ x: (v + 0.5) * slot, label: capped && v === last ? `${v}+` : String(v) }))}
      empty={rows.length ? null : 'No trajectories yet.'}
    >
      {buckets.map((b, i) => (
        <Bar
          key={b.value}
          x={i * slot + slot * 0.15}
          y={y(b.count)}
          w={slot * 0.7}
          h={PLOT_H - y(b.count)}
          className="c-summary"
          label={`${b.count} trajectories with ${capped && i === last ? `${b.value} or more` : b.value} ${b.value === 1 ? 'summary' : 'summaries'}`}
          f={{ kind: 'summaries', count: b.value, orMore: capped && i === last }}
          current={filter}
          setFilter={setFilter}
        />
      ))}
    </ChartFrame>
  );
}

function SummaryTurnsChart({ rows, filter, setFilter }: ChartsProps) {
  const { buckets } = useMemo(() => summaryTurnHistogram(rows), [rows]);
  const yTicks = axisTicks(0, Math.max(1, maxOf(buckets, (b) => b.count)), 4);
  const y = linear(yTicks.min, yTicks.max, PLOT_H, 0);
  const slot = PLOT_W / Math.max(1, buckets.length);
  return (
    <ChartFrame
      title="When summaries fire"
      note="Summaries by the turn after which they were written. A bar filters the table."
      xLabel="Turn (agent step)"
      yLabel="Summaries"
      yTicks={yTicks}
      yScale={y}
      yFormat={int}
      xTicks={categoryTicks(buckets.map((_, i) => i)).map((i) => ({ x: (i + 0.5) * slot, label: String(buckets[i]!.value) }))}
      empty={buckets.length ? null : 'No summaries in this corpus.'}
      footer={buckets[0]?.to !== undefined ? `Each bar covers ${buckets[0].to} turns.` : null}
    >
      {buckets.map((b, i) => (
        <Bar
          key={b.value}
          x={i * slot + slot * 0.15}
          y={y(b.count)}
          w={slot * 0.7}
          h={PLOT_H - y(b.count)}
          className="c-summary"
          label={`${b.count} ${b.count === 1 ? 'summary' : 'summaries'} after turn ${b.to === undefined ? b.value : `${b.value}–${b.to}`}`}
          f={b.to === undefined ? { kind: 'summary-turn', turn: b.value } : { kind: 'summary-turn', turn: b.value, to: b.to }}
          current={filter}
          setFilter={setFilter}
        />
      ))}
    </ChartFrame>
  );
}

const OUTCOME_LABEL: Record<Outcome, string> = { success: 'success', failure: 'failure', unknown: 'no success flag' };

function OutcomeTokensChart({ rows, filter, setFilter }: ChartsProps) {
  const groups = useMemo(() => tokensByOutcome(rows), [rows]);
  const yTicks = axisTicks(0, Math.max(1, maxOf(groups, (g) => g.meanTotalTokens)), 4);
  const y = linear(yTicks.min, yTicks.max, PLOT_H, 0);
  const fmt = tickFormat(yTicks.max);
  const slot = PLOT_W / Math.max(1, groups.length);
  const bw = Math.min(56, slot * 0.32);
  return (
    <ChartFrame
      title="Average tokens per trajectory, by outcome"
      note="Mean input tokens over all calls (solid) and mean peak context (light). A bar filters the table."
      xLabel="Outcome (trajectories)"
      yLabel="Tokens per trajectory"
      yTicks={yTicks}
      yScale={y}
      yFormat={fmt}
      xTicks={groups.map((g, i) => ({ x: (i + 0.5) * slot, label: `${OUTCOME_LABEL[g.outcome]} (${int(g.trajectories)})` }))}
      legend={[
        { label: 'input tokens, all calls', className: 'tokens-total' },
        { label: 'peak context', className: 'tokens-peak' },
      ]}
      empty={groups.length ? null : 'No trajectories yet.'}
    >
      {groups.map((g, i) => {
        const f: ChartFilter = { kind: 'outcome', outcome: g.outcome };
        const cx = (i + 0.5) * slot;
        return (
          <g key={g.outcome}>
            <Bar
              x={cx - bw}
              y={y(g.meanTotalTokens)}
              w={bw}
              h={PLOT_H - y(g.meanTotalTokens)}
              className={`tokens-total outcome-${g.outcome}`}
              label={`${OUTCOME_LABEL[g.outcome]}: ${int(g.meanTotalTokens)} input tokens per trajectory on average (${int(g.trajectories)} trajectories)`}
              f={f}
              current={filter}
              setFilter={setFilter}
            />
            <Bar
              x={cx}
              y={y(g.meanPeakContextTokens)}
              w={bw}
              h={PLOT_H - y(g.meanPeakContextTokens)}
              className={`tokens-peak outcome-${g.outcome}`}
              label={`${OUTCOME_LABEL[g.outcome]}: peak context ${int(g.meanPeakContextTokens)} tokens on average`}
              f={f}
              current={filter}
              setFilter={setFilter}
            />
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** Points up to this many are each keyboard-reachable; past it the table is the keyboard path. */
const FOCUSABLE_POINTS = 400;
/** Past this many points, each outcome is one SVG path and a click picks the nearest point. */
const DENSE_POINTS = 1500;
/** At most this many points are drawn (an even spread of them); the rest stay in the table. */
const DRAWN_POINTS = 20_000;

/** A circle as a path segment, so thousands of points are one element. */
const dot = (cx: number, cy: number, r: number) => `M${(cx - r).toFixed(1)},${cy.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;

function ScatterChart({ rows, open }: ChartsProps) {
  const { y: yKind, points: all, unplotted } = useMemo(() => tokensScatter(rows), [rows]);
  // A very large corpus draws an even spread of its points: the picture is the same, the page stays quick.
  const points = useMemo(() => (all.length <= DRAWN_POINTS ? all : all.filter((_, i) => Math.floor((i * DRAWN_POINTS) / all.length) !== Math.floor(((i - 1) * DRAWN_POINTS) / all.length))), [all]);
  const [near, setNear] = useState<number | null>(null);
  const xTicks = axisTicks(0, Math.max(1, maxOf(points, (p) => p.x)), 5);
  const yTicks = yKind === 'success' ? { min: 0, max: 1, values: [0, 1] } : axisTicks(Math.min(0, minOf(points, (p) => p.y)), Math.max(1, maxOf(points, (p) => p.y)), 4);
  const x = linear(xTicks.min, xTicks.max, 0, WIDE_PLOT_W);
  const pad = yKind === 'success' ? 0.18 : 0;
  const y = linear(yTicks.min - pad, yTicks.max + pad, PLOT_H, 0);
  const fmtX = tickFormat(xTicks.max);
  // Success is 0 or 1: spread the points a little so they do not hide each other (stable per row).
  const jitter = (row: number) => (yKind === 'success' ? (((row * 2654435761) >>> 0) / 4294967296 - 0.5) * 0.22 : 0);
  const focusable = points.length <= FOCUSABLE_POINTS;
  const dense = points.length > DENSE_POINTS;
  const proxies = points.filter((p) => p.fromSuccess).length;
  const describe = (i: number) => {
    const p = points[i]!;
    return `${rows[p.row]!.id}: ${int(p.x)} tokens, ${yKind === 'success' || p.fromSuccess ? `success ${p.y ? 'yes' : 'no'}` : `reward ${p.y}`}`;
  };
  const paths = useMemo(() => {
    if (!dense) return null;
    const by = new Map<string, string[]>();
    for (const p of points) {
      const cls = `point outcome-${p.outcome}${p.fromSuccess ? ' hollow' : ''}`;
      let list = by.get(cls);
      if (!list) by.set(cls, (list = []));
      list.push(dot(x(p.x), y(p.y + jitter(p.row)), 2.2));
    }
    return [...by.entries()].map(([cls, d]) => ({ cls, d: d.join('') }));
    // x and y derive from the points alone; hovering re-renders without rebuilding the paths.
  }, [points, dense]);
  /** The point nearest to a pointer event, within 10 px of the plot. */
  const nearest = (e: MouseEvent<SVGRectElement>): number | null => {
    const svg = e.currentTarget.ownerSVGElement;
    const m = svg?.getScreenCTM();
    if (!svg || !m) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const px = pt.x - M.left;
    const py = pt.y - M.top;
    let best = -1;
    let bestD = 100;
    points.forEach((p, i) => {
      const d = (x(p.x) - px) ** 2 + (y(p.y + jitter(p.row)) - py) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    });
    return best < 0 ? null : best;
  };
  return (
    <ChartFrame
      width={WIDE_W}
      className="wide"
      title={`Tokens against ${yKind}`}
      note={`One point per trajectory: input tokens over all calls against its ${yKind}. A point opens the trajectory.`}
      xLabel="Input tokens per trajectory (all calls)"
      yLabel={yKind === 'reward' ? 'Reward' : 'Success'}
      yTicks={yTicks}
      yScale={y}
      yFormat={(v) => (yKind === 'success' ? (v === 1 ? 'yes' : 'no') : String(+v.toFixed(2)))}
      xTicks={xTicks.values.map((v) => ({ x: x(v), label: fmtX(v) }))}
      legend={[
        { label: 'success', className: 'outcome-success' },
        { label: 'failure', className: 'outcome-failure' },
        { label: 'no success flag', className: 'outcome-unknown' },
        ...(proxies ? [{ label: 'no reward: drawn at its success (1 or 0)', className: 'hollow' }] : []),
      ]}
      empty={points.length ? null : rows.length ? 'No trajectory records a success flag or reward.' : 'No trajectories yet.'}
      footer={
        <>
          {unplotted ? `${int(unplotted)} trajectories record neither success nor reward and are not drawn. ` : null}
          {points.length < all.length ? `${int(points.length)} of ${int(all.length)} points drawn, evenly spread. ` : null}
          {dense ? (near !== null ? `Nearest: ${describe(near)} — click to open.` : `${int(points.length)} points: point at one and click to open it, or use the table.`) : null}
        </>
      }
    >
      {paths ? (
        <>
          {paths.map((p) => (
            <path key={p.cls} className={p.cls} d={p.d} />
          ))}
          {near !== null ? <circle className={`point outcome-${points[near]!.outcome} near`} cx={x(points[near]!.x)} cy={y(points[near]!.y + jitter(points[near]!.row))} r={4.5} /> : null}
          <rect
            className="scatter-hit"
            width={WIDE_PLOT_W}
            height={PLOT_H}
            aria-hidden="true"
            onMouseMove={(e) => setNear(nearest(e))}
            onMouseLeave={() => setNear(null)}
            onClick={(e) => {
              const i = nearest(e);
              if (i !== null) open(rows[points[i]!.row]!);
            }}
          />
        </>
      ) : (
        points.map((p, i) => {
          const entry = rows[p.row]!;
          return (
            <circle
              key={entry.key}
              className={`point outcome-${p.outcome}${p.fromSuccess ? ' hollow' : ''}`}
              cx={x(p.x)}
              cy={y(p.y + jitter(p.row))}
              r={3.6}
              role="button"
              tabIndex={focusable ? 0 : -1}
              aria-label={`Open trajectory ${describe(i)}`}
              onClick={() => open(entry)}
              onKeyDown={(e) => activate(e, () => open(entry))}
            >
              <title>{describe(i)}</title>
            </circle>
          );
        })
      )}
    </ChartFrame>
  );
}

function CorpusChartsImpl(props: ChartsProps) {
  return (
    <section className="corpus-charts" aria-label="Corpus charts">
      <OmissionChart {...props} />
      <SummariesChart {...props} />
      <SummaryTurnsChart {...props} />
      <OutcomeTokensChart {...props} />
      <ScatterChart {...props} />
      {props.filter ? (
        <p className="chart-filter-note">
          Table filtered to trajectories with {describeFilter(props.filter)}.{' '}
          <button type="button" className="link" onClick={() => props.setFilter(null)}>
            Show all
          </button>
        </p>
      ) : null}
    </section>
  );
}

export const CorpusCharts = memo(CorpusChartsImpl);
