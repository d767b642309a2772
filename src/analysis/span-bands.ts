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
  /** Tokens of everything sent, tools excluded. */
  counted: number;
}

/**
 * Spans whose item is sent for the first time at their first call: no span of the same id ended there (a masked
 * variant follows its original) and the call before did not write it. A call's `isNew` entries are these.
 */
export function newSpans<S extends Pick<ViewSpan, 'id' | 'from' | 'to'>>(spans: readonly S[], calls: readonly { outputIds: readonly string[] }[]): Set<S> {
  const endsAt = new Map<string, Set<number>>();
  for (const s of spans) {
    let set = endsAt.get(s.id);
    if (!set) endsAt.set(s.id, (set = new Set()));
    set.add(s.to);
  }
  const out = new Set<S>();
  for (const s of spans) {
    if (s.from === 0 || endsAt.get(s.id)!.has(s.from) || calls[s.from - 1]!.outputIds.includes(s.id)) continue;
    out.add(s);
  }
  return out;
}

/** Bands of every call, in call order. `itemOf` is the item a span shows (its variant when masked). */
export function bandsFromSpans(spans: readonly ViewSpan[], calls: readonly { outputIds: readonly string[] }[], itemOf: (s: ViewSpan) => Item): SpanTotals[] {
  const sorted = [...spans].sort((a, b) => a.order - b.order);
  const n = sorted.length;
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  const tokens = new Float64Array(n);
  const flags = new Uint8Array(n);
  const fresh = newSpans(sorted, calls);
  const recaps: number[] = [];
  sorted.forEach((s, i) => {
    const item = itemOf(s);
    from[i] = s.from;
    to[i] = s.to;
    tokens[i] = s.tokens;
    let f = regionFlags(item);
    if (f & RECAP) recaps.push(i);
    if (fresh.has(s)) f |= NEW;
    flags[i] = f;
  });
  const out: SpanTotals[] = [];
  for (let ci = 0; ci < calls.length; ci++) {
    let firstRecap = -1;
    let lastRecap = -1;
    for (const r of recaps) {
      if (from[r]! <= ci && ci < to[r]!) {
        if (firstRecap < 0) firstRecap = r;
        lastRecap = r;
      }
    }
    const bands: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    let counted = 0;
    // Without a recap the head is the leading system items and a first user turn: `lead` says whether we are still there.
    let lead = true;
    for (let i = 0; i < n; i++) {
      if (from[i]! > ci || ci >= to[i]!) continue;
      const t = tokens[i]!;
      const f = flags[i]!;
      counted += t;
      let region: 'head' | 'summary' | 'middle' | 'tail';
      if (firstRecap >= 0) region = i < firstRecap ? 'head' : f & RECAP ? 'summary' : i < lastRecap ? 'middle' : 'tail';
      else if (lead && f & SYSTEM) region = 'head';
      else if (lead && f & USER) {
        region = 'head';
        lead = false;
      } else {
        region = 'tail';
        lead = false;
      }
      if (f & SYSTEM) bands.system += t;
      else if (f & NEW && from[i] === ci) bands.newInput += t;
      else bands[region] += t;
    }
    out.push({ bands, counted });
  }
  return out;
}
