// One row per trajectory (TanStack Table, virtualized): sort by any column, filter by text or by a chart bar;
// a row (click, Enter or Space) opens its trajectory in the inspector.
import { useMemo, useRef, type KeyboardEvent } from 'react';
import { flexRender, type ColumnDef } from '@tanstack/react-table';
import { matchesFilter, type ChartFilter } from '../../../src/corpus/corpus-charts';
import type { CorpusEntry, JudgeCell } from '../../store/corpus-slice';
import { useTextFilterTable } from '../../hooks/use-text-filter-table';
import { SortableHead } from '../../components/SortableTh';
import { activateOnKey, SpacerRow, useVirtualRows } from '../../components/virtual-table';
import { count as formatCount } from '../../format/count';
import { formatUsd } from '../../../src/charts/cache-summary';

const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatCount(n));
const orUndef = <T,>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
const turnsText = (t: number[]) => (t.length === 0 ? '—' : t.length > 6 ? `${t.slice(0, 6).join(', ')}, … (${t.length})` : t.join(', '));

export interface TableRow extends CorpusEntry {
  judged?: JudgeCell;
}

const judgeValue = (c: JudgeCell | undefined, k: 'timing' | 'content') => (c?.status === 'done' ? c.scores[k] : undefined);

function JudgeCellView({ cell, k }: { cell: JudgeCell | undefined; k: 'timing' | 'content' }) {
  if (!cell) return <span className="muted">—</span>;
  if (cell.status === 'pending') return <span className="muted">…</span>;
  if (cell.status === 'failed') return <span className="judge-failed" title={cell.reason}>failed</span>;
  return <span title={cell.scores.justification || undefined}>{cell.scores[k].toFixed(2)}</span>;
}

function Outcome({ r }: { r: CorpusEntry }) {
  if (r.success === null) return <span className="muted">—</span>;
  return <span className={r.success ? 'outcome-text-success' : 'outcome-text-failure'}>{r.success ? 'yes' : 'no'}</span>;
}

function columns(judging: boolean): ColumnDef<TableRow, unknown>[] {
  const cols: ColumnDef<TableRow, unknown>[] = [
    {
      id: 'id',
      header: 'Trajectory',
      accessorFn: (r) => r.id,
      cell: (c) => (
        <span className="traj">
          <span className="traj-id">{c.row.original.id}</span>
          <span className="traj-file muted">
            {c.row.original.file}
            {c.row.original.line === null ? '' : c.row.original.parquetColumn ? ` · row ${c.row.original.line}` : `:${c.row.original.line}`}
          </span>
        </span>
      ),
    },
    { id: 'format', header: 'Format', accessorFn: (r) => r.format, cell: (c) => <span className="badge">{c.row.original.format}</span> },
    { id: 'turns', header: 'Turns', accessorFn: (r) => r.turns, cell: (c) => num(c.row.original.turns), meta: { numeric: true, title: 'Model calls (agent turns; iterations of a reasoning trace)' } },
    { id: 'total_tokens', header: 'Tokens', accessorFn: (r) => r.total_tokens, cell: (c) => num(c.row.original.total_tokens), meta: { numeric: true, title: 'Input tokens summed over every call' } },
    { id: 'cost_usd', header: 'Cost', accessorFn: (r) => orUndef(r.cost_usd), sortUndefined: 'last', cell: (c) => (c.row.original.cost_usd === null ? '—' : formatUsd(c.row.original.cost_usd)), meta: { numeric: true, title: "Dollars at the reported usage: the calls, the sidechains and the responses billed on branches the conversation left (as the session header's Cost)" } },
    { id: 'peak_context_tokens', header: 'Peak ctx', accessorFn: (r) => r.peak_context_tokens, cell: (c) => num(c.row.original.peak_context_tokens), meta: { numeric: true, title: 'Largest single-call context, in tokens' } },
    { id: 'summaries', header: 'Summaries', accessorFn: (r) => r.summaries, cell: (c) => num(c.row.original.summaries), meta: { numeric: true, title: 'Compactions that put a summary in place' } },
    { id: 'summary_turns', header: 'Sum. turns', accessorFn: (r) => r.summary_turns[0], sortUndefined: 'last', cell: (c) => turnsText(c.row.original.summary_turns), meta: { numeric: true, title: 'Turns after which summaries were written' } },
    { id: 'omissions', header: 'Omissions', accessorFn: (r) => r.omissions, cell: (c) => num(c.row.original.omissions), meta: { numeric: true, title: 'Turns that omitted a thought or observations' } },
    { id: 'tokens_saved', header: 'Saved', accessorFn: (r) => r.tokens_saved, cell: (c) => num(c.row.original.tokens_saved), meta: { numeric: true, title: 'Tokens the compactions took out of the context' } },
    { id: 'invented_identifiers', header: 'Invented', accessorFn: (r) => r.invented_identifiers, cell: (c) => num(c.row.original.invented_identifiers), meta: { numeric: true, title: 'Identifiers in summaries found in none of their sources' } },
    { id: 'lost_identifiers', header: 'Lost', accessorFn: (r) => r.lost_identifiers, cell: (c) => num(c.row.original.lost_identifiers), meta: { numeric: true, title: 'Identifiers of replaced items no summary kept' } },
    { id: 'lints', header: 'Lints', accessorFn: (r) => r.lints, cell: (c) => num(c.row.original.lints), meta: { numeric: true, title: 'Lint findings' } },
    { id: 'success', header: 'Success', accessorFn: (r) => (r.success === null ? undefined : r.success ? 1 : 0), sortUndefined: 'last', cell: (c) => <Outcome r={c.row.original} /> },
    { id: 'reward', header: 'Reward', accessorFn: (r) => orUndef(r.reward), sortUndefined: 'last', cell: (c) => num(c.row.original.reward), meta: { numeric: true, title: 'The file\'s reward or score' } },
  ];
  if (judging) {
    cols.push(
      { id: 'judge_timing', header: 'Timing (judge)', accessorFn: (r) => judgeValue(r.judged, 'timing'), sortUndefined: 'last', cell: (c) => <JudgeCellView cell={c.row.original.judged} k="timing" />, meta: { numeric: true, title: 'Judge: mean of necessity, timeliness, task awareness, avoidance of redundancy (1–5)' } },
      { id: 'judge_content', header: 'Content (judge)', accessorFn: (r) => judgeValue(r.judged, 'content'), sortUndefined: 'last', cell: (c) => <JudgeCellView cell={c.row.original.judged} k="content" />, meta: { numeric: true, title: 'Judge: mean of coverage, faithfulness, abstraction, future utility (1–5)' } },
    );
  }
  return cols;
}

/** What the search box matches in a row. */
const corpusTexts = (r: TableRow): string[] => [r.id, r.file, r.format, r.model ?? ''];

const ROW_HEIGHT = 44;

export interface CorpusTableProps {
  rows: CorpusEntry[];
  judge: Record<string, JudgeCell>;
  filter: ChartFilter | null;
  open(entry: CorpusEntry): void;
}

export function CorpusTable({ rows, judge, filter, open }: CorpusTableProps) {
  const judging = Object.keys(judge).length > 0;
  // Rows are wrapped only when judge scores exist: a large corpus re-renders without copying every row.
  const data = useMemo<TableRow[]>(() => {
    const shown = filter ? rows.filter((r) => matchesFilter(r, filter)) : rows;
    return judging ? shown.map((r) => ({ ...r, judged: judge[r.key] })) : (shown as TableRow[]);
  }, [rows, judge, filter, judging]);
  const cols = useMemo(() => columns(judging), [judging]);
  const { table, text, setText } = useTextFilterTable({ data, columns: cols, textsOf: corpusTexts, filterColumn: 'id', getRowId: (r) => r.key });
  const shown = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { virtual, padTop, padBottom } = useVirtualRows(shown.length, scrollRef, ROW_HEIGHT, 10);
  const visibleCols = table.getVisibleLeafColumns().length;
  const onKey = (e: KeyboardEvent, r: CorpusEntry) => activateOnKey(e, () => open(r));

  const total = rows.length;
  const countText = shown.length === total ? `${formatCount(total)} trajectories` : `${formatCount(shown.length)} of ${formatCount(total)} trajectories`;

  return (
    <section className="corpus-table-wrap" aria-label="Trajectories">
      <div className="corpus-toolbar">
        <label className="corpus-filter">
          <span>Filter</span>
          <input type="search" aria-label="Filter trajectories" placeholder="id, file, format or model…" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <span className="muted small" role="status" aria-live="polite" data-testid="corpus-row-count">
          {countText}
        </span>
        <span className="muted small corpus-hint">Click a row to open it in the inspector.</span>
      </div>
      <div className="corpus-scroll" ref={scrollRef}>
        <table className="corpus-table" aria-rowcount={shown.length + 1}>
          <caption className="visually-hidden">Trajectories of the corpus, one per row; a row opens the trajectory in the inspector.</caption>
          <thead>
            <SortableHead table={table} rowIndex={1} />
          </thead>
          <tbody>
            <SpacerRow height={padTop} cols={visibleCols} />
            {virtual.map((v) => {
              const row = shown[v.index]!;
              return (
                <tr key={row.id} aria-rowindex={v.index + 2} tabIndex={0} className="linked" onClick={() => open(row.original)} onKeyDown={(e) => onKey(e, row.original)} aria-label={`Open trajectory ${row.original.id}`}>
                  {row.getVisibleCells().map((cell) => {
                    const numeric = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                    return (
                      <td key={cell.id} className={numeric ? 'num' : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            <SpacerRow height={padBottom} cols={visibleCols} />
          </tbody>
        </table>
        {shown.length === 0 ? <p className="empty">{total === 0 ? 'No trajectories measured yet.' : 'No trajectory matches the filter.'}</p> : null}
      </div>
    </section>
  );
}
