// What each call was sent, stored as spans: an item sits in the context from one call up to another, in a fixed
// order. A per-call copy of the context grows with calls × items (70 million entries for a 20k-turn
// trajectory); spans grow with items, and one call's list is rebuilt when something reads it.
import type { Item } from '../model/types';
import type { ContextEntry } from './context-types';
import { regionAt, regionFlags, regionFrame } from './regions';

export interface Span {
  /** The item as the model saw it (a masked variant has its own span after the original's). */
  item: Item;
  /** First call that was sent it. */
  from: number;
  /** First call that no longer was (exclusive end; the call count when it stayed to the end). */
  to: number;
  /** Position in every context it is part of: contexts list their spans by ascending order. */
  order: number;
}

/** Materialized contexts kept at once: enough for a pass that reads each call and the one before it. */
const KEEP = 4;

export class ContextTimeline {
  readonly spans: readonly Span[];
  readonly calls: number;
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly flags: Uint8Array;
  private readonly recent = new Map<number, ContextEntry[]>();

  constructor(spans: readonly Span[], calls: number) {
    this.spans = [...spans].sort((a, b) => a.order - b.order);
    this.calls = calls;
    this.from = Int32Array.from(this.spans, (s) => s.from);
    this.to = Int32Array.from(this.spans, (s) => s.to);
    this.flags = Uint8Array.from(this.spans, (s) => regionFlags(s.item));
  }

  /** The spans call `ci` was sent, in order. */
  spansAt(ci: number): Span[] {
    return Array.from(this.activeAt(ci), (i) => this.spans[i]!);
  }

  /** Indices (into `spans`) of the spans call `ci` was sent, in order. Read calls in order: each costs its changes. */
  activeSpans(ci: number): Int32Array {
    return this.activeAt(ci);
  }

  /** Call `ci`'s context with regions; the last few are kept, so reading a call twice costs once. */
  entriesAt(ci: number): ContextEntry[] {
    let entries = this.recent.get(ci);
    if (entries) return entries;
    const active = this.activeAt(ci);
    const { spans, flags } = this;
    const n = active.length;
    const frame = regionFrame(n, (k) => flags[active[k]!]!);
    // One entry object per span and region: consecutive calls share them, as they share most spans.
    entries = new Array<ContextEntry>(n);
    for (let k = 0; k < n; k++) {
      const i = active[k]!;
      const region = regionAt(k, flags[i]!, frame);
      let e = this.entryOf[i];
      if (!e || e.region !== region) this.entryOf[i] = e = { item: spans[i]!.item, region };
      entries[k] = e;
    }
    this.recent.set(ci, entries);
    if (this.recent.size > KEEP) this.recent.delete(this.recent.keys().next().value!);
    return entries;
  }

  private readonly entryOf: (ContextEntry | undefined)[] = [];
  /** The last call whose active spans were worked out, and those spans (indices in order). */
  private last: { ci: number; active: Int32Array } | null = null;
  /** Spans that start at each call, in order; built on first need. */
  private startsAt: Int32Array[] | null = null;

  /**
   * Indices of the spans call `ci` was sent, in order. Reading the calls one after another (as every pass over
   * a session does) updates the previous call's list with what ended and started, instead of scanning all spans.
   */
  private activeAt(ci: number): Int32Array {
    const { from, to } = this;
    const prev = this.last;
    if (prev && prev.ci === ci) return prev.active;
    let out: Int32Array;
    if (prev && prev.ci === ci - 1) {
      const starts = (this.startsAt ??= this.buildStarts())[ci] ?? new Int32Array(0);
      out = new Int32Array(prev.active.length + starts.length);
      let n = 0;
      let a = 0;
      let b = 0;
      while (a < prev.active.length || b < starts.length) {
        const x = a < prev.active.length ? prev.active[a]! : Infinity;
        const y = b < starts.length ? starts[b]! : Infinity;
        if (x <= y) {
          a++;
          if (to[x]! > ci) out[n++] = x;
        } else {
          b++;
          out[n++] = y;
        }
      }
      out = out.subarray(0, n);
    } else {
      const list: number[] = [];
      for (let i = 0; i < from.length; i++) if (from[i]! <= ci && ci < to[i]!) list.push(i);
      out = Int32Array.from(list);
    }
    this.last = { ci, active: out };
    return out;
  }

  private buildStarts(): Int32Array[] {
    const lists: number[][] = Array.from({ length: this.calls }, () => []);
    for (let i = 0; i < this.from.length; i++) {
      const f = this.from[i]!;
      if (f < this.calls && this.to[i]! > f) lists[f]!.push(i);
    }
    return lists.map((l) => Int32Array.from(l));
  }
}

/** Each request of a log parses its own copy of an item: the same id, text and omission is the same span. */
function sameAsSeen(a: Item, b: Item): boolean {
  return a === b || (a.text === b.text && a.omission?.target === b.omission?.target);
}

/**
 * Spans of contexts that are stored per call (a request log): an item's span runs while consecutive calls
 * send the same item object. Orders are left at 0: request-log contexts are read from their calls.
 */
export function spansOfCalls(calls: readonly { entries: readonly ContextEntry[] }[]): Span[] {
  const open = new Map<string, Span>();
  const spans: Span[] = [];
  calls.forEach((call, ci) => {
    for (const { item } of call.entries) {
      const s = open.get(item.id);
      if (s && s.to === ci && sameAsSeen(s.item, item)) s.to = ci + 1;
      else {
        const span = { item, from: ci, to: ci + 1, order: 0 };
        open.set(item.id, span);
        spans.push(span);
      }
    }
  });
  return spans;
}
