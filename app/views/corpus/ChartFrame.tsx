// The frame every corpus chart shares: a titled figure, an SVG with labelled axes and round ticks.
import type { ReactNode } from 'react';
import type { AxisTicks } from '../../../src/corpus/corpus-charts';

export const W = 440;
export const H = 236;
export const M = { left: 58, right: 14, top: 14, bottom: 46 };
export const PLOT_W = W - M.left - M.right;
/** The scatter spans two grid columns where there are two or more. */
export const WIDE_W = 900;
export const WIDE_PLOT_W = WIDE_W - M.left - M.right;
export const PLOT_H = H - M.top - M.bottom;

export interface FrameProps {
  title: string;
  /** One sentence under the title: what a bar or point is, and what a click does. */
  note?: ReactNode;
  xLabel: string;
  yLabel: string;
  yTicks: AxisTicks;
  yScale: (v: number) => number;
  yFormat: (v: number) => string;
  /** X tick marks: pixel position inside the plot and label. */
  xTicks: { x: number; label: string }[];
  legend?: { label: string; className: string }[];
  empty?: string | null;
  children: ReactNode;
  footer?: ReactNode;
  /** Viewbox width: W, or WIDE_W for a chart spanning two columns. */
  width?: number;
  className?: string;
}

export function ChartFrame({ title, note, xLabel, yLabel, yTicks, yScale, yFormat, xTicks, legend, empty, children, footer, width = W, className }: FrameProps) {
  const plotW = width - M.left - M.right;
  return (
    <figure className={className ? `corpus-chart ${className}` : 'corpus-chart'} aria-label={title}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {note ? <span className="chart-note">{note}</span> : null}
      </figcaption>
      {legend && !empty ? (
        <ul className="chart-legend" aria-label={`${title} legend`}>
          {legend.map((l) => (
            <li key={l.label}>
              <span className={`swatch ${l.className}`} aria-hidden="true" />
              {l.label}
            </li>
          ))}
        </ul>
      ) : null}
      {empty ? (
        <p className="chart-empty">{empty}</p>
      ) : (
        <svg viewBox={`0 0 ${width} ${H}`} className="chart-svg" role="group" aria-label={`${title}: ${yLabel} by ${xLabel}`}>
          <g transform={`translate(${M.left},${M.top})`}>
            {yTicks.values.map((v) => (
              <g key={v} className="tick" transform={`translate(0,${yScale(v)})`}>
                <line x2={plotW} className="grid" />
                <text x={-6} dy="0.32em" textAnchor="end">
                  {yFormat(v)}
                </text>
              </g>
            ))}
            {xTicks.map((t) => (
              <g key={`${t.x}:${t.label}`} className="tick" transform={`translate(${t.x},${PLOT_H})`}>
                <line y2={4} className="tick-mark" />
                <text y={16} textAnchor="middle">
                  {t.label}
                </text>
              </g>
            ))}
            <line className="axis" y1={PLOT_H} y2={PLOT_H} x2={plotW} />
            <line className="axis" y2={PLOT_H} />
            {children}
            <text className="axis-label" x={plotW / 2} y={PLOT_H + 38} textAnchor="middle">
              {xLabel}
            </text>
            <text className="axis-label" transform={`translate(${-46},${PLOT_H / 2}) rotate(-90)`} textAnchor="middle">
              {yLabel}
            </text>
          </g>
        </svg>
      )}
      {footer ? <p className="chart-footer">{footer}</p> : null}
    </figure>
  );
}

/** About `target` labelled positions among 1..count (integer categories such as turns). */
export function categoryTicks(values: number[], target = 8): number[] {
  if (values.length <= target) return values;
  const step = Math.ceil(values.length / target);
  return values.filter((_, i) => i % step === 0);
}
