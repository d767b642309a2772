// A small sweep (e.g. tail 1..5 × three thresholds): the grid form, and the results as a sortable TanStack table
// whose rows open their rerun in the result region.
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { SweepRow } from '../../../../src/compaction';
import { sweepableParams, sweepPlan, type RerunForm, type SweepForm } from '../../../../src/rerun/form';
import type { SweepOutput } from '../../../data/rerun-client';
import { usd } from './RerunResultView';
import { SortableHead } from '../../../components/SortableTh';
import { activateOnKey } from '../../../components/virtual-table';
import { count as formatCount } from '../../../format/count';

const UNIT: Record<RerunForm['trigger']['kind'], string> = { tokens: 'tokens', fraction: '% of window', turns: 'calls', items: 'items', recorded: 'none: the recorded trigger has no value' };
const num = (n: number) => formatCount(Math.round(n));
const orUndef = <T,>(v: T | null): T | undefined => (v === null ? undefined : v);

interface FormProps {
  form: RerunForm;
  sweep: SweepForm;
  setSweep(s: SweepForm): void;
  disabled: boolean;
  onSweep(): void;
}

export function SweepFields({ form, sweep, setSweep, disabled, onSweep }: FormProps) {
  const id = useId();
  const specs = sweepableParams(form.strategy);
  const param = specs.find((p) => p.name === sweep.param) ?? null;
  const plan = sweepPlan(form, sweep);
  return (
    <fieldset className="rr-fieldset rr-sweep" disabled={disabled}>
      <legend className="visually-hidden">Sweep</legend>
      <div className="rr-sweep-grid">
        {specs.length > 0 ? (
          <div className="rr-field">
            <label htmlFor={`${id}-param`}>Sweep parameter</label>
            <select id={`${id}-param`} value={param?.name ?? ''} onChange={(e) => setSweep({ ...sweep, param: e.target.value })}>
              {specs.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.label} ({p.name})
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {param ? (
          <div className="rr-field">
            <label htmlFor={`${id}-values`}>Values</label>
            <input id={`${id}-values`} type="text" spellCheck={false} value={sweep.values} onChange={(e) => setSweep({ ...sweep, values: e.target.value })} placeholder="1-5" />
          </div>
        ) : null}
        <div className="rr-field">
          <label htmlFor={`${id}-thresholds`}>Thresholds</label>
          <input
            id={`${id}-thresholds`}
            type="text"
            spellCheck={false}
            value={form.trigger.kind === 'recorded' ? '' : sweep.thresholds}
            disabled={form.trigger.kind === 'recorded'}
            onChange={(e) => setSweep({ ...sweep, thresholds: e.target.value })}
            aria-describedby={`${id}-unit`}
          />
          <span id={`${id}-unit`} className="rr-field-help">
            {UNIT[form.trigger.kind]}, as the trigger above
          </span>
        </div>
        <div className="rr-sweep-go">
          <button type="button" onClick={onSweep} disabled={!plan.ok}>
            Sweep
          </button>
          <span className={plan.ok ? 'muted small' : 'rr-warn small'} aria-live="polite">
            {plan.ok ? `${plan.plan.runs} run${plan.plan.runs === 1 ? '' : 's'}` : plan.error}
          </span>
        </div>
      </div>
    </fieldset>
  );
}

const TRIGGER_UNIT: Record<RerunForm['trigger']['kind'], string> = { tokens: 'tokens', fraction: 'window', turns: 'calls', items: 'items', recorded: 'recorded' };

/** `≥ 1500`, `≥ 80%`, `every 5`: the unit is in the column header. */
export function shortTrigger(t: SweepRow['trigger']): string {
  return t.kind === 'tokens' ? `≥ ${formatCount(t.threshold)}` : t.kind === 'fraction' ? `≥ ${Math.round(t.fraction * 100)}%` : t.kind === 'items' ? `> ${t.max}` : t.kind === 'recorded' ? 'recorded' : `every ${t.every}`;
}

function columnsFor(paramNames: string[], kind: RerunForm['trigger']['kind']): ColumnDef<SweepRow, unknown>[] {
  const numeric = { meta: { numeric: true } };
  return [
    { id: 'run', header: '#', accessorFn: (r) => r.index, cell: (c) => c.row.original.index + 1, ...numeric },
    ...paramNames.map(
      (p): ColumnDef<SweepRow, unknown> => ({
        id: `p.${p}`,
        header: p,
        accessorFn: (r) => (typeof r.gridParams[p] === 'number' ? r.gridParams[p] : String(r.gridParams[p])),
        cell: (c) => String(c.row.original.gridParams[p]),
        ...numeric,
      }),
    ),
    {
      id: 'trigger',
      header: `Trigger (${TRIGGER_UNIT[kind]})`,
      accessorFn: (r) => (r.trigger.kind === 'tokens' ? r.trigger.threshold : r.trigger.kind === 'fraction' ? r.trigger.fraction : r.trigger.kind === 'items' ? r.trigger.max : r.trigger.kind === 'recorded' ? 0 : r.trigger.every),
      cell: (c) => (
        <span className="rr-nowrap" title={c.row.original.triggerLabel}>
          {shortTrigger(c.row.original.trigger)}
        </span>
      ),
    },
    {
      id: 'compactions',
      header: 'Compac\u00adtions',
      accessorFn: (r) => r.compactions,
      cell: (c) => (
        <span title={c.row.original.fallbacks ? `${c.row.original.fallbacks} fell back to the marker` : undefined}>
          {c.row.original.compactions}
          {c.row.original.fallbacks ? <span className="rr-delta up"> ({c.row.original.fallbacks}✕)</span> : null}
        </span>
      ),
      ...numeric,
    },
    {
      id: 'inputTokens',
      header: 'Input tokens',
      accessorFn: (r) => r.inputTokens,
      // More than the original sent: the rerun costs tokens instead of saving them.
      cell: (c) => (
        <span className={c.row.original.savedTokens < 0 ? 'rr-delta up' : undefined} title={`${c.row.original.savedTokens >= 0 ? 'saves' : 'adds'} ${num(Math.abs(c.row.original.savedTokens))} tokens`}>
          {num(c.row.original.inputTokens)}
        </span>
      ),
      ...numeric,
    },
    { id: 'prefix', header: 'Prefix reused', accessorFn: (r) => r.prefixReused, cell: (c) => num(c.row.original.prefixReused), ...numeric },
    { id: 'cost', header: 'Cost', accessorFn: (r) => orUndef(r.inputCost), sortUndefined: 'last', cell: (c) => usd(c.row.original.inputCost, 2), ...numeric },
    { id: 'kept', header: 'Kept', accessorFn: (r) => r.kept, cell: (c) => c.row.original.kept, ...numeric },
    {
      id: 'lost',
      header: 'Lost',
      accessorFn: (r) => r.lost,
      cell: (c) => (
        <span title={c.row.original.lostReferencedLater ? `${c.row.original.lostReferencedLater} needed by a later turn` : undefined}>
          {c.row.original.lost}
          {c.row.original.lostReferencedLater ? <span className="rr-delta up">*</span> : null}
        </span>
      ),
      ...numeric,
    },
    { id: 'invented', header: 'Invented', accessorFn: (r) => r.invented, cell: (c) => c.row.original.invented, ...numeric },
  ];
}

export function SweepTable({ sweep, shownRow, onPick }: { sweep: SweepOutput; shownRow: number | null; onPick(index: number): void }) {
  const paramNames = useMemo(() => [...new Set(sweep.rows.flatMap((r) => Object.keys(r.gridParams)))], [sweep]);
  const kind = sweep.rows[0]?.trigger.kind ?? 'tokens';
  const columns = useMemo(() => columnsFor(paramNames, kind), [paramNames, kind]);
  const [sorting, setSorting] = useState<SortingState>([]);
  // Distinct identifiers, as the result region counts them (the rows count them once per compaction).
  const data = useMemo(
    () =>
      sweep.rows.map((r, i) => {
        const ids = sweep.runs[i]?.result.rerun.identifiers;
        return ids ? { ...r, kept: ids.keptValues.length, lost: ids.lostValues.length, invented: ids.inventedValues.length, lostReferencedLater: ids.lostReferencedLaterValues.length } : r;
      }),
    [sweep],
  );
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
  });
  const onKey = (e: KeyboardEvent, index: number) => activateOnKey(e, () => onPick(index));

  return (
    <div className="rr-sweep-results">
      <p className="small muted">
        {sweep.rows.length} run{sweep.rows.length === 1 ? '' : 's'}
        {sweep.status === 'cancelled' ? ' (cancelled)' : ''} · original input {num(sweep.rows[0]?.originalInputTokens ?? 0)} tokens, {usd(sweep.rows[0]?.originalInputCost ?? null)} · pick a row to open it
      </p>
      <div className="rr-sweep-scroll">
        <table className="rr-sweep-table" aria-label="Sweep results">
          <thead>
            <SortableHead table={table} />
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => {
              const r = row.original;
              const current = r.index === shownRow;
              return (
                <tr key={row.id} tabIndex={0} className={current ? 'current' : undefined} aria-current={current ? "true" : undefined} onClick={() => onPick(r.index)} onKeyDown={(e) => onKey(e, r.index)}>
                  {row.getVisibleCells().map((cell) => {
                    const isNum = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                    return (
                      <td key={cell.id} className={isNum ? 'num' : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
