// What changed between the contexts of two calls: items added, removed, kept or changed, with tokens.
import type { CallEntryView, CallView } from './analysis-view';
import type { RegionName } from './context-types';
import { thousands as fmt } from '../model/thousands';

export interface DiffEntry {
  id: string;
  tokens: number;
  region: RegionName;
  /** The call saw a masked or cleared version of the item. */
  variant: boolean;
  /** 0-based position in the call's context it comes from (the "to" call for added and kept items). */
  position: number;
}

/** An item both calls hold whose content differs: masked in one and not the other, or cleared to another size. */
export interface ChangedEntry {
  id: string;
  from: DiffEntry;
  to: DiffEntry;
  /** to.tokens − from.tokens */
  tokenDelta: number;
}

export interface ContextDiff {
  from: number;
  to: number;
  added: DiffEntry[];
  removed: DiffEntry[];
  kept: DiffEntry[];
  changed: ChangedEntry[];
  tokens: {
    /** Sum of the item tokens of each context (tool schemas are not items and are left out). */
    from: number;
    to: number;
    added: number;
    removed: number;
    /** Net change of the changed items. */
    changed: number;
    kept: number;
  };
}

const entry = (e: CallEntryView, position: number): DiffEntry => ({ id: e.id, tokens: e.tokens, region: e.region, variant: e.variant, position });

/**
 * Pairs entries by item id. An id sent twice in one call pairs occurrence by occurrence, so a
 * duplicated item that loses its copy shows as one removal.
 */
export function diffContexts(from: CallView, to: CallView): ContextDiff {
  const pending = new Map<string, DiffEntry[]>();
  from.entries.forEach((e, i) => {
    const list = pending.get(e.id);
    if (list) list.push(entry(e, i));
    else pending.set(e.id, [entry(e, i)]);
  });
  const added: DiffEntry[] = [];
  const kept: DiffEntry[] = [];
  const changed: ChangedEntry[] = [];
  to.entries.forEach((e, i) => {
    const now = entry(e, i);
    const before = pending.get(e.id)?.shift();
    if (!before) added.push(now);
    else if (before.variant !== now.variant || before.tokens !== now.tokens) changed.push({ id: e.id, from: before, to: now, tokenDelta: now.tokens - before.tokens });
    else kept.push(now);
  });
  const removed = [...pending.values()].flat().sort((a, b) => a.position - b.position);
  const sum = (list: readonly { tokens: number }[]) => list.reduce((n, e) => n + e.tokens, 0);
  return {
    from: from.index,
    to: to.index,
    added,
    removed,
    kept,
    changed,
    tokens: {
      from: sum(from.entries),
      to: sum(to.entries),
      added: sum(added),
      removed: sum(removed),
      changed: changed.reduce((n, c) => n + c.tokenDelta, 0),
      kept: sum(kept),
    },
  };
}

const items = (n: number) => `${fmt(n)} ${n === 1 ? 'item' : 'items'}`;
const signed = (n: number) => (n < 0 ? `\u2212${fmt(-n)}` : `+${fmt(n)}`);

/** "+3 items, +1,240 tokens; −7 items, −4,100 tokens" and the changed items when there are any. */
export function diffSummary(d: ContextDiff): string {
  const parts = [`+${items(d.added.length)}, +${fmt(d.tokens.added)} tokens`, `\u2212${items(d.removed.length)}, \u2212${fmt(d.tokens.removed)} tokens`];
  if (d.changed.length > 0) parts.push(`${items(d.changed.length)} changed, ${signed(d.tokens.changed)} tokens`);
  return parts.join('; ');
}
