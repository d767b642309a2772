// A summary as a card: the course schema as sections, other styles as text, its sources one click away.
import { useEffect, useRef, useState } from 'react';
import { parseSummaryCard } from '../../src/analysis/summary-card';
import { summaryOutline } from '../../src/analysis/summary-outline';
import type { CompactionEvent, Item } from '../../src/model/types';
import { count as formatCount } from '../format/count';

interface Props {
  item: Item;
  compaction: CompactionEvent | undefined;
  itemById: ReadonlyMap<string, Item>;
  tokens: ReadonlyMap<string, number>;
  onJump(id: string): void;
  /** A long summary is folded to its outline until expanded. */
  expanded: boolean;
  onToggle(): void;
}

/** Past this many characters a summary is folded: its sections listed, its start shown. */
export const LONG_SUMMARY_CHARS = 1500;
const FOLDED_LINES = 2;
const PREVIEW_CHARS = 400;

export function SummaryCardView({ item, compaction, itemById, tokens, onJump, expanded, onToggle }: Props) {
  const [showSources, setShowSources] = useState(false);
  const card = parseSummaryCard(item.text);
  const long = item.text.length > LONG_SUMMARY_CHARS;
  const folded = long && !expanded;
  const outline = card.style === 'text' && long ? summaryOutline(card.text) : null;
  const titled = outline?.filter((p) => p.heading) ?? [];
  // A section picked from the folded outline is scrolled to once the whole summary shows.
  const root = useRef<HTMLDivElement>(null);
  const [goToPart, setGoToPart] = useState<number | null>(null);
  useEffect(() => {
    if (goToPart === null || folded) return;
    root.current?.querySelector(`[data-part="${goToPart}"]`)?.scrollIntoView({ block: 'start' });
    setGoToPart(null);
  }, [goToPart, folded]);
  const sources = (compaction?.replacedIds ?? []).map((id) => itemById.get(id)).filter((x): x is Item => !!x);
  const sourceTokens = sources.reduce((n, s) => n + (tokens.get(s.id) ?? 0), 0);
  return (
    <div className="summary-card" ref={root}>
      {card.style === 'schema' ? (
        <dl className="summary-sections">
          {card.sections.map((s) => (
            <div key={s.name} className="summary-section">
              <dt>{s.name}</dt>
              <dd>
                {s.lines.length ? (
                  <ul>
                    {(folded ? s.lines.slice(0, FOLDED_LINES) : s.lines).map((l, i) => (
                      <li key={i}>{l}</li>
                    ))}
                    {folded && s.lines.length > FOLDED_LINES ? <li className="muted">{s.lines.length - FOLDED_LINES} more…</li> : null}
                  </ul>
                ) : (
                  <span className="muted">(empty)</span>
                )}
              </dd>
            </div>
          ))}
          {card.missing.length ? <p className="warn-text small">Missing sections: {card.missing.join(', ')}</p> : null}
        </dl>
      ) : folded ? (
        <>
          {titled.length ? (
            <nav className="summary-outline" aria-label="Sections of this summary">
              <span className="muted small">{titled.length} sections:</span>
              <ol>
                {outline!.map((p, i) =>
                  p.heading ? (
                    <li key={i}>
                      <button
                        type="button"
                        className="link"
                        onClick={() => {
                          setGoToPart(i);
                          onToggle();
                        }}
                      >
                        {p.heading}
                      </button>
                    </li>
                  ) : null,
                )}
              </ol>
            </nav>
          ) : null}
          <div className="item-text">{`${card.text.slice(0, PREVIEW_CHARS)}…`}</div>
        </>
      ) : outline ? (
        <div className="item-text">
          {outline.map((p, i) => (
            <div key={i} data-part={i}>
              {p.text}
            </div>
          ))}
        </div>
      ) : (
        <div className="item-text">{card.text}</div>
      )}
      {long ? (
        <button type="button" className="link summary-fold" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? 'Fold the summary' : `Show the whole summary (${formatCount(item.text.length)} characters)`}
        </button>
      ) : null}
      {sources.length ? (
        <div className="summary-sources">
          <button type="button" className="link" aria-expanded={showSources} onClick={() => setShowSources(!showSources)}>
            {showSources ? 'Hide' : 'Show'} the {sources.length} items it replaced ({formatCount(sourceTokens)} tokens)
          </button>
          {showSources ? (
            <ol className="source-list">
              {sources.map((s) => (
                <li key={s.id}>
                  <button type="button" className="link" onClick={() => onJump(s.id)}>
                    {s.id}
                  </button>{' '}
                  <span className="muted small">
                    {s.role} {s.kind.replace('_', ' ')}
                    {s.name ? ` · ${s.name}` : ''} · {formatCount(tokens.get(s.id) ?? 0)} tok
                  </span>
                  <div className="source-text">{s.text.length > 400 ? `${s.text.slice(0, 400)}…` : s.text}</div>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
