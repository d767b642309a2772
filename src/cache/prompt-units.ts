// One call's prompt as the cache pass reads it: units (tool schemas, then items) with digests and running token
// sums. A replayed transcript's prompts are read from its spans: each span is digested once, and a call's prompt is
// the context cursor's span indices plus running sums that the next call extends from where the two part, so a
// pass over a long session costs what changed per call, not the context. Units and digests as arrays are only built
// for the few calls that need them (a break's cause).
import type { CallContext } from '../analysis/context-types';
import { ContextCursor, type ContextTimeline } from '../analysis/context-timeline';
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
}

function flagsOf(u: PromptUnit): number {
  if (!u.item) return SYSTEM;
  return (u.item.meta?.['cacheControl'] ? CACHE_CONTROL : 0) | (u.item.role === 'system' || u.item.role === 'developer' ? SYSTEM : 0) | (u.oneHour ? ONE_HOUR : 0);
}

/**
 * Block indices carrying a cache breakpoint: items with `meta.cacheControl`; when none is marked,
 * Claude Code's automatic ones — the end of the system/tools prefix and the last item.
 */
function breakpointsFrom(n: number, flagAt: (j: number) => number, lead: number, anyMarked = true): number[] {
  const marked: number[] = [];
  if (anyMarked) for (let j = 0; j < n; j++) if (flagAt(j) & CACHE_CONTROL) marked.push(lead + j);
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

function withBreakpoints<T extends Omit<Prompt, 'breakpoints'>>(p: T, flagAt: (j: number) => number): T & Pick<Prompt, 'breakpoints'> {
  let memo: { lead: number; list: number[] } | null = null;
  return Object.assign(p, {
    breakpoints(lead: number) {
      if (!memo || memo.lead !== lead) memo = { lead, list: breakpointsFrom(p.n, flagAt, lead) };
      return memo.list;
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
  private anyMarked = false;
  /** The context walk of a replayed transcript, and the running sums of the call it is on. */
  private readonly cursor: ContextCursor | null = null;
  private cumBuf = new Float64Array(16);
  /** The previous call's running sums past the part it shares with the current one (what the step overwrote). */
  private cumTail = new Float64Array(16);
  /** The last prompt read from spans, its call, and the counts of 1-hour and marked spans in its context. */
  private last: { prompt: SpanPrompt; lead: number; tools: UnitDigest | null; oneHour: number; marked: number } | null = null;
  private older: SpanPrompt | null = null;

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
        if (this.spanFlags[i]! & CACHE_CONTROL) this.anyMarked = true;
      });
      this.cursor = new ContextCursor(timeline);
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

  /**
   * A prompt read from the cursor: its keys and running sums live in the reader's buffers, which the next read
   * edits from where the two contexts part; the prompt read before keeps what that edit overwrote, so the pair a
   * comparison needs stays readable. An older prompt can no longer be read.
   */
  private fromSpans(call: CallContext, ci: number, prev: Prompt | null, lead: 0 | 1, tools: PromptUnit | null, toolsDigest: UnitDigest | null): Prompt {
    const cursor = this.cursor!;
    const last = this.last;
    const sequential = last !== null && cursor.ci === ci - 1;
    cursor.moveTo(ci);
    const { spanTokens, spanFlags, spanUnits, spanDigests } = this;
    const ctx = cursor.n;
    const n = ctx + lead;
    // The spans this call shares with the previous one from the start keep its running sums.
    const same = sequential && prev === last!.prompt && last!.lead === lead && (!lead || last!.tools === toolsDigest) ? cursor.same : 0;
    const from = same > 0 ? lead + same + 1 : 0;
    // The previous prompt keeps its running sums from where this one writes; the one before it is done with.
    this.older?.expire();
    this.older = null;
    if (last) {
      const keep = last.prompt.n + 1;
      const length = Math.max(0, keep - from);
      if (this.cumTail.length < length) this.cumTail = new Float64Array(Math.max(length, this.cumTail.length * 2));
      this.cumTail.set(this.cumBuf.subarray(from, from + length));
      last.prompt.retire(from);
      this.older = last.prompt;
    }
    if (this.cumBuf.length < n + 1) {
      const grown = new Float64Array(Math.max(n + 1, this.cumBuf.length * 2));
      grown.set(this.cumBuf);
      this.cumBuf = grown;
    }
    const cum = this.cumBuf;
    if (same === 0) {
      cum[0] = 0;
      if (toolsDigest) cum[1] = toolsDigest.tokens;
    }
    let sum = cum[lead + same]!;
    for (let k = same; k < ctx; k++) cum[lead + k + 1] = sum += spanTokens[cursor.keyAt(k)]!;
    // The 1-hour and marked spans in the context, kept up to date from the spans that start and end here.
    let oneHour = 0;
    let marked = 0;
    if (this.anyOneHour || this.anyMarked) {
      if (sequential) {
        const { starts, ends } = this.timeline!.changesAt(ci);
        oneHour = last!.oneHour;
        marked = last!.marked;
        for (const i of starts) {
          if (spanFlags[i]! & ONE_HOUR) oneHour++;
          if (spanFlags[i]! & CACHE_CONTROL) marked++;
        }
        for (const i of ends) {
          if (spanFlags[i]! & ONE_HOUR) oneHour--;
          if (spanFlags[i]! & CACHE_CONTROL) marked--;
        }
      } else {
        for (let k = 0; k < ctx; k++) {
          const f = spanFlags[cursor.keyAt(k)]!;
          if (f & ONE_HOUR) oneHour++;
          if (f & CACHE_CONTROL) marked++;
        }
      }
    }
    const p = new SpanPrompt(call, lead, n, sum, oneHour > 0, same > 0 || lead === 0 ? lead + same : 0, cursor, this, tools, toolsDigest, marked > 0);
    this.last = { prompt: p, lead, tools: toolsDigest, oneHour, marked };
    return p;
  }

  /** Running sum `j` of the previous prompt, `from` on (see retire). */
  tailCum(j: number, from: number): number {
    return this.cumTail[j - from]!;
  }

  cumAt(j: number): number {
    return this.cumBuf[j]!;
  }

  cumView(n: number): Float64Array {
    return this.cumBuf.subarray(0, n + 1);
  }

  spanUnit(i: number): PromptUnit {
    return this.spanUnits[i]!;
  }

  spanDigest(i: number): UnitDigest {
    return this.spanDigests[i]!;
  }

  spanFlag(i: number): number {
    return this.spanFlags[i]!;
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
    const p = { call, lead, n, sameAsPrevious: 0, cum, visibleTokens: cum[n]!, oneHour, units, digests, unitAt: (j: number) => units[j]!, digestAt: (j: number) => digests[j]! };
    return withBreakpoints(p, (j) => flagsOf(units[j]!));
  }
}

/**
 * A prompt read from spans. While it is the reader's latest, its keys and sums are the cursor's and the reader's
 * buffers; once the next one is read it is the previous prompt, reading what the step overwrote from the saved
 * tails; after that it is expired (a pass compares each call with the one before, never further back).
 */
class SpanPrompt implements Prompt {
  private state: 'current' | 'previous' | 'expired' = 'current';
  /** In the previous state: running sums from this index on are in the reader's tail. */
  private cumFrom = 0;
  private side: PromptSide | null = null;
  private memo: { lead: number; list: number[] } | null = null;

  constructor(
    readonly call: CallContext,
    readonly lead: 0 | 1,
    readonly n: number,
    readonly visibleTokens: number,
    readonly oneHour: boolean,
    readonly sameAsPrevious: number,
    private readonly cursor: ContextCursor,
    private readonly reader: PromptReader,
    private readonly tools: PromptUnit | null,
    private readonly toolsDigest: UnitDigest | null,
    private readonly marked: boolean,
  ) {}

  retire(cumFrom: number): void {
    this.state = 'previous';
    this.cumFrom = cumFrom;
  }

  expire(): void {
    this.state = 'expired';
  }

  private keyAt(k: number): number {
    if (this.state === 'current') return this.cursor.keyAt(k);
    if (this.state === 'previous') return this.cursor.prevKeyAt(k);
    throw new Error('a prompt read from spans is read only while it is the latest or the one before it');
  }

  private cumAt(j: number): number {
    if (this.state === 'current') return this.reader.cumAt(j);
    if (this.state === 'previous') return j < this.cumFrom ? this.reader.cumAt(j) : this.reader.tailCum(j, this.cumFrom);
    throw new Error('a prompt read from spans is read only while it is the latest or the one before it');
  }

  get cum(): Float64Array {
    if (this.state === 'current') return this.reader.cumView(this.n);
    return Float64Array.from({ length: this.n + 1 }, (_, j) => this.cumAt(j));
  }

  unitAt(j: number): PromptUnit {
    return j < this.lead ? this.tools! : this.reader.spanUnit(this.keyAt(j - this.lead));
  }

  digestAt(j: number): UnitDigest {
    return j < this.lead ? this.toolsDigest! : this.reader.spanDigest(this.keyAt(j - this.lead));
  }

  private flagAt(j: number): number {
    return j < this.lead ? SYSTEM : this.reader.spanFlag(this.keyAt(j - this.lead));
  }

  breakpoints(lead: number): number[] {
    if (this.memo && this.memo.lead === lead) return this.memo.list;
    // Without a marked span only the automatic breakpoints are left: the end of the leading system units and the last unit.
    const list = breakpointsFrom(this.n, (j) => this.flagAt(j), lead, this.marked);
    this.memo = { lead, list };
    return list;
  }

  private materialize(): PromptSide {
    return (this.side ??= { units: Array.from({ length: this.n }, (_, j) => this.unitAt(j)), digests: Array.from({ length: this.n }, (_, j) => this.digestAt(j)) });
  }

  get units(): readonly PromptUnit[] {
    return this.materialize().units;
  }

  get digests(): readonly UnitDigest[] {
    return this.materialize().digests;
  }
}
