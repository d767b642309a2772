// The URL owns the spot: `turn` (1-based call) and `item`, beside any `src` the page was opened with.
import { useEffect } from 'react';
import { useApp } from '../store';

export interface UrlSpot {
  turn: number | null;
  item: string | null;
}

export function readUrlSpot(search = location.search): UrlSpot {
  const p = new URLSearchParams(search);
  const turn = Number(p.get('turn'));
  return { turn: Number.isInteger(turn) && turn > 0 ? turn : null, item: p.get('item') };
}

export function spotSearch(search: string, spot: UrlSpot): string {
  const p = new URLSearchParams(search);
  if (spot.turn === null) p.delete('turn');
  else p.set('turn', String(spot.turn));
  if (spot.item === null) p.delete('item');
  else p.set('item', spot.item);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Mirrors the current call and item into the address bar without adding history entries. */
export function useUrlSync(active: boolean): void {
  const callIndex = useApp((s) => s.callIndex);
  const item = useApp((s) => s.selectedItemId);
  useEffect(() => {
    if (!active) return;
    // Written once stepping pauses: replaceState costs a few milliseconds, held `j` steps every frame.
    const t = setTimeout(() => {
      const next = spotSearch(location.search, { turn: callIndex + 1, item });
      if (next !== location.search) history.replaceState(history.state, '', `${location.pathname}${next}${location.hash}`);
    }, 120);
    return () => clearTimeout(t);
  }, [active, callIndex, item]);
}
