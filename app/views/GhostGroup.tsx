// Items a call no longer saw, collapsed into one row per cause, with what they cost; expand to read them.
import { useState } from 'react';
import type { GhostView } from '../../src/analysis/analysis-view';
import type { Item } from '../../src/model/types';
import { count } from '../format/count';

const VERB: Record<GhostView['label'], string> = {
  summarized: 'summarized',
  omitted: 'omitted',
  masked: 'masked',
  dropped: 'dropped',
  cleared: 'cleared by /clear',
  'rolled-back': 'taken back by the user (rollback)',
};

interface Props {
  ghosts: GhostView[];
  compactionIndex: number | null;
  itemById: ReadonlyMap<string, Item>;
  onJump(id: string): void;
}

export function GhostGroup({ ghosts, compactionIndex, itemById, onJump }: Props) {
  const [open, setOpen] = useState(false);
  const [openItem, setOpenItem] = useState<string | null>(null);
  const label = ghosts[0]!.label;
  const tokens = ghosts.reduce((n, g) => n + g.tokens, 0);
  const what = `${ghosts.length} item${ghosts.length > 1 ? 's' : ''} ${VERB[label]}${compactionIndex !== null ? ` by compaction #${compactionIndex + 1}` : ''}`;
  const summary = `${what}, ${count(tokens)} tokens`;
  return (
    <div className={`ghost ghost-${label}`}>
      <button type="button" className="ghost-head" aria-expanded={open} aria-label={`Ghost: ${summary}`} onClick={() => setOpen(!open)}>
        <span className="ghost-icon" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span>{what}</span>
        <span className="ghost-tokens">{count(tokens)} tok</span>
      </button>
      {open ? (
        <ul className="ghost-items">
          {ghosts.map((g) => {
            const item = itemById.get(g.id);
            return (
              <li key={g.id}>
                <button type="button" className="ghost-item" aria-expanded={openItem === g.id} onClick={() => setOpenItem(openItem === g.id ? null : g.id)}>
                  <span className="muted">{item ? `${item.role} ${item.kind.replace('_', ' ')}${item.name ? ` · ${item.name}` : ''}` : g.id}</span>
                  <span className="ghost-preview">{item ? item.text.slice(0, 120) || '(empty)' : 'original not in the file'}</span>
                  <span className="ghost-tokens">{count(g.tokens)} tok</span>
                </button>
                {openItem === g.id && item ? (
                  <div className="ghost-original">
                    <div className="item-text">{item.text || '(empty)'}</div>
                    <button type="button" className="link" onClick={() => onJump(g.id)}>
                      Show {g.id} in the transcript
                    </button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** Groups consecutive ghosts that share a label and compaction. */
export function groupGhosts(ghosts: GhostView[]): GhostView[][] {
  const groups: GhostView[][] = [];
  for (const g of ghosts) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.label === g.label && last[0]!.compactionId === g.compactionId) last.push(g);
    else groups.push([g]);
  }
  return groups;
}
