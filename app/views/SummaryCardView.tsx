// A summary as a card: the course schema as sections, other styles as text, its sources one click away.
import { useState } from 'react';
import { parseSummaryCard } from '../../src/analysis/summary-card';
import type { CompactionEvent, Item } from '../../src/model/types';

interface Props {
  item: Item;
  compaction: CompactionEvent | undefined;
  itemById: ReadonlyMap<string, Item>;
  tokens: ReadonlyMap<string, number>;
  onJump(id: string): void;
}

export function SummaryCardView({ item, compaction, itemById, tokens, onJump }: Props) {
  const [showSources, setShowSources] = useState(false);
  const card = parseSummaryCard(item.text);
  const sources = (compaction?.replacedIds ?? []).map((id) => itemById.get(id)).filter((x): x is Item => !!x);
  const sourceTokens = sources.reduce((n, s) => n + (tokens.get(s.id) ?? 0), 0);
  return (
    <div className="summary-card">
      {card.style === 'schema' ? (
        <dl className="summary-sections">
          {card.sections.map((s) => (
            <div key={s.name} className="summary-section">
              <dt>{s.name}</dt>
              <dd>
                {s.lines.length ? (
                  <ul>
                    {s.lines.map((l, i) => (
                      <li key={i}>{l}</li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">(empty)</span>
                )}
              </dd>
            </div>
          ))}
          {card.missing.length ? <p className="warn-text small">Missing sections: {card.missing.join(', ')}</p> : null}
        </dl>
      ) : (
        <div className="item-text">{card.text}</div>
      )}
      {sources.length ? (
        <div className="summary-sources">
          <button type="button" className="link" aria-expanded={showSources} onClick={() => setShowSources(!showSources)}>
            {showSources ? 'Hide' : 'Show'} the {sources.length} items it replaced ({sourceTokens.toLocaleString('en-US')} tokens)
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
                    {s.name ? ` · ${s.name}` : ''} · {(tokens.get(s.id) ?? 0).toLocaleString('en-US')} tok
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
