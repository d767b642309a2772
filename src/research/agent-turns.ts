// The agent's turns of a tagged trajectory: every assistant message is one turn (one step), whatever
// parts (thought, action, summary, omit command) the adapter split it into.
import type { Item } from '../model/types';

export interface AgentTurn {
  /** 1-based: the agent's step or turn number as the papers count them. */
  index: number;
  /** Position of the turn's first item in the item list. */
  start: number;
  items: Item[];
}

/**
 * Trajectory adapters name an agent message's parts `<turn id>.<part>` (`m3.think`, `m3.call`), so
 * consecutive assistant items with the same stem are one turn; anything else in between ends it.
 */
export function agentTurns(items: readonly Item[]): AgentTurn[] {
  const turns: AgentTurn[] = [];
  let current: AgentTurn | null = null;
  let stem: string | null = null;
  items.forEach((item, i) => {
    if (item.role !== 'assistant') {
      current = null;
      return;
    }
    const s = stemOf(item.id);
    if (!current || s !== stem) {
      current = { index: turns.length + 1, start: i, items: [] };
      turns.push(current);
      stem = s;
    }
    current.items.push(item);
  });
  return turns;
}

function stemOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}
