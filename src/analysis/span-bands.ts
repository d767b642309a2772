// Each call's token bands read straight from the view's spans, without building any call's entry list: a pass
// over flat arrays per call. Gives what summing `entries` gives (see span-bands.test.ts).
import type { Item } from '../model/types';
import { RECAP_FLAG, regionFlags, SYSTEM_FLAG, USER_FLAG } from './regions';
import type { CallBands, ViewSpan } from './view-types';

const SYSTEM = SYSTEM_FLAG;
const RECAP = RECAP_FLAG;
const USER = USER_FLAG;
/** First sent in its first call: no span of the same id ended there and the previous call did not write it. */
const NEW = 8;

export interface SpanTotals {
  /** Bands without tools and output (the caller adds those). */
  bands: CallBands;
  /** Items in each band (the fit's framing tokens are per item). */
  items: CallBands;
  /** Tokens of everything sent, tools excluded. */
  counted: number;
}

/**
 * Spans whose item is sent for the first time at their first call: no span of the same id ended there (a masked
 * variant follows its original) and the call before did not write it. A call's `isNew` entries are these.
 */
export function newSpans<S extends Pick<ViewSpan, 'id' | 'from' | 'to'>>(spans: readonly S[], calls: readonly { outputIds: readonly string[] }[]): Set<S> {
  // Where each id's spans end: one call for nearly every id (a set only for ids with spans ending apart).
  const endsAt = new Map<string, number | Set<number>>();
  for (const s of spans) {
    const had = endsAt.get(s.id);
    if (had === undefined) endsAt.set(s.id, s.to);
    else if (typeof had !== 'number') had.add(s.to);
    else if (had !== s.to) endsAt.set(s.id, new Set([had, s.to]));
  }
  const endsHere = (id: string, at: number) => {
    const e = endsAt.get(id)!;
    return typeof e === 'number' ? e === at : e.has(at);
  };
  const out = new Set<S>();
  for (const s of spans) {
    if (s.from === 0 || endsHere(s.id, s.from) || calls[s.from - 1]!.outputIds.includes(s.id)) continue;
    out.add(s);
  }
  return out;
}

/**
 * Sums over positions 0..n-1 (a Fenwick tree): add at a position, the sum of a prefix, and the first position whose
 * prefix sum reaches a count (over counts of 0 and 1 only).
 */
class PrefixSums {
  private readonly t: Float64Array;
  private readonly top: number;
  constructor(private readonly n: number) {
    this.t = new Float64Array(n + 1);
    let top = 1;
    while (top * 2 <= n) top *= 2;
    this.top = top;
  }
  add(i: number, v: number): void {
    for (let k = i + 1; k <= this.n; k += k & -k) this.t[k]! += v;
  }
  /** Sum of positions [0, i). */
  before(i: number): number {
    let s = 0;
    for (let k = i; k > 0; k -= k & -k) s += this.t[k]!;
    return s;
  }
  /** The position of the `k`-th unit (k ≥ 1), or -1 (the tree must hold counts). */
  kth(k: number): number {
    let pos = 0;
    for (let step = this.top; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && this.t[next]! < k) {
        pos = next;
        k -= this.t[next]!;
      }
    }
    return pos < this.n ? pos : -1;
  }
}

/**
 * Bands of every call, in call order. `itemOf` is the item a span shows (its variant when masked). One sweep over
 * the calls: a span enters the sums at its first call and leaves them after its last, and each call reads its
 * bands from prefix sums over the spans' order (head, middle and tail are ranges cut by the first and last recap
 * sent), so a call costs what changed, not its context. Gives what summing each call's entry list gives
 * (span-bands.test.ts checks it against that pass).
 */
export function bandsFromSpans(spans: readonly ViewSpan[], calls: readonly { outputIds: readonly string[] }[], itemOf: (s: ViewSpan) => Item): SpanTotals[] {
  const sorted = [...spans].sort((a, b) => a.order - b.order);
  const n = sorted.length;
  const fresh = newSpans(sorted, calls);
  const flags = new Uint8Array(n);
  // Spans by the call they enter at and the call they leave at (only those some call is sent).
  const opening: number[][] = Array.from({ length: calls.length }, () => []);
  const closing: number[][] = Array.from({ length: calls.length + 1 }, () => []);
  sorted.forEach((s, i) => {
    let f = regionFlags(itemOf(s));
    if (fresh.has(s)) f |= NEW;
    flags[i] = f;
    if (s.from >= s.to || s.from >= calls.length || s.from < 0) return;
    opening[s.from]!.push(i);
    closing[Math.min(s.to, calls.length)]!.push(i);
  });
  // Sent items that are neither system nor recap, by position: their tokens and how many.
  const plainTokens = new PrefixSums(n);
  const plainCount = new PrefixSums(n);
  // Sent recaps by position (first and last), and the sums of the bands that need no position.
  const recapCount = new PrefixSums(n);
  let recaps = 0;
  let system = 0;
  let systemItems = 0;
  let summary = 0;
  let summaryItems = 0;
  let plain = 0;
  let plainItems = 0;
  let counted = 0;
  const enter = (i: number, sign: 1 | -1) => {
    const t = sorted[i]!.tokens * sign;
    const f = flags[i]!;
    counted += t;
    if (f & RECAP) {
      recapCount.add(i, sign);
      recaps += sign;
    }
    if (f & SYSTEM) {
      system += t;
      systemItems += sign;
    } else if (f & RECAP) {
      summary += t;
      summaryItems += sign;
    } else {
      plainTokens.add(i, t);
      plainCount.add(i, sign);
      plain += t;
      plainItems += sign;
    }
  };
  const out: SpanTotals[] = [];
  for (let ci = 0; ci < calls.length; ci++) {
    for (const i of closing[ci]!) enter(i, -1);
    for (const i of opening[ci]!) enter(i, 1);
    const bands: CallBands = { system, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    const items: CallBands = { system: systemItems, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    let regionOf: (i: number) => 'head' | 'middle' | 'tail';
    if (recaps > 0) {
      const firstRecap = recapCount.kth(1);
      const lastRecap = recapCount.kth(recaps);
      const headT = plainTokens.before(firstRecap);
      const headN = plainCount.before(firstRecap);
      const midT = plainTokens.before(lastRecap) - headT;
      const midN = plainCount.before(lastRecap) - headN;
      bands.head = headT;
      items.head = headN;
      bands.middle = midT;
      items.middle = midN;
      bands.tail = plain - headT - midT;
      items.tail = plainItems - headN - midN;
      bands.summary = summary;
      items.summary = summaryItems;
      regionOf = (i) => (i < firstRecap ? 'head' : i < lastRecap ? 'middle' : 'tail');
    } else {
      // The head is the first item after the leading system ones, when a user wrote it.
      const first = plainItems > 0 ? plainCount.kth(1) : -1;
      const head = first >= 0 && flags[first]! & USER ? first : -1;
      if (head >= 0) {
        bands.head = sorted[head]!.tokens;
        items.head = 1;
      }
      bands.tail = plain - bands.head;
      items.tail = plainItems - items.head;
      regionOf = (i) => (i === head ? 'head' : 'tail');
    }
    // Items first sent here count as new input, whatever their region (a recap stays in the summary band).
    for (const i of opening[ci]!) {
      const f = flags[i]!;
      if (!(f & NEW) || f & SYSTEM || f & RECAP) continue;
      const t = sorted[i]!.tokens;
      const region = regionOf(i);
      bands[region] -= t;
      items[region]--;
      bands.newInput += t;
      items.newInput++;
    }
    out.push({ bands, items, counted });
  }
  return out;
}
