// The compaction log as a table (TanStack Table): sort, filter, show and hide columns; a row goes to its turn.
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type FilterFn,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { compactionInEffect } from '../../../src/analysis/call-lookup';
import { compactionRows, rowMatches, type CompactionRow } from '../../../src/analysis/compaction-rows';
import type { PanelProps } from './panel-props';
import './compaction-log.css';
import { SortableHead } from '../../components/SortableTh';
import { activateOnKey, SpacerRow, useVirtualRows } from '../../components/virtual-table';
import { useWidth } from '../../hooks/use-width';
import { count as formatCount } from '../../format/count';

const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatCount(n));
// Missing values sort last whatever the direction (TanStack's sortUndefined needs undefined, not null).
const orUndef = <T,>(v: T | null): T | undefined => (v === null ? undefined : v);

const matchRow: FilterFn<CompactionRow> = (row, _columnId, query: string) => rowMatches(row.original, query);

const COLUMNS: ColumnDef<CompactionRow, unknown>[] = [
  { id: 'number', header: '#', accessorFn: (r) => r.number, cell: (c) => c.row.original.number, meta: { numeric: true } },
  { id: 'kind', header: 'Kind', accessorFn: (r) => r.kind, cell: (c) => <span className="badge kind-compaction">{c.row.original.kind}</span> },
  { id: 'trigger', header: 'Trigger / strategy', accessorFn: (r) => orUndef(r.trigger), sortUndefined: 'last', cell: (c) => c.row.original.trigger ?? '—' },
  {
    id: 'call',
    header: 'Call',
    accessorFn: (r) => orUndef(r.callIndex),
    sortUndefined: 'last',
    cell: (c) => (c.row.original.callIndex === null ? '—' : c.row.original.callIndex + 1),
    meta: { numeric: true },
  },
  {
    id: 'refetch',
    header: 'Fetches repeated',
    accessorFn: (r) => orUndef(r.refetchTokens),
    sortUndefined: 'last',
    cell: (c) => <RefetchCell row={c.row.original} />,
    meta: { numeric: true },
  },
  { id: 'tokensBefore', header: 'Tokens before', accessorFn: (r) => orUndef(r.tokensBefore), sortUndefined: 'last', cell: (c) => num(c.row.original.tokensBefore), meta: { numeric: true } },
  { id: 'tokensAfter', header: 'Tokens after', accessorFn: (r) => orUndef(r.tokensAfter), sortUndefined: 'last', cell: (c) => num(c.row.original.tokensAfter), meta: { numeric: true } },
  { id: 'saved', header: 'Saved', accessorFn: (r) => orUndef(r.saved), sortUndefined: 'last', cell: (c) => num(c.row.original.saved), meta: { numeric: true } },
  { id: 'replaced', header: 'Replaced items', accessorFn: (r) => orUndef(r.replaced), sortUndefined: 'last', cell: (c) => num(c.row.original.replaced), meta: { numeric: true } },
  {
    id: 'fallback',
    header: 'Fallback',
    accessorFn: (r) => (r.fallback === null ? undefined : r.fallback ? 1 : 0),
    sortUndefined: 'last',
    cell: (c) => (c.row.original.fallback === null ? '—' : c.row.original.fallback ? <span className="fallback-yes">yes</span> : 'no'),
  },
  {
    id: 'keptIds',
    header: 'Kept ids',
    accessorFn: (r) => orUndef(r.keptIds),
    sortUndefined: 'last',
    cell: (c) => <IdCount n={c.row.original.keptIds} from={c.row.original.idsFrom} />,
    meta: { numeric: true },
  },
  {
    id: 'lostIds',
    header: 'Lost ids',
    accessorFn: (r) => orUndef(r.lostIds),
    sortUndefined: 'last',
    cell: (c) => <IdCount n={c.row.original.lostIds} from={c.row.original.idsFrom} />,
    meta: { numeric: true },
  },
  {
    id: 'summary',
    header: 'Summary',
    accessorFn: (r) => r.summaryPreview,
    enableSorting: false,
    cell: (c) => <span className="summary-preview">{c.row.original.summaryPreview || <span className="muted">—</span>}</span>,
  },
];

/** Calls after the compaction that fetched again what it removed; the costliest one links to both calls. */
function RefetchCell({ row }: { row: CompactionRow }) {
  const goTo = useContext(GoToContext);
  if (row.refetches === null) return <>—</>;
  const top = row.topRefetch;
  const jump = (e: MouseEvent, item: string, call: number | null) => {
    e.stopPropagation();
    goTo?.({ item, ...(call !== null ? { call: call - 1 } : {}) });
  };
  return (
    <span className="refetch-cell" title={`${row.refetches} tool call${row.refetches === 1 ? '' : 's'} fetched again what this compaction removed`}>
      {num(row.refetches)} · {num(row.refetchTokens)} tok
      {top ? (
        <span className="refetch-links small">
          {' '}
          <button type="button" className="link" aria-label={`Costliest re-fetch: ${top.tool} ${top.target}, call ${top.call ?? '?'}`} onClick={(e) => jump(e, top.callId, top.call)}>
            call {top.call ?? '?'}
          </button>
          <span className="muted">↩</span>
          <button type="button" className="link" aria-label={`Its earlier call ${top.earlierCall ?? '?'}`} onClick={(e) => jump(e, top.earlierCallId, top.earlierCall)}>
            {top.earlierCall ?? '?'}
          </button>
        </span>
      ) : null}
    </span>
  );
}

const GoToContext = createContext<PanelProps['goTo'] | null>(null);

function IdCount({ n, from }: { n: number | null; from: CompactionRow['idsFrom'] }) {
  if (n === null) return <>—</>;
  return <span title={from === 'log' ? 'as the compaction log records it' : 'measured by the summary audit'}>{num(n)}</span>;
}

const ROW_HEIGHT = 38;
/** Below these pane widths the table drops columns to keep the Summary in sight. */
const FIT_ALL_PX = 760;
const FIT_FEW_PX = 560;

export default function CompactionLogPanel({ view, callIndex, itemById, goTo }: PanelProps) {
  const data = useMemo(() => compactionRows(view.compactions, view.calls, view.audits, itemById, view.refetch), [view, itemById]);
  const current = useMemo(() => compactionInEffect(view.calls, callIndex), [view.calls, callIndex]);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  // Fitted to the pane until the user picks columns: the rarer ones are hidden, then, in a narrow pane, Tokens after
  // (before − saved) and the trigger, then the kind; the Columns menu brings them back.
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef, 600);
  const fitted = useMemo<VisibilityState>(() => ({ replaced: false, keptIds: false, lostIds: false, ...(width < FIT_ALL_PX ? { tokensAfter: false, trigger: false, refetch: false } : {}), ...(width < FIT_FEW_PX ? { kind: false } : {}) }), [width]);
  const [chosen, setChosen] = useState<VisibilityState | null>(null);
  const visibility = chosen ?? fitted;
  const setVisibility = (v: VisibilityState | ((old: VisibilityState) => VisibilityState)) => setChosen((old) => (typeof v === 'function' ? v(old ?? fitted) : v));
  const table = useReactTable({
    data,
    columns: COLUMNS,
    state: { sorting, globalFilter: filter, columnVisibility: visibility },
    onSortingChange: setSorting,
    onGlobalFilterChange: (v: unknown) => setFilter(typeof v === 'string' ? v : ''),
    onColumnVisibilityChange: setVisibility,
    globalFilterFn: matchRow,
    // The filter matches the whole row once, so it is asked of one column only.
    getColumnCanGlobalFilter: (col) => col.id === 'number',
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId: (r) => r.id,
  });
  const rows = table.getRowModel().rows;

  const { virtualizer, virtual, padTop, padBottom } = useVirtualRows(rows.length, scrollRef, ROW_HEIGHT, 12);
  const visibleCols = table.getVisibleLeafColumns().length;

  if (data.length === 0) return <p className="empty">No compactions in this session: the log is empty.</p>;

  const open = (row: CompactionRow) => {
    if (row.callIndex !== null) goTo({ call: row.callIndex });
  };
  const onKey = (e: KeyboardEvent, row: CompactionRow) => activateOnKey(e, () => open(row));


  return (
    <GoToContext.Provider value={goTo}>
    <div className="log-panel">
      <div className="log-toolbar">
        <label className="log-filter">
          <span>Filter</span>
          <input type="search" aria-label="Filter compactions" placeholder="kind, strategy, call 7, summary text…" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
        <span className="muted small" aria-live="polite">
          {rows.length === data.length ? `${data.length} compaction${data.length === 1 ? '' : 's'}` : `${rows.length} of ${data.length} compactions`}
        </span>
        <ColumnsMenu table={table} />
      </div>
      <div className="log-scroll" ref={scrollRef}>
        <table className="log-table">
          <caption className="visually-hidden">Compaction log: one row per compaction; a row opens the first call after it.</caption>
          <thead>
            <SortableHead table={table} />
          </thead>
          <tbody>
            <SpacerRow height={padTop} cols={visibleCols} />
            {virtual.map((vi) => {
              const row = rows[vi.index]!;
              const r = row.original;
              const linked = r.callIndex !== null;
              return (
                <tr
                  key={row.id}
                  data-index={vi.index}
                  ref={virtualizer.measureElement}
                  className={`${linked ? 'linked' : ''}${r.id === current ? ' current' : ''}`}
                  tabIndex={linked ? 0 : undefined}
                  aria-current={r.id === current ? 'true' : undefined}
                  title={linked ? `Go to call ${r.callIndex! + 1}` : 'No call was sent after this compaction'}
                  onClick={() => open(r)}
                  onKeyDown={(e) => onKey(e, r)}
                >
                  {row.getVisibleCells().map((cell) => {
                    const numeric = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                    return (
                      <td key={cell.id} className={numeric ? 'num' : cell.column.id === 'summary' ? 'summary' : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            <SpacerRow height={padBottom} cols={visibleCols} />
            {rows.length === 0 ? (
              <tr>
                <td colSpan={visibleCols} className="no-match">
                  No compaction matches “{filter}”.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </div>
    </GoToContext.Provider>
  );
}

function ColumnsMenu({ table }: { table: ReturnType<typeof useReactTable<CompactionRow>> }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const hidden = table.getAllLeafColumns().filter((c) => !c.getIsVisible()).length;
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);
  return (
    <div
      className="columns-menu"
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          ref.current?.querySelector('button')?.focus();
        }
      }}
    >
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        Columns{hidden ? <span className="muted small"> ({hidden} hidden)</span> : null}
      </button>
      {open ? (
        <fieldset id={id} className="columns-popover">
          <legend>Show columns</legend>
          {table.getAllLeafColumns().map((col) => {
            const label = String(col.columnDef.header);
            return (
              <label key={col.id}>
                <input type="checkbox" checked={col.getIsVisible()} disabled={col.id === 'number'} onChange={col.getToggleVisibilityHandler()} />
                {label === '#' ? '# (number)' : label}
              </label>
            );
          })}
        </fieldset>
      ) : null}
    </div>
  );
}
