// The exact context the model saw at the current call, as head / summary / middle / tail bands.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { AnalysisView, CallEntryView, CallView } from '../../src/analysis/analysis-view';
import type { RegionName } from '../../src/analysis/context-types';
import type { Item } from '../../src/model/types';
import { ItemRow } from '../components/ItemRow';
import { NoteBadge } from '../components/NoteBadge';
import { useApp } from '../store';
import { GhostGroup, groupGhosts } from './GhostGroup';
import { SummaryCardView } from './SummaryCardView';
import { count } from '../format/count';

const BANDS: { region: RegionName; name: string; hint: string }[] = [
  { region: 'head', name: 'Head', hint: 'kept verbatim at the start: system prompt and the first turn' },
  { region: 'summary', name: 'Summary', hint: 'what stands in for the evicted turns' },
  { region: 'middle', name: 'Middle', hint: 'what compaction took out, and anything between stacked summaries' },
  { region: 'tail', name: 'Tail', hint: 'recent turns kept verbatim' },
];

const VIRTUALIZE_OVER = 80;

/** The item the user clicked here: already in view, so selecting it does not scroll the pane. */
let clickedSelection: string | null = null;

interface Props {
  view: AnalysisView;
  callIndex: number;
  itemById: ReadonlyMap<string, Item>;
  onJump(id: string): void;
}

function EntryRow({ entry, index, view, itemById, onJump }: { entry: CallEntryView; index: number; view: AnalysisView; itemById: ReadonlyMap<string, Item>; onJump(id: string): void }) {
  const expanded = useApp((s) => s.expanded.has(entry.id));
  const toggle = useApp((s) => s.toggleExpanded);
  const selected = useApp((s) => s.selectedItemId === entry.id);
  const select = useApp((s) => s.selectItem);
  const original = itemById.get(entry.id);
  const shown = entry.variant ? (view.variants.get(entry.id) ?? original) : original;
  if (!shown) return null;
  const compaction = shown.kind === 'summary' ? view.compactions.find((c) => c.summaryId === shown.id) : undefined;
  const badges = (
    <>
      {entry.isNew ? <span className="badge new">new</span> : null}
      {entry.variant ? <span className="badge omit">masked in this call</span> : null}
      <NoteBadge itemId={entry.id} />
    </>
  );
  return (
    <div className={selected ? 'row selected' : 'row'} data-item-id={entry.id}>
      <ItemRow
        item={shown}
        index={index}
        expanded={expanded}
        onToggle={() => toggle(entry.id)}
        onJump={onJump}
        tokens={entry.tokens}
        badges={badges}
        previewChars={280}
        selected={selected}
        onSelect={(id) => {
          clickedSelection = id;
          select(id);
        }}
        body={shown.kind === 'summary' ? <SummaryCardView item={shown} compaction={compaction} itemById={itemById} tokens={view.tokens} onJump={onJump} expanded={expanded} onToggle={() => toggle(entry.id)} /> : undefined}
      />
    </div>
  );
}

function BandList({ rows }: { rows: ReactNode[] }) {
  const parent = useRef<HTMLDivElement>(null);
  const big = rows.length > VIRTUALIZE_OVER;
  const v = useVirtualizer({ count: big ? rows.length : 0, getScrollElement: () => parent.current, estimateSize: () => 90, overscan: 6 });
  if (!big) return <div className="ctx-band-rows">{rows}</div>;
  return (
    <div ref={parent} className="ctx-band-rows ctx-band-scroll">
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((r) => (
          <div key={r.key} ref={v.measureElement} data-index={r.index} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${r.start}px)` }}>
            {rows[r.index]}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * What the prompt held beside the recorded items: tool schemas, or the unrecorded prefix (the engine's one figure,
 * which the cache panel states too) and what neither it nor the items at their fitted size account for.
 */
function promptBeyondItems(call: CallView): string {
  if (!call.prefixUnrecorded) return call.bands.tools ? ` (${count(call.bands.tools)} of them tool schemas)` : '';
  const prefix = call.unrecordedPrefixTokens;
  // No reported usage to fit against: nothing to state (a reasoning trace or a usage-less log has no figure for it).
  if (prefix === null) return '';
  if (prefix === 0 && call.unaccountedTokens === 0) return '';
  const un = call.unaccountedTokens;
  const rest =
    un > 0
      ? `; ${count(un)} more are in neither it nor the recorded items at their fitted size`
      : un < 0
        ? `; the recorded items at their fitted size come to ${count(-un)} more than the rest of the prompt`
        : '';
  return ` (${count(prefix)} of them the unrecorded system prompt and tools, estimated${rest})`;
}

export function ContextView({ view, callIndex, itemById, onJump }: Props) {
  const call = view.calls[callIndex];
  const selected = useApp((s) => s.selectedItemId);
  const root = useRef<HTMLDivElement>(null);
  const ghosts = view.ghosts[callIndex] ?? [];
  const groups = useMemo(() => groupGhosts(ghosts), [ghosts]);
  const compactionIndex = (id: string | null) => (id === null ? null : (view.compactions.find((c) => c.id === id)?.index ?? null));

  useEffect(() => {
    if (!selected || selected === clickedSelection) return;
    clickedSelection = null;
    const el = root.current?.querySelector(`[data-item-id="${CSS.escape(selected)}"]`);
    el?.scrollIntoView({ block: 'center' });
  }, [selected, callIndex]);

  if (!call) return <p className="empty">This session has no model calls to show a context for.</p>;
  const byRegion = (r: RegionName) => call.entries.map((e, i) => ({ e, i })).filter(({ e }) => e.region === r);
  const ghostTokens = ghosts.reduce((n, g) => n + g.tokens, 0);
  const applied = call.compactionId ? view.compactions.find((c) => c.id === call.compactionId) : undefined;
  const tk = view.facts.tokenizer;
  return (
    <div className="context" ref={root}>
      <p className="context-summary">
        The model was sent <strong>{count(call.entries.length)} item{call.entries.length === 1 ? '' : 's'}</strong>, <strong>{count(call.contextTokens)} tokens</strong>
        {promptBeyondItems(call)}.
        {tk.estimated && call.scale !== 1
          ? ` Items below are counted with ${tk.encoding}; calibrated on the reported usage, the provider counts about ${call.scale.toFixed(2)}× as many, plus framing — each item keeps that size in the budget bands at every call${call.segment.why ? `. The ratio is fitted afresh from call ${call.segment.since}, where ${call.segment.why}` : ''}.`
          : ''}
        {ghosts.length ? ` ${count(ghosts.length)} earlier items (${count(ghostTokens)} tokens) were no longer in it.` : ''}
        {applied ? ` Compaction #${applied.index + 1} (${applied.kind}${applied.trigger ? `, ${applied.trigger}` : ''}) happened just before this call.` : ''}
      </p>
      {BANDS.map((b) => {
        const entries = byRegion(b.region);
        const tokens = entries.reduce((n, { e }) => n + e.tokens, 0);
        const rows: ReactNode[] = entries.map(({ e, i }) => <EntryRow key={e.id} entry={e} index={i} view={view} itemById={itemById} onJump={onJump} />);
        if (b.region === 'middle') {
          for (const g of groups) rows.push(<GhostGroup key={`ghost-${g[0]!.id}`} ghosts={g} compactionIndex={compactionIndex(g[0]!.compactionId)} itemById={itemById} onJump={onJump} />);
        }
        const empty = rows.length === 0;
        return (
          <section key={b.region} className={`ctx-band ctx-band-${b.region}${empty ? ' ctx-band-empty' : ''}`} aria-label={b.name}>
            <header className="ctx-band-title">
              <h3>{b.name}</h3>
              <span className="ctx-band-count">
                {entries.length} item{entries.length === 1 ? '' : 's'} · {count(tokens)} tok
                {b.region === 'middle' && ghosts.length ? ` · ${ghosts.length} evicted (${count(ghostTokens)} tok)` : ''}
              </span>
              <span className="ctx-band-hint muted small">{b.hint}</span>
            </header>
            {empty ? <p className="muted small ctx-band-none">{b.region === 'summary' ? 'No summary or marker in this context.' : b.region === 'middle' ? 'Nothing was evicted before this call.' : 'Empty.'}</p> : <BandList rows={rows} />}
          </section>
        );
      })}
    </div>
  );
}
