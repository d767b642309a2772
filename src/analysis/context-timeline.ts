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
    return this.byCall((i) => this.from[i]!);
  }

  /** Spans that were sent for the last time to the call before each call, in order; built on first need. */
  private endsAt: Int32Array[] | null = null;

  private buildEnds(): Int32Array[] {
    return this.byCall((i) => this.to[i]!);
  }

  private byCall(callOf: (i: number) => number): Int32Array[] {
    const counts = new Int32Array(this.calls + 1);
    const n = this.from.length;
    const live = (i: number) => this.to[i]! > this.from[i]!;
    for (let i = 0; i < n; i++) if (live(i) && callOf(i) < this.calls) counts[callOf(i)]!++;
    const lists = Array.from({ length: this.calls }, (_, ci) => new Int32Array(counts[ci]!));
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const ci = callOf(i);
      if (live(i) && ci < this.calls) lists[ci]![counts[ci]!++] = i;
    }
    return lists;
  }

  /** The spans that start at call `ci` and those whose last call was `ci - 1`, each in order. */
  changesAt(ci: number): { starts: Int32Array; ends: Int32Array } {
    const none = new Int32Array(0);
    return { starts: (this.startsAt ??= this.buildStarts())[ci] ?? none, ends: (this.endsAt ??= this.buildEnds())[ci] ?? none };
  }

  /** The call range of span `i`: [from, to). */
  rangeOf(i: number): { from: number; to: number } {
    return { from: this.from[i]!, to: this.to[i]! };
  }

  /** Whether span `i` was sent to call `ci`. */
  activeIn(i: number, ci: number): boolean {
    return this.from[i]! <= ci && ci < this.to[i]!;
  }
}

/**
 * Walks a timeline's contexts call after call, keeping one list of span indices that each step edits where the
 * context changed: appending to a context costs the appended spans, never the whole context again. What the
 * previous call shared with this one (`same`) comes from the changes, so a pass that reads only what is new
 * reads each span once on a session without compactions.
 */
export class ContextCursor {
  /** Index of the call the cursor is on (-1 before the first `next`). */
  ci = -1;
  /** Spans in this call's context. */
  n = 0;
  /** Leading positions this call's context shares with the previous call's. */
  same = 0;
  /** The previous call's context length. */
  prevN = 0;
  private buf = new Int32Array(16);
  /** The previous call's span indices from `same` on (what the step overwrote). */
  private tail = new Int32Array(16);

  constructor(readonly timeline: ContextTimeline) {}

  /** Span index at position `k` of this call's context (k < n). */
  keyAt(k: number): number {
    return this.buf[k]!;
  }

  /** Span index at position `k` of the previous call's context (k < prevN). */
  prevKeyAt(k: number): number {
    return k < this.same ? this.buf[k]! : this.tail[k - this.same]!;
  }

  /** Position of span `i` in this call's context, or -1. */
  positionOf(i: number): number {
    const p = lowerBound(this.buf, this.n, i);
    return p < this.n && this.buf[p] === i ? p : -1;
  }

  /** This call's span indices (a view, valid until the next step). */
  keys(): Int32Array {
    return this.buf.subarray(0, this.n);
  }

  /** Moves to call `ci`: the next one costs its changes; any other rebuilds (and shares nothing with the last). */
  moveTo(ci: number): void {
    if (ci === this.ci) return;
    if (ci !== this.ci + 1) {
      this.rebuild(ci);
      return;
    }
    const { starts, ends } = this.timeline.changesAt(ci);
    const prevN = this.n;
    let same = prevN;
    // Both lists are in span order, so their first spans sit first in the context.
    if (ends.length > 0) same = lowerBound(this.buf, prevN, ends[0]!);
    if (starts.length > 0) same = Math.min(same, lowerBound(this.buf, prevN, starts[0]!));
    const rest = prevN - same;
    if (this.tail.length < rest) this.tail = new Int32Array(Math.max(rest, this.tail.length * 2));
    this.tail.set(this.buf.subarray(same, prevN));
    const need = same + rest + starts.length;
    if (this.buf.length < need) {
      const grown = new Int32Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, same));
      this.buf = grown;
    }
    // Merge what stays of the previous tail with the spans that start here, in span order.
    const tail = this.tail;
    const buf = this.buf;
    let n = same;
    let a = 0;
    let b = 0;
    while (a < rest || b < starts.length) {
      const x = a < rest ? tail[a]! : Infinity;
      const y = b < starts.length ? starts[b]! : Infinity;
      if (x <= y) {
        a++;
        if (this.timeline.activeIn(x, ci)) buf[n++] = x;
      } else {
        b++;
        buf[n++] = y;
      }
    }
    this.ci = ci;
    this.prevN = prevN;
    this.same = same;
    this.n = n;
  }

  private rebuild(ci: number): void {
    const prevN = this.n;
    if (this.tail.length < prevN) this.tail = new Int32Array(Math.max(prevN, 16));
    this.tail.set(this.buf.subarray(0, prevN));
    const active = this.timeline.activeSpans(ci);
    if (this.buf.length < active.length) this.buf = new Int32Array(Math.max(active.length, this.buf.length * 2));
    this.buf.set(active);
    this.ci = ci;
    this.prevN = prevN;
    this.same = 0;
    this.n = active.length;
  }
}

/** First position in `a[0..n)` (ascending) holding a value ≥ x. */
function lowerBound(a: Int32Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
