// Search every item of the session by text, tool name or id; a result steps to the first call that saw it.
import { useMemo, useState } from 'react';
import type { Item } from '../../src/model/types';

interface Props {
  items: readonly Item[];
  onPick(id: string): void;
  onClose(): void;
}

const LIMIT = 200;

export function SearchDialog({ items, onPick, onClose }: Props) {
  const [q, setQ] = useState('');
  const results = useMemo(() => {
    const needle = q.trim().toLowerCase();
    if (needle.length < 2) return [];
    const out: { item: Item; at: number }[] = [];
    for (const item of items) {
      const at = item.text.toLowerCase().indexOf(needle);
      if (at >= 0 || item.id.toLowerCase() === needle || item.name?.toLowerCase().includes(needle)) out.push({ item, at });
      if (out.length >= LIMIT) break;
    }
    return out;
  }, [q, items]);
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div role="dialog" aria-modal="true" aria-label="Search the session" className="dialog search-dialog" onClick={(e) => e.stopPropagation()}>
        <div role="search">
          <input
            type="search"
            aria-label="Search the session"
            placeholder="Text, tool name or item id…"
            value={q}
            autoFocus
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') onClose();
              if (e.key === 'Enter' && results[0]) onPick(results[0].item.id);
            }}
          />
        </div>
        <p className="muted small" aria-live="polite">
          {q.trim().length < 2 ? 'Type at least two characters.' : `${results.length}${results.length === LIMIT ? '+' : ''} match${results.length === 1 ? '' : 'es'}`}
        </p>
        <ul className="search-results">
          {results.map(({ item, at }) => (
            <li key={item.id}>
              <button type="button" onClick={() => onPick(item.id)}>
                <span className="muted small">
                  {item.id} · {item.role} {item.kind.replace('_', ' ')}
                  {item.name ? ` · ${item.name}` : ''}
                </span>
                <span className="search-snippet">{at >= 0 ? `${at > 40 ? '…' : ''}${item.text.slice(Math.max(0, at - 40), at + 80)}` : item.text.slice(0, 120)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
