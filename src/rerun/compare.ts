// What the Re-run result shows at one call: the original context and the rerun's side by side (rows aligned by
// item id, so the head and tail line up and the recap sits across from what it replaced), and every fallback
// to the static marker with its reason.
import { isRecap, type RerunEvent, type RerunResult, type SummarizeFailure } from '../compaction';
import type { Item, ItemKind, Role } from '../model/types';

export interface SideItem {
  id: string;
  kind: ItemKind;
  role: Role;
  name: string | null;
  tokens: number;
  /** First line of the text, for a title. */
  preview: string;
  /** A summary or marker standing in for earlier turns. */
  recap: 'summary' | 'marker' | null;
  /** Made by the rerun (a recap), not in the session. */
  created: boolean;
  /** Same id as in the session but other text (masked, omitted in place). */
  rewritten: boolean;
}

export interface AlignedRow {
  left: number | null;
  right: number | null;
}

/**
 * Pairs two id lists in order: equal ids share a row; an id only one side has gets a row of its own. Both
 * sides follow the transcript's order, so one linear pass suffices; an id both have but out of step is
 * shown on its own row rather than reordering the other side.
 */
export function alignContexts(left: readonly string[], right: readonly string[]): AlignedRow[] {
  const inLeft = new Set(left);
  const inRight = new Set(right);
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const a = left[i];
    const b = right[j];
    if (a !== undefined && b !== undefined && a === b) {
      rows.push({ left: i++, right: j++ });
    } else if (a !== undefined && (b === undefined || !inRight.has(a))) {
      rows.push({ left: i++, right: null });
    } else if (b !== undefined && (a === undefined || !inLeft.has(b))) {
      rows.push({ left: null, right: j++ });
    } else {
      // Both ids exist on the other side further on: the left one goes first, as in the transcript.
      rows.push({ left: i++, right: null });
    }
  }
  return rows;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

export function sideItem(item: Item, tokens: number, original: Item | undefined): SideItem {
  const recap = isRecap(item) ? (item.kind === 'summary' ? 'summary' : 'marker') : null;
  return {
    id: item.id,
    kind: item.kind,
    role: item.role,
    name: item.name ?? null,
    tokens,
    preview: firstLine(item.text),
    recap,
    created: original === undefined,
    rewritten: original !== undefined && original.text !== item.text,
  };
}

/** The compaction of the rerun in effect at a call: the last one that ran at or before it. */
export function eventInEffect(result: RerunResult, callIndex: number): RerunEvent | null {
  let found: RerunEvent | null = null;
  for (const e of result.events) if (e.callIndex <= callIndex) found = e;
  return found;
}

export interface FallbackNote {
  failure: SummarizeFailure;
  reason: string;
  /** 1-based calls where a compaction fell back this way. */
  calls: number[];
  /** `Fell back to the marker: timeout — no response from … within 25 s …` */
  text: string;
}

/** Fallbacks of a run, one note per distinct failure and reason, in order of first occurrence. */
export function fallbackNotes(events: readonly RerunEvent[]): FallbackNote[] {
  const notes: FallbackNote[] = [];
  for (const e of events) {
    if (!e.fallback) continue;
    const same = notes.find((n) => n.failure === e.fallback!.failure && n.reason === e.fallback!.reason);
    if (same) same.calls.push(e.callIndex + 1);
    else notes.push({ failure: e.fallback.failure, reason: e.fallback.reason, calls: [e.callIndex + 1], text: `Fell back to the marker: ${e.fallback.failure} — ${e.fallback.reason}` });
  }
  return notes;
}

/** `7`, `7 and 9`, `7, 9 and 12`, `7, 9, 12 and 3 more`. */
export function listCalls(calls: readonly number[], max = 4): string {
  if (calls.length <= 1) return calls.join('');
  if (calls.length > max) return `${calls.slice(0, max - 1).join(', ')} and ${calls.length - max + 1} more`;
  return `${calls.slice(0, -1).join(', ')} and ${calls[calls.length - 1]}`;
}
