// Diff between the contexts of two calls: what was taken out, what came in, what changed in place.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { diffContexts, type DiffEntry } from '../../../src/analysis/context-diff';
import { itemKindPhrase } from '../../../src/analysis/eviction-runs';
import type { Item } from '../../../src/model/types';
import { useApp } from '../../store';
import type { PanelProps } from './panel-props';
import './diff.css';
import { count as formatCount } from '../../format/count';

type Line =
  | { type: 'head'; key: string; kind: 'removed' | 'added' | 'changed'; text: string }
  | { type: 'entry'; key: string; kind: 'removed' | 'added' | 'changed'; entry: DiffEntry; tokens: string };

const ROW_H = 30;
const fmt = (n: number) => formatCount(n);
const signed = (n: number) => (n < 0 ? `\u2212${fmt(-n)}` : `+${fmt(n)}`);

function callOption(i: number, compactionId: string | null): string {
  return compactionId ? `Call ${i + 1} \u00b7 after compaction` : `Call ${i + 1}`;
}

function preview(item: Item | undefined): string {
  return item ? item.text.replace(/\s+/g, ' ').trim().slice(0, 140) : '';
}

export default function DiffPanel({ view, callIndex, itemById, goTo }: PanelProps) {
  const n = view.calls.length;
  const [pair, setPair] = useState(() => ({ from: Math.max(0, callIndex - 1), to: callIndex }));
  // Stepping through calls moves the pair along: the previous call against the current one.
  useEffect(() => setPair({ from: Math.max(0, callIndex - 1), to: callIndex }), [callIndex]);
  const from = Math.min(pair.from, n - 1);
  const to = Math.min(pair.to, n - 1);
  const fromId = useId();
  const toId = useId();

  const diff = useMemo(() => (n > 0 ? diffContexts(view.calls[from]!, view.calls[to]!) : null), [view.calls, from, to, n]);
  const lines = useMemo<Line[]>(() => {
    if (!diff) return [];
    const out: Line[] = [];
    const section = (kind: 'removed' | 'added' | 'changed', title: string, list: Line[]) => {
      if (list.length === 0) return;
      out.push({ type: 'head', key: `h-${kind}`, kind, text: title }, ...list);
    };
    section(
      'removed',
      `Removed: ${fmt(diff.removed.length)} ${diff.removed.length === 1 ? 'item' : 'items'}, \u2212${fmt(diff.tokens.removed)} tokens`,
      diff.removed.map((e, i) => ({ type: 'entry', key: `r${i}`, kind: 'removed', entry: e, tokens: `\u2212${fmt(e.tokens)}` })),
    );
    section(
      'added',
      `Added: ${fmt(diff.added.length)} ${diff.added.length === 1 ? 'item' : 'items'}, +${fmt(diff.tokens.added)} tokens`,
      diff.added.map((e, i) => ({ type: 'entry', key: `a${i}`, kind: 'added', entry: e, tokens: `+${fmt(e.tokens)}` })),
    );
    section(
      'changed',
      `Changed in place (masked or cleared): ${fmt(diff.changed.length)}, ${signed(diff.tokens.changed)} tokens`,
      diff.changed.map((c, i) => ({ type: 'entry', key: `c${i}`, kind: 'changed', entry: c.to, tokens: signed(c.tokenDelta) })),
    );
    return out;
  }, [diff]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: lines.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 10 });
  // The selected item (clicked in the context, found by search, picked in another panel) is marked and brought into view.
  const selected = useApp((s) => s.selectedItemId);
  const selectedLine = selected === null ? -1 : lines.findIndex((l) => l.type === 'entry' && l.entry.id === selected);
  useEffect(() => {
    if (selectedLine >= 0) virtual.scrollToIndex(selectedLine, { align: 'auto' });
  }, [selectedLine, virtual]);

  if (n === 0 || !diff) return <p className="empty">No model calls in this session, so there are no contexts to compare.</p>;

  const options = view.calls.map((c) => (
    <option key={c.index} value={c.index}>
      {callOption(c.index, c.compactionId)}
    </option>
  ));
  const net = diff.tokens.to - diff.tokens.from;
  return (
    <div className="ctx-diff">
      <div className="diff-pick">
        <span className="diff-side">
          <label htmlFor={fromId}>From call</label>
          <select id={fromId} value={from} onChange={(e) => setPair((p) => ({ ...p, from: Number(e.target.value) }))}>
            {options}
          </select>
        </span>
        <span aria-hidden="true">→</span>
        <span className="diff-side">
          <label htmlFor={toId}>To call</label>
          <select id={toId} value={to} onChange={(e) => setPair((p) => ({ ...p, to: Number(e.target.value) }))}>
            {options}
          </select>
        </span>
        <button type="button" className="link" onClick={() => setPair({ from: to, to: from })} aria-label="Swap the two calls">
          swap
        </button>
      </div>
      <p className="diff-summary" aria-live="polite">
        <span className="diff-add">+{fmt(diff.added.length)} {diff.added.length === 1 ? 'item' : 'items'}, +{fmt(diff.tokens.added)} tokens</span>
        {'; '}
        <span className="diff-rem">
          {'\u2212'}
          {fmt(diff.removed.length)} {diff.removed.length === 1 ? 'item' : 'items'}, {'\u2212'}
          {fmt(diff.tokens.removed)} tokens
        </span>
        {diff.changed.length > 0 ? (
          <>
            {'; '}
            <span className="diff-chg">
              {fmt(diff.changed.length)} changed, {signed(diff.tokens.changed)} tokens
            </span>
          </>
        ) : null}
      </p>
      <p className="diff-totals muted small">
        Context items: {fmt(diff.tokens.from)} → {fmt(diff.tokens.to)} tokens ({signed(net)}); {fmt(diff.kept.length)} items ({fmt(diff.tokens.kept)} tokens) kept as they were.
        {view.calls[to]!.compactionId && to > from ? ' A compaction ran before the "to" call.' : ''}
      </p>
      {from === to ? <p className="muted">Both sides are the same call: nothing to compare.</p> : null}
      {from !== to && lines.length === 0 ? <p className="muted">The two contexts hold the same items.</p> : null}
      {lines.length > 0 ? (
        <div className="diff-scroll" ref={scroller}>
          <ul className="diff-list" aria-label={`Changes from call ${from + 1} to call ${to + 1}`} style={{ height: virtual.getTotalSize() }}>
            {virtual.getVirtualItems().map((vr) => {
              const line = lines[vr.index]!;
              const style = { transform: `translateY(${vr.start}px)`, height: ROW_H };
              if (line.type === 'head') {
                return (
                  <li key={line.key} className={`diff-head diff-head-${line.kind}`} style={style} aria-setsize={lines.length} aria-posinset={vr.index + 1}>
                    {line.text}
                  </li>
                );
              }
              const item = itemById.get(line.entry.id);
              const what = item ? `${itemKindPhrase(item)}${item.name ? ` ${item.name}` : ''}` : '';
              return (
                <li key={line.key} className={`diff-row diff-${line.kind}${vr.index === selectedLine ? ' selected' : ''}`} style={style} aria-setsize={lines.length} aria-posinset={vr.index + 1}>
                  <button type="button" aria-current={vr.index === selectedLine ? 'true' : undefined} onClick={() => goTo({ item: line.entry.id })} aria-label={`${line.kind} ${line.entry.id} ${what}, ${line.tokens} tokens`} title={preview(item)}>
                    <span className="diff-sign" aria-hidden="true">
                      {line.kind === 'removed' ? '\u2212' : line.kind === 'added' ? '+' : '~'}
                    </span>
                    <code className="diff-id">{line.entry.id}</code>
                    <span className="diff-what">{what}</span>
                    <span className="diff-preview">{preview(item)}</span>
                    <span className="diff-tokens">{line.tokens}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
