// Compare policies: every harness's compaction policy replayed on this session with the offline summarizer, ranked
// side by side with the recorded run as the first row, each figure beside its difference from the recorded run.
// The same table as `compaction-inspector rerun FILE --policies …` (policy-compare.ts).
import { useMemo, useState } from 'react';
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type Row, type SortingState } from '@tanstack/react-table';
import { POLICIES, type PolicyComparison, type PolicyRow } from '../../../src/compaction';
import { PROBE_KINDS as PROBE_KINDS_FOR_TABLE } from '../../../src/probes';
import { cancelCompare, setComparePolicies, startCompare, useSessionCompare } from '../../data/compare-client';
import { useApp } from '../../store';
import { SortableHead } from '../../components/SortableTh';
import { count as formatCount } from '../../format/count';
import type { PanelProps } from './panel-props';
import './compare.css';

const num = (n: number | null) => (n === null ? '—' : formatCount(Math.round(n)));
const usd = (n: number | null) => (n === null ? '—' : n >= 100 ? `$${n.toFixed(0)}` : `$${n.toFixed(2)}`);
const pct = (v: number) => `${Math.round(v * 100)}%`;

/** The difference from the recorded run: `−12%` for sizes and dollars, `+3` for counts; lower is better for all. */
function Delta({ value, base, kind }: { value: number | null; base: number | null; kind: 'relative' | 'absolute' }) {
  if (value === null || base === null || value === base) return null;
  const d = value - base;
  const text = kind === 'relative' ? (base === 0 ? null : `${d > 0 ? '+' : '−'}${Math.abs(Math.round((d / base) * 100))}%`) : `${d > 0 ? '+' : '−'}${formatCount(Math.abs(d))}`;
  if (text === null || text === '+0%' || text === '−0%') return null;
  return <span className={`cp-delta ${d < 0 ? 'down' : 'up'}`}>{text}</span>;
}

function columns(base: PolicyRow | undefined, calls: number): ColumnDef<PolicyRow, unknown>[] {
  const numeric = (title: string) => ({ meta: { numeric: true, title } });
  const figure = (id: keyof PolicyRow, header: string, title: string, fmt: (n: number | null) => string, kind: 'relative' | 'absolute', band?: 'peakBand' | 'inputBand'): ColumnDef<PolicyRow, unknown> => ({
    id,
    header,
    accessorFn: (r) => (r[id] as number | null) ?? undefined,
    sortUndefined: 'last',
    cell: (c) => {
      const v = c.row.original[id] as number | null;
      return (
        <span className="cp-cell">
          <span>{fmt(v)}</span>
          {band && c.row.original[band] > 0 ? (
            <span className="muted small cp-band" title={`Estimated on ${c.row.original.estimatedCalls} of ${calls} calls (a reported prompt ± the calibrated difference); the provider's figure elsewhere`}>
              ± {num(c.row.original[band])} est
            </span>
          ) : null}
          {c.row.original.baseline ? null : <Delta value={v} base={(base?.[id] as number | null) ?? null} kind={kind} />}
        </span>
      );
    },
    ...numeric(title),
  });
  return [
    {
      id: 'policy',
      header: 'Policy',
      accessorFn: (r) => r.label,
      cell: (c) => (
        <span className="cp-policy" title={c.row.original.trigger}>
          <strong>{c.row.original.label}</strong>
          {c.row.original.baseline ? <span className="badge">baseline</span> : null}
          <span className="muted small cp-trigger">{c.row.original.trigger}</span>
        </span>
      ),
    },
    {
      id: 'compactions',
      header: 'Compactions',
      accessorFn: (r) => r.compactions,
      cell: (c) => (
        <span className="cp-cell" title={c.row.original.compactionCalls.length ? `at call${c.row.original.compactionCalls.length === 1 ? '' : 's'} ${c.row.original.compactionCalls.join(', ')}` : 'none'}>
          <span>
            {c.row.original.compactions}
            {c.row.original.compactionCalls.length ? <span className="muted small"> @ {c.row.original.compactionCalls.slice(0, 2).join(', ')}{c.row.original.compactionCalls.length > 2 ? ', …' : ''}</span> : null}
          </span>
        </span>
      ),
      ...numeric('Compactions, with the calls they fired at (± the band of the measured prompt)'),
    },
    figure('totalUsd', 'Total $', 'Prompts plus summarizer', usd, 'relative'),
    figure('lostNeeded', 'Lost, needed', 'Identifiers a compaction lost that a later turn needed', (n) => (n === null ? '—' : String(n)), 'absolute'),
    figure('peakTokens', 'Peak', 'Largest prompt, tokens: the provider’s reported figure, or ± its band where estimated', num, 'relative', 'peakBand'),
    figure('totalInputTokens', 'Input tokens', 'Whole prompts summed over the calls: reported where the replay sends what the recording sent, else estimated (± the bands summed)', num, 'relative', 'inputBand'),
    figure('cacheReadTokens', 'Cache read', 'Tokens read from the cache: reported where the replay sends what the recording sent, else modelled with the provider’s rule', num, 'relative'),
    figure('cacheWriteTokens', 'Cache write', 'Tokens written to the cache (OpenAI bills none)', num, 'relative'),
    figure('inputUsd', 'Prompts', 'Dollars for the prompts: uncached input, reads and writes at the dated prices', usd, 'relative'),
    figure('summarizerUsd', 'Summarizer', 'The summarizer calls the harness would have made, at the session model’s price (the recorded one from its own usage)', usd, 'relative'),
    figure('lostRefetched', 'Lost, re-fetched', 'Lost identifiers a later tool call fetched again', (n) => (n === null ? '—' : String(n)), 'absolute'),
    {
      id: 'probes',
      header: 'Probes',
      accessorFn: (r) => {
        const ks = PROBE_KINDS_FOR_TABLE.map((k) => r.probes[k]).filter((k) => k !== null);
        return ks.length ? ks.reduce((n, k) => n + k!.mean, 0) / ks.length : undefined;
      },
      sortUndefined: 'last',
      cell: (c) => <ProbeCell row={c.row.original} />,
      meta: { title: 'Offline probe scores per kind: the share of each probe’s identifiers and files the summaries still hold (recall, artifact, continuation, decision)' },
    },
    {
      id: 'survival',
      header: 'Survival by kind',
      enableSorting: false,
      cell: (c) => <SurvivalCell row={c.row.original} />,
      meta: { title: 'Per kind of evicted value: how many the summaries kept' },
    },
  ];
}

function ProbeCell({ row }: { row: PolicyRow }) {
  const parts = PROBE_KINDS_FOR_TABLE.filter((k) => row.probes[k] !== null);
  if (parts.length === 0) return <span className="muted">—</span>;
  return (
    <span className="cp-kinds">
      {parts.map((k) => (
        <span key={k} title={`${k}: ${row.probes[k]!.n} probe${row.probes[k]!.n === 1 ? '' : 's'}, ${pct(row.probes[k]!.mean)} of their identifiers and files held`}>
          {k} {pct(row.probes[k]!.mean)}
        </span>
      ))}
    </span>
  );
}

function SurvivalCell({ row }: { row: PolicyRow }) {
  const all = Object.entries(row.survival).filter(([, s]) => s.evicted > 0).sort((a, b) => b[1].evicted - a[1].evicted);
  if (all.length === 0) return <span className="muted">—</span>;
  // The three kinds with the most evicted values; every kind in the tooltip.
  const kinds = all.slice(0, 3);
  const title = all.map(([k, s]) => `${k}: ${s.kept} of ${s.evicted} kept`).join('\n') + (row.auditSource === 'derived' ? '\n(worked out from the audit’s kept and lost values)' : '');
  return (
    <span className="cp-kinds" title={title}>
      {kinds.map(([k, s]) => (
        <span key={k}>
          {k} {pct(s.kept / s.evicted)}
        </span>
      ))}
    </span>
  );
}

export default function ComparePanel({ session, rule, goTo }: PanelProps) {
  const key = useApp((s) => s.activeKey) ?? session.id;
  const state = useSessionCompare(key);
  const running = state.status === 'running';
  const [sorting, setSorting] = useState<SortingState>([]);
  const result: PolicyComparison | null = state.result;
  const base = result?.rows.find((r) => r.baseline);
  const calls = result?.calls ?? 0;
  const cols = useMemo(() => columns(base, calls), [base, calls]);
  const rows = useMemo(() => (result ? result.rows.filter((r) => r.status !== 'skipped') : []), [result]);
  const table = useReactTable({
    data: rows,
    columns: cols,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  // The recorded run stays first whatever the sort: every other row reads against it.
  const sorted = table.getRowModel().rows;
  const ordered: Row<PolicyRow>[] = [...sorted.filter((r) => r.original.baseline), ...sorted.filter((r) => !r.original.baseline)];
  const p = state.progress;
  const notes = result ? result.rows.flatMap((r) => r.notes.filter((n) => !n.startsWith('summaries from the offline') && !n.startsWith('lost-and-refetched')).map((n) => ({ id: r.id, label: r.label, n }))) : [];
  const derived = result?.rows.some((r) => r.auditSource === 'derived');
  const own = result?.rows.find((r) => r.recordedMatch.length > 0);

  return (
    <div className="cp-panel">
      <p className="muted small cp-intro">
        Each policy is replayed on this session’s uncompacted history with the offline summarizer. Figures are whole prompts as the provider counts them (its reported figure wherever a replay sends what
        the recording sent), the cache billed by the provider’s rule, dollars at the dated prices{result?.priceLabel ? ` (${result.priceLabel})` : ''}. Each figure shows its difference from the recorded run; lower is cheaper or loses less.
      </p>
      <form
        className="cp-form"
        aria-label="Compare policies settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) void startCompare(key, session, rule);
        }}
      >
        <fieldset className="cp-policies" disabled={running}>
          <legend className="visually-hidden">Policies</legend>
          {POLICIES.map((pol) => (
            <label key={pol.id} title={pol.summary}>
              <input
                type="checkbox"
                checked={state.policies.includes(pol.id)}
                onChange={(e) => setComparePolicies(key, e.target.checked ? POLICIES.map((x) => x.id).filter((id) => id === pol.id || state.policies.includes(id)) : state.policies.filter((id) => id !== pol.id))}
              />{' '}
              {pol.label}
            </label>
          ))}
        </fieldset>
        <div className="rr-actions">
          <button type="submit" className="primary" disabled={running || state.policies.length === 0}>
            Compare
          </button>
          <button type="button" disabled={!running} onClick={() => cancelCompare(key)}>
            Cancel
          </button>
          {running ? (
            <span className="cp-progress">
              <progress aria-label="Compare progress" value={p ? p.policy + (p.calls ? (p.callIndex + 1) / p.calls : 0) : 0} max={p ? p.policies : 1} />
              <span role="status">{p ? `${POLICIES.find((x) => x.id === p.id)?.label ?? p.id}: call ${p.callIndex + 1} of ${p.calls} (${p.policy + 1} of ${p.policies})` : 'Starting…'}</span>
            </span>
          ) : state.status === 'cancelled' ? (
            <span className="rr-warn small">Cancelled: the table shows the policies that finished.</span>
          ) : null}
        </div>
      </form>
      {state.status === 'error' ? (
        <p className="rr-error" role="alert">
          The comparison failed: {state.error}
        </p>
      ) : null}
      {result ? (
        <>
          {own ? (
            <p className="small cp-own">
              {own.recordedMatch.map((m) => (
                <span key={m.compactionId}>
                  <span className={`badge ${m.verdict === 'within-one' || m.verdict === 'within-band' ? 'cp-ok' : ''}`}>{m.verdict === 'within-one' ? 'within one call' : m.verdict === 'within-band' ? 'within the band' : m.verdict === 'manual' ? 'manual' : m.verdict === 'not-fired' ? 'did not fire' : 'off'}</span> {own.label}’s own policy fires at call {m.replayCall ?? '—'}; the recording compacted before{' '}
                  <button type="button" className="link" onClick={() => goTo({ call: m.call - 1 })}>
                    call {m.call}
                  </button>
                  {m.verdict === 'manual' ? ' by hand (/compact): not compared' : ''}.{' '}
                </span>
              ))}
            </p>
          ) : null}
          <div className="cp-table-wrap">
            <table className="data-table cp-table" aria-label="Policies compared">
              <thead>
                <SortableHead table={table} />
              </thead>
              <tbody>
                {ordered.map((row) => (
                  <tr key={row.id} className={row.original.baseline ? 'cp-baseline' : undefined}>
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className={(cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? 'num' : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="muted small cp-notes">
            <li>Summaries come from the offline summarizer; the summarizer column prices the call each harness would have made at the session model’s price (Claude Code and Codex send the conversation, read from the cache).</li>
            {derived ? <li>Lost-and-re-fetched and survival by kind are worked out from each audit’s kept and lost values (identifiers seen again in a later tool result).</li> : null}
            {notes.map((x, i) => (
              <li key={i}>
                <strong>{x.label}:</strong> {x.n}
              </li>
            ))}
          </ul>
        </>
      ) : !running ? (
        <p className="muted">Press Compare to replay every checked policy on this session. A long session takes a few seconds per policy.</p>
      ) : null}
    </div>
  );
}
