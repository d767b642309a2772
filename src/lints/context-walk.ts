// The calls' contexts as the lints read them: call after call, what is new since the previous call, positional
// access to this context and the previous one, and the two questions that look across a whole context (the tool
// call before a position that quotes a user's words; the kept half of a split tool pair). A replayed transcript is
// walked on its spans with a cursor, so a call costs what changed, not its context; contexts stored per call (a
// request log) are read as lists.
import type { CallContext } from '../analysis/context-types';
import { ContextCursor, type ContextTimeline } from '../analysis/context-timeline';
import type { Item } from '../model/types';
import { QuoteFinder, slicesOf, SPAN, windowHashes, windowHashesInto, type Slices } from './quoted-span';

export interface ContextWalk {
  /** Moves to call `ci` (calls are read in order). */
  moveTo(ci: number): void;
  /** Items in this call's context. */
  readonly n: number;
  /** Leading positions this context shares with the previous call's. */
  readonly same: number;
  itemAt(k: number): Item;
  /** The previous call's item at `k`, undefined past its end. */
  prevItemAt(k: number): Item | undefined;
  /** The nearest tool call before position `i` that quotes 16 characters of `said` (normalized, see `norm`). */
  quotingCall(i: number, said: string): Item | undefined;
  /** Kept halves of split pairs that this call is the first to hold without their pair, in context order. */
  splitHere(ci: number): readonly Item[];
}

/** Normalized text for finding what a user said inside later tool arguments. */
export const norm = (s: string) => s.toLowerCase().replace(/\\"/g, '"').replace(/\s+/g, ' ');

/** Memoized `norm` and slices, shared by a walk's questions. */
class Texts {
  private readonly norms = new Map<string, string>();
  private readonly slices = new Map<string, Slices>();
  normOf(t: string): string {
    let n = this.norms.get(t);
    if (n === undefined) this.norms.set(t, (n = norm(t)));
    return n;
  }
  slicesOf(said: string): Slices {
    let s = this.slices.get(said);
    if (!s) this.slices.set(said, (s = slicesOf(this.normOf(said))));
    return s;
  }
}

/** Contexts stored per call: each call's list is read whole, and questions scan it. */
export function entriesWalk(calls: readonly CallContext[], splitIds: ReadonlySet<string>): ContextWalk {
  const texts = new Texts();
  const quotes = new QuoteFinder();
  let items: Item[] = [];
  let before: Item[] = [];
  let same = 0;
  const reported = new Set<string>();
  return {
    moveTo(ci) {
      before = items;
      items = calls[ci]!.entries.map((e) => e.item);
      same = 0;
      while (same < items.length && same < before.length && items[same] === before[same]) same++;
    },
    get n() {
      return items.length;
    },
    get same() {
      return same;
    },
    itemAt: (k) => items[k]!,
    prevItemAt: (k) => before[k],
    quotingCall(i, said) {
      const mine = texts.slicesOf(said);
      if (mine.texts.length === 0) return undefined;
      for (let j = i - 1; j >= 0; j--) {
        const p = items[j]!;
        if (p.kind === 'tool_call' && quotes.contains(texts.normOf(p.text), mine)) return p;
      }
      return undefined;
    },
    splitHere() {
      if (splitIds.size === 0) return [];
      const out: Item[] = [];
      let ids: Set<string> | null = null;
      for (const it of items) {
        if (!splitIds.has(it.id) || reported.has(it.id)) continue;
        ids ??= new Set(items.map((x) => x.id));
        if (!ids.has(it.pairId!)) {
          reported.add(it.id);
          out.push(it);
        }
      }
      return out;
    },
  };
}

/**
 * Contexts as spans, walked with a cursor. The quoting tool calls are found once for every user message through
 * an index of the messages' slices (each tool call's text is hashed once, window by window), and a question
 * picks the nearest of those before the position that the call was sent. A split pair's kept half is found from
 * the spans of the two halves.
 */
export function timelineWalk(timeline: ContextTimeline, splitIds: ReadonlySet<string>, saidBy: (it: Item) => string | null): ContextWalk {
  const cursor = new ContextCursor(timeline);
  const { spans } = timeline;
  const texts = new Texts();
  let nearest: Int32Array | null = null;
  let quotes: QuoteFinder | null = null;
  let splits: Map<number, number[]> | null = null;
  return {
    moveTo: (ci) => cursor.moveTo(ci),
    get n() {
      return cursor.n;
    },
    get same() {
      return cursor.same;
    },
    itemAt: (k) => spans[cursor.keyAt(k)]!.item,
    prevItemAt: (k) => (k < cursor.prevN ? spans[cursor.prevKeyAt(k)]!.item : undefined),
    quotingCall(i, said) {
      nearest ??= nearestQuoting(timeline, texts, saidBy);
      const u = cursor.keyAt(i);
      const c = nearest[u]!;
      if (c < 0) return undefined;
      if (timeline.activeIn(c, cursor.ci)) return spans[c]!.item;
      // The nearest quoting call is no longer sent (a compaction took it and kept the message): look further back.
      const mine = texts.slicesOf(said);
      for (let j = i - 1; j >= 0; j--) {
        const p = spans[cursor.keyAt(j)]!.item;
        if (p.kind === 'tool_call' && (quotes ??= new QuoteFinder()).contains(texts.normOf(p.text), mine)) return p;
      }
      return undefined;
    },
    splitHere(ci) {
      if (splitIds.size === 0) return [];
      splits ??= firstSplits(timeline, splitIds);
      return (splits.get(ci) ?? []).map((i) => spans[i]!.item);
    },
  };
}

/**
 * For each span of an asked message, the nearest tool-call span before it (in span order, so in every context
 * that holds both) whose text quotes one of the message's slices (`slicesOf`: every fourth SPAN-character window of
 * its normalized text); -1 where none does. One sweep in span order: the messages' distinct slices are numbered in
 * a table keyed by the hashes of their halves, each distinct tool-call text is hashed once, window by window, and a
 * window whose key is in the table is compared with the slices under it character by character (so the answer is
 * the same as searching every earlier tool call for every slice); the last tool call seen with each slice is kept.
 */
function nearestQuoting(timeline: ContextTimeline, texts: Texts, saidBy: (it: Item) => string | null): Int32Array {
  const { spans } = timeline;
  const out = new Int32Array(spans.length).fill(-1);
  // The asked messages' distinct normalized texts, and how many slices they have at most.
  const asked = new Map<string, number>();
  const sources: string[] = [];
  let most = 0;
  for (const s of spans) {
    const said = s.from < s.to ? saidBy(s.item) : null;
    if (said === null) continue;
    const t = texts.normOf(said);
    if (asked.has(t)) continue;
    asked.set(t, sources.length);
    sources.push(t);
    if (t.length >= SPAN) most += Math.floor((t.length - SPAN) / 4) + 1;
  }
  if (most === 0) return out;
  const table = new SliceTable(most);
  const slicesOfSource = sources.map((t) => {
    const ids: number[] = [];
    if (t.length < SPAN) return Int32Array.from(ids);
    const h = windowHashes(t);
    for (let i = 0; i + SPAN <= t.length; i += 4) ids.push(table.add(pairKey(h[i]!, h[i + SPAN / 2]!), t, i));
    return Int32Array.from(ids);
  });
  const held = new Map<string, readonly number[]>();
  const stamp = new Int32Array(table.size).fill(-1);
  let h: Int32Array = new Int32Array(1024);
  const slicesIn = (t: string): readonly number[] => {
    let ids = held.get(t);
    if (ids) return ids;
    const found: number[] = [];
    if (t.length >= SPAN) {
      h = windowHashesInto(t, h);
      table.collect(t, h, stamp, held.size, found);
    }
    held.set(t, (ids = found));
    return ids;
  };
  const last = new Int32Array(table.size).fill(-1);
  spans.forEach((s, i) => {
    if (s.from >= s.to) return;
    if (s.item.kind === 'tool_call') {
      for (const id of slicesIn(texts.normOf(s.item.text))) last[id] = i;
    } else {
      const said = saidBy(s.item);
      if (said === null) return;
      let best = -1;
      for (const id of slicesOfSource[asked.get(texts.normOf(said))!]!) if (last[id]! > best) best = last[id]!;
      out[i] = best;
    }
  });
  return out;
}

/**
 * Distinct SPAN-character slices in an open-addressing table keyed by their halves' hashes: ids of slices sharing a
 * key are chained; a slice is its source text and offset, compared character by character. A key's slot holds the
 * key and its first id side by side, and a bit per key hash (a one-hash Bloom filter, small enough to stay in the
 * processor's cache) answers most lookups of absent keys — nearly every window of a tool call — without a probe.
 */
class SliceTable {
  size = 0;
  readonly next: Int32Array;
  /** Per slot: the key at 2i, the first slice id at 2i + 1. */
  private readonly slots: Int32Array;
  private readonly filter: Int32Array;
  private readonly filterShift: number;
  private readonly mask: number;
  private readonly shift: number;
  private readonly src: string[] = [];
  private readonly at: Int32Array;

  constructor(most: number) {
    let bits = 4;
    while (1 << bits < most * 2) bits++;
    const cap = 1 << bits;
    this.mask = cap - 1;
    this.shift = 32 - bits;
    this.slots = new Int32Array(cap * 2).fill(-1);
    // About 16 bits per slice: ~6 % of absent keys get past it.
    let filterBits = 10;
    while (1 << filterBits < most * 16 && filterBits < 24) filterBits++;
    this.filter = new Int32Array(1 << (filterBits - 5));
    this.filterShift = 32 - filterBits;
    this.next = new Int32Array(most).fill(-1);
    this.at = new Int32Array(most);
  }

  private slot(key: number): number {
    // The high bits of a multiplicative hash: the keys' low bits follow the text's characters too closely.
    let i = Math.imul(key, 0x9e3779b1) >>> this.shift;
    while (this.slots[2 * i] !== -1 && this.slots[2 * i] !== key) i = (i + 1) & this.mask;
    return i;
  }

  /**
   * Appends to `found` the ids of the slices `t` holds, each once (`stamp`ed `no`); `h` holds its window hashes
   * (`windowHashesInto`). `pairKey` and the filter's test (a clear bit: no slice has the key) are written out in the
   * loop: it runs at every character of every tool call, and the CLI runs without TurboFan's inlining (see the bin).
   */
  collect(t: string, h: Int32Array, stamp: Int32Array, no: number, found: number[]): void {
    const filter = this.filter;
    const filterShift = this.filterShift;
    for (let j = 0; j + SPAN <= t.length; j++) {
      const key = (Math.imul(h[j]!, 0x9e3779b1) ^ h[j + SPAN / 2]!) & 0x3fffffff;
      const b = Math.imul(key, 0x85ebca6b) >>> filterShift;
      if ((filter[b >>> 5]! & (1 << (b & 31))) === 0) continue;
      for (let id = this.first(key); id >= 0; id = this.next[id]!) {
        if (stamp[id] === no || !this.matches(id, t, j)) continue;
        stamp[id] = no;
        found.push(id);
      }
    }
  }

  /** The first slice id under `key`, or -1. */
  first(key: number): number {
    return this.slots[2 * this.slot(key) + 1]!;
  }

  /** The id of the slice of `text` at `offset` (a new one unless an equal slice is in). */
  add(key: number, text: string, offset: number): number {
    const i = this.slot(key);
    for (let id = this.slots[2 * i + 1]!; id >= 0; id = this.next[id]!) if (this.matches(id, text, offset)) return id;
    const id = this.size++;
    this.src.push(text);
    this.at[id] = offset;
    this.slots[2 * i] = key;
    this.next[id] = this.slots[2 * i + 1]!;
    this.slots[2 * i + 1] = id;
    const b = Math.imul(key, 0x85ebca6b) >>> this.filterShift;
    this.filter[b >>> 5]! |= 1 << (b & 31);
    return id;
  }

  /** Slice `id` equals `text` from `offset` on. */
  matches(id: number, text: string, offset: number): boolean {
    const s = this.src[id]!;
    const o = this.at[id]!;
    for (let k = 0; k < SPAN; k++) if (s.charCodeAt(o + k) !== text.charCodeAt(offset + k)) return false;
    return true;
  }
}

/** One small integer for a 16-character window from the hashes of its halves (a hit is checked against the text). */
function pairKey(head: number, tail: number): number {
  return (Math.imul(head, 0x9e3779b1) ^ tail) & 0x3fffffff;
}

/**
 * Per call, the spans of split-pair halves that call is the first to hold without their pair (an id is reported
 * once: at the first call that holds it while no span of its pair's id is sent), in span order.
 */
function firstSplits(timeline: ContextTimeline, splitIds: ReadonlySet<string>): Map<number, number[]> {
  const { spans } = timeline;
  const byId = new Map<string, number[]>();
  spans.forEach((s, i) => {
    if (s.from >= s.to) return;
    let list = byId.get(s.item.id);
    if (!list) byId.set(s.item.id, (list = []));
    list.push(i);
  });
  const first = new Map<string, { ci: number; span: number }>();
  for (const id of splitIds) {
    const own = byId.get(id);
    if (!own) continue;
    const pairId = spans[own[0]!]!.item.pairId!;
    const pair = (byId.get(pairId) ?? []).map((i) => timeline.rangeOf(i)).sort((a, b) => a.from - b.from);
    for (const i of own) {
      const { from, to } = timeline.rangeOf(i);
      // The first call of [from, to) that no span of the pair covers.
      let ci = from;
      for (const r of pair) {
        if (r.from > ci) break;
        if (r.to > ci) ci = r.to;
      }
      if (ci >= to) continue;
      const had = first.get(id);
      if (!had || ci < had.ci || (ci === had.ci && i < had.span)) first.set(id, { ci, span: i });
    }
  }
  const out = new Map<number, number[]>();
  for (const { ci, span } of first.values()) {
    let list = out.get(ci);
    if (!list) out.set(ci, (list = []));
    list.push(span);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
