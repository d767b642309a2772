// Lints grouped by rule, each with why the rule matters; every lint is a button that jumps to its item.
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { groupLints, lintTargets, type LintGroup } from '../../../src/lints/lint-groups';
import type { Lint, LintRule } from '../../../src/lints/lint-types';
import type { PanelProps } from './panel-props';
import './lints.css';
import { PendingPart } from '../../components/PendingPart';

type Row = { type: 'group'; group: LintGroup; open: boolean } | { type: 'lint'; lint: Lint; call: number | null; rule: LintRule };

export default function LintsPanel({ view, callIndex, goTo }: PanelProps) {
  const groups = useMemo(() => groupLints(view.lints), [view.lints]);
  const targets = useMemo(() => {
    const calls = lintTargets(view.lints, view.calls, view.spans);
    return new Map(view.lints.map((l, i) => [l, calls[i]!]));
  }, [view.lints, view.calls]);
  const [closed, setClosed] = useState<ReadonlySet<LintRule>>(new Set());
  // One flat list of group headers and lints, so a session with thousands of lints stays one virtual list.
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const group of groups) {
      const open = !closed.has(group.rule);
      out.push({ type: 'group', group, open });
      if (open) for (const lint of group.lints) out.push({ type: 'lint', lint, call: targets.get(lint) ?? null, rule: group.rule });
    }
    return out;
  }, [groups, closed, targets]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]!.type === 'group' ? 72 : 48),
    overscan: 8,
    getItemKey: (i) => {
      const r = rows[i]!;
      return r.type === 'group' ? `g:${r.group.rule}` : `l:${r.rule}:${r.lint.itemId}`;
    },
  });

  if (view.pending.includes('lints')) return <PendingPart view={view} part="lints" />;
  if (view.lints.length === 0) {
    return <p className="empty">No lints: every context passes the structural checks (recap role, tool pairs, causal order, summary schema, cache-stable recap).</p>;
  }
  const toggle = (rule: LintRule) =>
    setClosed((prev) => {
      const next = new Set(prev);
      if (next.has(rule)) next.delete(rule);
      else next.add(rule);
      return next;
    });
  const atCall = view.lints.filter((l) => targets.get(l) === callIndex).length;

  return (
    <div className="lints-panel">
      <p className="lints-overview">
        <strong>{view.lints.length}</strong> lint{view.lints.length === 1 ? '' : 's'} under {groups.length} rule{groups.length === 1 ? '' : 's'}
        {atCall > 0 ? <span className="muted"> · {atCall} at this call</span> : null}
      </p>
      <div className="lints-scroll" ref={scrollRef}>
        <div className="lints-list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((vi) => {
            const row = rows[vi.index]!;
            return (
              <div key={vi.key} data-index={vi.index} ref={virtualizer.measureElement} className="lint-slot" style={{ transform: `translateY(${vi.start}px)` }}>
                {row.type === 'group' ? (
                  <div className={`lint-group rule-${row.group.rule}`}>
                    <h3>
                      <button type="button" className="lint-group-toggle" aria-expanded={row.open} onClick={() => toggle(row.group.rule)}>
                        <span aria-hidden="true" className="chev">
                          {row.open ? '▾' : '▸'}
                        </span>
                        {row.group.title}
                        <span className="lint-count">{row.group.lints.length}</span>
                      </button>
                    </h3>
                    <p className="lint-why">{row.group.why}</p>
                  </div>
                ) : (
                  <button
                    type="button"
                    className={`lint${row.call === callIndex ? ' at-call' : ''}`}
                    onClick={() => goTo({ item: row.lint.itemId, ...(row.call !== null ? { call: row.call } : {}) })}
                  >
                    <span className="lint-message">{row.lint.message}</span>
                    <span className="lint-where">
                      <code>{row.lint.itemId}</code>
                      {row.call !== null ? <span> · call {row.call + 1}</span> : null}
                    </span>
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
