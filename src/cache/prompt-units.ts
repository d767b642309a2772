// One call's prompt as the cache pass reads it: units (tool schemas, then items) with digests and running token
// sums. A replayed transcript's prompts are read from its spans: each span is digested once, and a call's prompt is
// its active span indices plus typed sums, so a pass over a long session costs typed-array work per call, not
// object work per unit. Units and digests as arrays are only built for the few calls that need them (a break's cause).
import type { CallContext } from '../analysis/context-types';
import type { ContextTimeline } from '../analysis/context-timeline';
import type { PromptSide } from './cause';
import { DigestCache, TOOLS_UNIT_ID, unitOf, type PromptUnit, type UnitDigest } from './item-hash';

const CACHE_CONTROL = 1;
const SYSTEM = 2;
const ONE_HOUR = 4;

export interface Prompt extends PromptSide {
  call: CallContext;
  /** 1 when the tool schemas lead the prompt as unit 0. */
  lead: 0 | 1;
  /** Units in the prompt (lead included). */
  n: number;
  /** Span index of each item unit (after the lead) when read from spans: equal indices are the same content. */
  keys: Int32Array | null;
  /** Leading units known to equal the previous prompt's (same spans), a floor for the shared-prefix search. */
  sameAsPrevious: number;
  /** cum[j]: counted tokens of units 0..j-1 (length n + 1). */
  cum: Float64Array;
  /** Counted tokens of the recorded units. */
  visibleTokens: number;
  /** A breakpoint asked for the 1-hour cache. */
  oneHour: boolean;
  unitAt(j: number): PromptUnit;
  digestAt(j: number): UnitDigest;
  /** Block indices (offset by `lead`) carrying a cache breakpoint; see breakpointsFrom. */
  breakpoints(lead: number): number[];
  /** Some block carries an explicit `cache_control` breakpoint (not one Claude Code would set on its own). */
  markedBreakpoint(): boolean;
}

function flagsOf(u: PromptUnit): number {
  if (!u.item) return SYSTEM;
  return (u.item.meta?.['cacheControl'] ? CACHE_CONTROL : 0) | (u.item.role === 'system' || u.item.role === 'developer' ? SYSTEM : 0) | (u.oneHour ? ONE_HOUR : 0);
}

/**
 * Block indices carrying a cache breakpoint: items with `meta.cacheControl`; when none is marked,
 * Claude Code's automatic ones — the end of the system/tools prefix and the last item.
 */
function breakpointsFrom(n: number, flagAt: (j: number) => number, lead: number): number[] {
  const marked: number[] = [];
  for (let j = 0; j < n; j++) if (flagAt(j) & CACHE_CONTROL) marked.push(lead + j);
  if (marked.length > 0) return marked;
  const auto = new Set<number>();
  let j = 0;
  while (j < n && flagAt(j) & SYSTEM) j++;
  if (j > 0) auto.add(lead + j - 1);
  else if (lead) auto.add(0);
  if (n > 0) auto.add(lead + n - 1);
  else if (lead) auto.add(0);
  return [...auto].sort((a, b) => a - b);
}

function withBreakpoints<T extends Omit<Prompt, 'breakpoints' | 'markedBreakpoint'>>(p: T, flagAt: (j: number) => number): T & Pick<Prompt, 'breakpoints' | 'markedBreakpoint'> {
  let memo: { lead: number; list: number[] } | null = null;
  let marked: boolean | null = null;
  return Object.assign(p, {
    breakpoints(lead: number) {
      if (!memo || memo.lead !== lead) memo = { lead, list: breakpointsFrom(p.n, flagAt, lead) };
      return memo.list;
    },
    markedBreakpoint() {
      if (marked === null) {
        marked = false;
        for (let j = 0; j < p.n && !marked; j++) marked = (flagAt(j) & CACHE_CONTROL) !== 0;
      }
      return marked;
    },
  });
}

/** Builds each call's prompt, digesting every unit once. */
export class PromptReader {
  private readonly cache: DigestCache;
  private readonly spanUnits: PromptUnit[] = [];
  private readonly spanDigests: UnitDigest[] = [];
  private spanTokens = new Float64Array(0);
  private spanFlags = new Uint8Array(0);
  private anyOneHour = false;

  constructor(count: (text: string) => number, private readonly timeline: ContextTimeline | null = null) {
    this.cache = new DigestCache(count);
    if (timeline) {
      const { spans } = timeline;
      this.spanTokens = new Float64Array(spans.length);
      this.spanFlags = new Uint8Array(spans.length);
      spans.forEach((s, i) => {
        if (s.from >= s.to) return;
        const u = unitOf(s.item);
        const d = this.cache.digest(u);
        this.spanUnits[i] = u;
        this.spanDigests[i] = d;
        this.spanTokens[i] = d.tokens;
        this.spanFlags[i] = flagsOf(u);
        if (u.oneHour) this.anyOneHour = true;
      });
    }
  }

  countText(text: string): number {
    return this.cache.countText(text);
  }

  /** Call `ci`'s prompt; `prev` is the previous call's, whose digests are reused where the units are the same. */
  read(call: CallContext, ci: number, prev: Prompt | null): Prompt {
    const lead: 0 | 1 = call.tools != null && call.tools !== '' ? 1 : 0;
    const tools = lead ? { id: TOOLS_UNIT_ID, item: null, text: call.tools! } : null;
    const toolsDigest = tools ? (prev?.lead && prev.unitAt(0).text === tools.text ? prev.digestAt(0) : this.cache.digest(tools)) : null;
    return this.timeline ? this.fromSpans(call, ci, prev, lead, tools, toolsDigest) : this.fromEntries(call, prev, lead, tools, toolsDigest);
  }

  private fromSpans(call: CallContext, ci: number, prev: Prompt | null, lead: 0 | 1, tools: PromptUnit | null, toolsDigest: UnitDigest | null): Prompt {
    const keys = this.timeline!.activeSpans(ci);
    const { spanTokens, spanFlags, spanUnits, spanDigests } = this;
    const n = keys.length + lead;
    const cum = new Float64Array(n + 1);
    // The spans this call shares with the previous one from the start keep its running sums: copied, not re-added.
    let same = 0;
    if (prev?.keys && prev.lead === lead && (!lead || prev.digestAt(0) === toolsDigest)) {
      const a = prev.keys;
      const m = Math.min(a.length, keys.length);
      while (same < m && a[same] === keys[same]) same++;
      cum.set(prev.cum.subarray(0, lead + same + 1));
    } else if (toolsDigest) cum[1] = toolsDigest.tokens;
    let sum = cum[lead + same]!;
    for (let k = same; k < keys.length; k++) cum[lead + k + 1] = sum += spanTokens[keys[k]!]!;
    let oneHour = false;
    if (this.anyOneHour) for (let k = 0; k < keys.length && !oneHour; k++) oneHour = (spanFlags[keys[k]!]! & ONE_HOUR) !== 0;
    const unitAt = (j: number) => (j < lead ? tools! : spanUnits[keys[j - lead]!]!);
    const digestAt = (j: number) => (j < lead ? toolsDigest! : spanDigests[keys[j - lead]!]!);
    let side: PromptSide | null = null;
    const materialize = () => (side ??= { units: Array.from({ length: n }, (_, j) => unitAt(j)), digests: Array.from({ length: n }, (_, j) => digestAt(j)) });
    const p = {
      call,
      lead,
      n,
      keys,
      sameAsPrevious: same > 0 || lead === 0 ? lead + same : 0,
      cum,
      visibleTokens: sum,
      oneHour,
      unitAt,
      digestAt,
      get units() {
        return materialize().units;
      },
      get digests() {
        return materialize().digests;
      },
    };
    return withBreakpoints(p, (j) => (j < lead ? SYSTEM : spanFlags[keys[j - lead]!]!));
  }

  private fromEntries(call: CallContext, prev: Prompt | null, lead: 0 | 1, tools: PromptUnit | null, toolsDigest: UnitDigest | null): Prompt {
    const entries = call.entries;
    const n = entries.length + lead;
    const units: PromptUnit[] = new Array(n);
    const digests: UnitDigest[] = new Array(n);
    const cum = new Float64Array(n + 1);
    if (tools) {
      units[0] = tools;
      digests[0] = toolsDigest!;
      cum[1] = toolsDigest!.tokens;
    }
    let oneHour = false;
    for (let j = lead; j < n; j++) {
      const u = unitOf(entries[j - lead]!.item);
      units[j] = u;
      const d = prev && j < prev.n ? this.cache.digest(u, prev.unitAt(j), prev.digestAt(j)) : this.cache.digest(u);
      digests[j] = d;
      cum[j + 1] = cum[j]! + d.tokens;
      if (u.oneHour) oneHour = true;
    }
    const p = { call, lead, n, keys: null, sameAsPrevious: 0, cum, visibleTokens: cum[n]!, oneHour, units, digests, unitAt: (j: number) => units[j]!, digestAt: (j: number) => digests[j]! };
    return withBreakpoints(p, (j) => flagsOf(units[j]!));
  }
}
