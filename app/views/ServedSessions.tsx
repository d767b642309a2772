// The landing page under `compaction-inspector serve`: the sessions found on this machine as a sortable,
// filterable table. The listing arrives at once, from names, sizes and dates, with calls, compactions and the cache
// hit rate of every session the server measured before (its index, keyed by size and time); the others are filled
// in row by row (newest first) as the server measures them. One click opens a session and follows it live.
// Only the rows in view are in the page (virtualized): 1,000 rows rendered at once were a 0.3-0.5 s main-thread task
// between the listing's answer and the table on a loaded 2-core machine (bench/browser/serve-page.ts).
import { flexRender, type ColumnDef, type Row as TableRow } from '@tanstack/react-table';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionGlance } from '../../src/analysis/session-glance';
import { useTextFilterTable } from '../hooks/use-text-filter-table';
import { SortableHead } from '../components/SortableTh';
import { SpacerRow, useVirtualRows } from '../components/virtual-table';
import { openServed } from '../data/live-follow';
import { readyToOpen } from './open-intent';
import { whenIdle } from './when-idle';
import { listServedSessions, type ListedSession, type ServedListing, type ServedSession } from '../data/serve-api';
import { glanceSessions, knownGlance, type Glance } from '../data/glance-client';
import { useApp } from '../store';
import { formatLabel } from './SessionHeader';
import { plain, Untrusted } from '../components/Untrusted';
import './served-sessions.css';
import { count as formatCount } from '../format/count';

interface Row extends ListedSession {
  glance: Glance;
}

const orUndef = <T,>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
const done = (r: Row): SessionGlance | null => (r.glance.state === 'done' ? r.glance.glance : null);

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

function when(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'short' });
}

function harnessOf(r: Row): string {
  const g = done(r);
  if (g) return formatLabel(g.format);
  return r.harness ? formatLabel(r.harness) : r.glance.state === 'pending' ? '…' : '—';
}

/** A figure once measured; `…` while waiting, `—` when the file was not or could not be measured. */
function measured(r: Row, f: (g: SessionGlance) => string): string {
  const g = done(r);
  if (g) return f(g);
  return r.glance.state === 'pending' ? '…' : '—';
}

function columns(): ColumnDef<Row>[] {
  return [
    { id: 'session', header: 'Session', accessorFn: (r) => r.path, cell: (c) => <OpenButton row={c.row.original} /> },
    { id: 'harness', header: 'Harness', accessorFn: (r) => harnessOf(r) },
    { id: 'project', header: 'Project', accessorFn: (r) => orUndef(r.project), sortUndefined: 'last', cell: (c) => (c.row.original.project === null ? '—' : <Untrusted text={c.row.original.project} />) },
    { id: 'started', header: 'Started', accessorFn: (r) => orUndef(done(r)?.started), sortUndefined: 'last', cell: (c) => when(done(c.row.original)?.started) },
    { id: 'last', header: 'Last activity', accessorFn: (r) => done(r)?.lastActivity ?? new Date(r.modified).toISOString(), cell: (c) => when(done(c.row.original)?.lastActivity ?? c.row.original.modified) },
    { id: 'size', header: 'Size', accessorFn: (r) => r.size, cell: (c) => bytes(c.row.original.size), meta: { numeric: true } },
    { id: 'calls', header: 'Calls', accessorFn: (r) => orUndef(done(r)?.calls), sortUndefined: 'last', cell: (c) => measured(c.row.original, (g) => formatCount(g.calls)), meta: { numeric: true } },
    { id: 'compactions', header: 'Compactions', accessorFn: (r) => orUndef(done(r)?.compactions), sortUndefined: 'last', cell: (c) => measured(c.row.original, (g) => String(g.compactions)), meta: { numeric: true } },
    {
      id: 'hit',
      header: 'Cache hit rate',
      accessorFn: (r) => orUndef(done(r)?.hitRate),
      sortUndefined: 'last',
      cell: (c) => measured(c.row.original, (g) => (g.hitRate === null ? '—' : `${(g.hitRate * 100).toFixed(1)}%`)),
      meta: { numeric: true, title: 'Cached prompt tokens the provider reported, over all prompt tokens; — when the file records no cache usage' },
    },
  ];
}

function OpenButton({ row }: { row: Row }) {
  const [busy, setBusy] = useState(false);
  const pushNotice = useApp((s) => s.pushNotice);
  const open = async () => {
    setBusy(true);
    try {
      await openServed(row);
    } catch (e) {
      pushNotice({ id: `serve-open-${row.id}`, tone: 'warn', text: `Could not open ${plain(row.path)}: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    // A file name is untrusted: a right-to-left override in it shows as ⟨RLO⟩ instead of reversing the name.
    <button type="button" className="link" onClick={() => void open()} disabled={busy} aria-label={`Open ${plain(row.path)}`} title={plain(row.files.join('\n'))}>
      <Untrusted text={row.path} />
    </button>
  );
}

/** What the search box matches in a row. */
const servedTexts = (r: Row): string[] => {
  const g = done(r);
  return [r.path, r.project ?? '', r.harness ?? '', g?.format ?? '', g?.title ?? '', g?.model ?? ''];
};

const PENDING: Glance = { state: 'pending' };

/** A row's height before it is measured (a path that wraps makes it taller; each rendered row is measured). */
const ROW_HEIGHT = 31;

/** One session's row. Its cells read only the row's own session and glance (the columns never change), so it is
 *  rendered again only when that object or its place changes. `measure` tells the virtualizer its real height. */
const ServedRow = memo(
  function ServedRow({ row, index, measure }: { row: TableRow<Row>; index: number; measure: (el: Element | null) => void }) {
    return (
      <tr ref={measure} data-index={index} aria-rowindex={index + 2} title={row.original.glance.state === 'failed' ? row.original.glance.message : undefined}>
        {row.getVisibleCells().map((cell) => (
          <td key={cell.id} className={(cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? 'num' : undefined}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        ))}
      </tr>
    );
  },
  (a, b) => a.row.original === b.row.original && a.index === b.index && a.measure === b.measure,
);

/** The measured columns: those the listing brought, then the rest in batches as the server measures them (data/glance-client.ts). */
function useGlances(sessions: ServedSession[] | null): Map<string, Glance> {
  const [glances, setGlances] = useState(() => new Map<string, Glance>());
  useEffect(() => {
    if (!sessions || sessions.length === 0) return;
    return glanceSessions(sessions, (batch) => setGlances((m) => new Map([...m, ...batch])));
  }, [sessions]);
  return glances;
}

export function ServedSessions() {
  const [listing, setListing] = useState<ServedListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    listServedSessions().then(setListing, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  // A list of the machine's sessions is there to open one: the ranks, a load worker and the panels' code start once
  // the table is shown and the page is idle, not while the listing is read and the table rendered.
  const listed = listing !== null;
  useEffect(() => (listed ? whenIdle(readyToOpen) : undefined), [listed]);
  const glances = useGlances(listing?.sessions ?? null);
  // A glance the listing brought shows in the table's first render, not one render later. A row whose session and
  // glance did not change keeps its object, so its <tr> (ServedRow, memoized) is not rendered again: a batch of
  // glances re-renders the rows it fills, not the whole table.
  const rowCache = useRef(new Map<string, Row>());
  const data = useMemo<Row[]>(() => {
    const before = rowCache.current;
    const next = new Map<string, Row>();
    const rows = (listing?.sessions ?? []).map((s) => {
      const glance = glances.get(s.id) ?? knownGlance(s) ?? PENDING;
      const old = before.get(s.id);
      const row = old && old.glance === glance && old.size === s.size && old.modified === s.modified && old.path === s.path ? old : { ...s, glance };
      next.set(s.id, row);
      return row;
    });
    rowCache.current = next;
    return rows;
  }, [listing, glances]);
  const cols = useMemo(columns, []);
  const { table, text, setText } = useTextFilterTable({ data, columns: cols, textsOf: servedTexts, filterColumn: 'session', getRowId: (r) => r.id });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { virtualizer, virtual, padTop, padBottom } = useVirtualRows(rows.length, scrollRef, ROW_HEIGHT, 10);
  if (error) return <p className="warn-text">The session list could not be read from the server: {error}</p>;
  if (!listing) return <p className="muted">Listing the sessions on this machine…</p>;
  const visibleCols = table.getVisibleLeafColumns().length;
  const measuredCount = data.filter((r) => r.glance.state !== 'pending').length;
  return (
    <section className="served" aria-label="Sessions on this machine">
      <h3>Sessions on this machine</h3>
      <p className="muted small">From {listing.roots.map((r) => r.dir).join(', ') || 'no folder'}. Read-only; everything is parsed in this tab.</p>
      <div className="served-toolbar">
        <label>
          <span>Filter</span> <input type="search" aria-label="Filter sessions" placeholder="path, project, harness or model…" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <span className="muted small" role="status" aria-live="polite">
          {rows.length === data.length ? `${data.length} sessions` : `${rows.length} of ${data.length} sessions`}
          {measuredCount < data.length ? ` · measuring ${measuredCount + 1} of ${data.length}…` : ''}
        </span>
      </div>
      <div className="served-scroll" ref={scrollRef}>
        <table className="served-table" aria-rowcount={rows.length + 1}>
          <caption className="visually-hidden">Sessions found on this machine; a session's name opens it.</caption>
          <thead>
            <SortableHead table={table} rowIndex={1} />
          </thead>
          <tbody>
            <SpacerRow height={padTop} cols={visibleCols} />
            {virtual.map((v) => {
              const row = rows[v.index]!;
              return <ServedRow key={row.id} row={row} index={v.index} measure={virtualizer.measureElement} />;
            })}
            <SpacerRow height={padBottom} cols={visibleCols} />
          </tbody>
        </table>
        {rows.length === 0 ? <p className="empty muted">{data.length === 0 ? 'No session files in these folders.' : 'No session matches the filter.'}</p> : null}
      </div>
    </section>
  );
}
