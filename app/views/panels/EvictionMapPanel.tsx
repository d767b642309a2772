// Eviction map: every original item (rows) against every call (columns), labelled by what the call saw of it.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { EvictionLabel } from '../../../src/analysis/context-types';
import { describeLabels, EVICTION_LABELS, itemKindPhrase, labelAt, labelCountsAt } from '../../../src/analysis/eviction-runs';
import type { Item } from '../../../src/model/types';
import { useApp } from '../../store';
import type { PanelProps } from './panel-props';
import './eviction-map.css';
import { useWidth } from '../../hooks/use-width';
import { count as formatCount } from '../../format/count';
import { rowPreview } from './row-preview';

type Row = PanelProps['view']['eviction'][number];

const ROW_H = 24;
const HEAD_H = 30;
const LABEL_W = 230;
const MIN_CELL = 3;
const MAX_CELL = 28;

const LABEL_HINT: Record<EvictionLabel, string> = {
  verbatim: 'sent as written',
  summarized: 'replaced by a summary',
  omitted: 'omitted (thought or observation)',
  masked: 'sent masked or cleared',
  dropped: 'dropped without a summary',
  cleared: "cleared by the user's /clear",
  'rolled-back': 'taken back by the user (a rollback to an earlier turn)',
};

const fmt = (n: number) => formatCount(n);

/** Every k-th call gets a number in the column header, k a round step wide enough for the text. */
function labelStep(cell: number): number {
  const need = Math.ceil(26 / cell);
  for (const s of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) if (s >= need) return s;
  return 2000;
}

/** Calls numbered in the header: the current one first, then 1, every step-th and the last, none closer than a label's width. */
function headerLabels(n: number, step: number, current: number, cell: number): number[] {
  const gap = Math.ceil(24 / cell);
  const candidates = [current, 0, n - 1];
  for (let m = step; m <= n; m += step) candidates.push(m - 1);
  const kept: number[] = [];
  for (const c of candidates) if (c >= 0 && c < n && kept.every((k) => Math.abs(k - c) >= gap)) kept.push(c);
  return kept;
}

function rowTitle(row: Row, item: Item | undefined): string {
  return item ? `${row.itemId} ${itemKindPhrase(item)}${item.name ? ` ${item.name}` : ''}` : row.itemId;
}

function preview(item: Item | undefined): string {
  return item ? rowPreview(item.text) : '';
}

export default function EvictionMapPanel({ view, callIndex, itemById, goTo }: PanelProps) {
  const allRows = view.eviction;
  const n = view.calls.length;
  const [evictedOnly, setEvictedOnly] = useState(false);
  const rows = useMemo(() => (evictedOnly ? allRows.filter((r) => r.runs.some((run) => run.label !== 'verbatim')) : allRows), [allRows, evictedOnly]);
  const counts = useMemo(() => labelCountsAt(allRows, callIndex), [allRows, callIndex]);
  // Only a session the user cleared (`/clear`, Claude Code 1.0) or rolled back (Codex) has those labels to show.
  const shown = useMemo(() => new Set(allRows.flatMap((r) => r.runs.map((run) => run.label))), [allRows]);
  const notYet = useMemo(() => allRows.reduce((k, r) => k + (labelAt(r.runs, callIndex) === null ? 1 : 0), 0), [allRows, callIndex]);
  const compactionCalls = useMemo(() => view.calls.filter((c) => c.compactionId !== null).map((c) => c.index), [view.calls]);

  const scroller = useRef<HTMLDivElement>(null);
  const width = useWidth(scroller, 0);
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - LABEL_W - 14) / Math.max(1, n))));
  const gridW = n * cell;

  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 12, scrollMargin: HEAD_H });

  // The selected item's row is marked and scrolled into view, wherever it was selected.
  const selected = useApp((s) => s.selectedItemId);
  const selectedRow = useMemo(() => (selected === null ? -1 : rows.findIndex((r) => r.itemId === selected)), [rows, selected]);
  useEffect(() => {
    if (selectedRow >= 0) virtual.scrollToIndex(selectedRow, { align: 'auto' });
  }, [selectedRow, virtual]);

  // Keyboard: one row is the tab stop; arrows move between rows and calls, Enter steps there.
  const [active, setActive] = useState(0);
  const [col, setCol] = useState(callIndex);
  useEffect(() => setCol(callIndex), [callIndex]);
  const focusWanted = useRef<'strip' | 'head' | null>(null);
  const activeRow = Math.min(active, Math.max(0, rows.length - 1));
  useEffect(() => {
    const kind = focusWanted.current;
    if (!kind) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-row="${activeRow}"] .evm-${kind}`);
    if (el) {
      el.focus({ preventScroll: true });
      focusWanted.current = null;
    }
  });

  // Keep the current call's column in sight when the call changes.
  useEffect(() => {
    const el = scroller.current;
    if (!el || gridW + LABEL_W <= el.clientWidth) return;
    const x = LABEL_W + callIndex * cell;
    if (x < el.scrollLeft + LABEL_W || x + cell > el.scrollLeft + el.clientWidth) el.scrollLeft = Math.max(0, x - LABEL_W - (el.clientWidth - LABEL_W) / 2);
  }, [callIndex, cell, gridW]);

  if (n === 0) return <p className="empty">No model calls in this session, so there is nothing to map.</p>;
  if (allRows.length === 0) return <p className="empty">No items in this session.</p>;

  const callAt = (e: MouseEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return Math.max(0, Math.min(n - 1, Math.floor((e.clientX - box.left) / cell)));
  };
  const moveRow = (to: number, kind: 'strip' | 'head') => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setActive(next);
    virtual.scrollToIndex(next, { align: 'auto' });
    focusWanted.current = kind;
  };
  const onKey = (e: KeyboardEvent<HTMLElement>, index: number, kind: 'strip' | 'head') => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 300) / ROW_H) - 2);
    const keys: Record<string, () => void> = {
      ArrowUp: () => moveRow(index - 1, kind),
      ArrowDown: () => moveRow(index + 1, kind),
      PageUp: () => moveRow(index - page, kind),
      PageDown: () => moveRow(index + page, kind),
      ...(kind === 'strip'
        ? {
            ArrowLeft: () => setCol((c) => Math.max(0, c - 1)),
            ArrowRight: () => setCol((c) => Math.min(n - 1, c + 1)),
            Home: () => setCol(0),
            End: () => setCol(n - 1),
          }
        : {}),
    };
    const act = keys[e.key];
    if (act) {
      e.preventDefault();
      // The inspector's own j/k/arrow shortcuts must not also step the call.
      e.stopPropagation();
      act();
    }
  };

  const step = labelStep(cell);
  const cursorCol = Math.min(col, n - 1);
  return (
    <div className={cell < 8 ? 'evm evm-dense' : 'evm'} style={{ ['--cell' as string]: `${cell}px` }}>
      <div className="evm-top">
        <p className="evm-lead">
          <strong>Call {callIndex + 1}</strong>
          <span className="muted">
            {' '}
            · {fmt(allRows.length)} items × {fmt(n)} calls
          </span>
        </p>
        <ul className="evm-legend" aria-label={`Labels at call ${callIndex + 1}`}>
          {EVICTION_LABELS.filter((l) => (l !== 'cleared' && l !== 'rolled-back') || shown.has(l)).map((l) => (
            <li key={l} title={LABEL_HINT[l]}>
              <span className={`evm-swatch l-${l}`} aria-hidden="true" />
              {l} <strong>{fmt(counts[l])}</strong>
            </li>
          ))}
          <li title="the item did not exist yet at this call">
            <span className="evm-swatch l-none" aria-hidden="true" />
            not yet sent <strong>{fmt(notYet)}</strong>
          </li>
        </ul>
        <label className="evm-filter small">
          <input type="checkbox" checked={evictedOnly} onChange={(e) => setEvictedOnly(e.target.checked)} /> Only items that were ever evicted or masked
        </label>
      </div>
      {rows.length === 0 ? <p className="empty">No item was ever evicted or masked.</p> : null}
      <div className="evm-scroll" ref={scroller}>
        <div className="evm-inner" style={{ width: LABEL_W + gridW }}>
          <div className="evm-colhead" style={{ height: HEAD_H }}>
            <div className="evm-corner" style={{ width: LABEL_W }}>
              item <span aria-hidden="true">╲</span> call
            </div>
            <div className="evm-calls" style={{ width: gridW }} aria-hidden="true" onClick={(e) => goTo({ call: callAt(e) })}>
              {compactionCalls.map((c) => (
                <span key={`c${c}`} className="evm-ctick" style={{ left: c * cell }} title={`compaction before call ${c + 1}`} />
              ))}
              <span className="evm-hcur" style={{ left: callIndex * cell, width: cell }} />
              {headerLabels(n, step, callIndex, cell).map((c) => (
                <span key={c} className={c === callIndex ? 'evm-num current' : 'evm-num'} style={{ left: c * cell, width: Math.max(cell, 24) }}>
                  {c + 1}
                </span>
              ))}
            </div>
          </div>
          <div role="list" aria-label="Items by call" className="evm-body" style={{ height: virtual.getTotalSize() }}>
            <div className="evm-current" style={{ left: LABEL_W + callIndex * cell, width: cell }} aria-hidden="true" />
            {virtual.getVirtualItems().map((vr) => {
              const row = rows[vr.index]!;
              const item = itemById.get(row.itemId);
              const title = rowTitle(row, item);
              const isActive = vr.index === activeRow;
              const at = labelAt(row.runs, cursorCol);
              return (
                <div
                  key={row.itemId + vr.index}
                  role="listitem"
                  aria-label={`${title}: ${describeLabels(row.runs, n)}`}
                  aria-setsize={rows.length}
                  aria-posinset={vr.index + 1}
                  className={`evm-row${isActive ? ' active' : ''}${vr.index === selectedRow ? ' selected' : ''}`}
                  aria-current={vr.index === selectedRow ? 'true' : undefined}
                  data-row={vr.index}
                  style={{ transform: `translateY(${vr.start - HEAD_H}px)`, height: ROW_H }}
                >
                  <button
                    type="button"
                    className={`evm-head role-${item?.role ?? 'system'} kind-${item?.kind ?? 'message'}`}
                    style={{ width: LABEL_W }}
                    tabIndex={isActive ? 0 : -1}
                    onFocus={() => setActive(vr.index)}
                    onKeyDown={(e) => onKey(e, vr.index, 'head')}
                    onClick={() => goTo({ item: row.itemId })}
                    aria-label={`Show ${title}`}
                    title={`${title}\n${preview(item)}`}
                  >
                    <span className="evm-dot" aria-hidden="true" />
                    <code className="evm-id">{row.itemId}</code>
                    <span className="evm-preview">{preview(item)}</span>
                  </button>
                  <div
                    className="evm-strip"
                    style={{ width: gridW }}
                    role="button"
                    tabIndex={isActive ? 0 : -1}
                    aria-label={`${row.itemId} at call ${cursorCol + 1}: ${at ?? 'not yet sent'}. Left and right arrows choose the call, Enter goes there.`}
                    onFocus={() => setActive(vr.index)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        goTo(at !== null ? { call: cursorCol, item: row.itemId } : { call: cursorCol });
                      } else onKey(e, vr.index, 'strip');
                    }}
                    onClick={(e) => {
                      const c = callAt(e);
                      setActive(vr.index);
                      setCol(c);
                      goTo(labelAt(row.runs, c) !== null ? { call: c, item: row.itemId } : { call: c });
                    }}
                  >
                    {row.runs.map((r) => (
                      <span key={r.start} className={`evm-run l-${r.label}`} style={{ left: r.start * cell, width: (r.end - r.start + 1) * cell }} />
                    ))}
                    {isActive ? <span className="evm-cursor" style={{ left: cursorCol * cell, width: cell }} aria-hidden="true" /> : null}
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
