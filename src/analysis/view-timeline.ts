// A call's entries in the analysis view, rebuilt from the view's spans: the worker sends spans (they grow with
// items) instead of every call's entry list (it grows with calls × items), and the page reads a call when shown.
import type { Item } from '../model/types';
import type { CallEntryView, CallView, ViewSpan } from './view-types';
import { ContextTimeline, type Span } from './context-timeline';
import { newSpans } from './span-bands';

export type { ViewSpan };

export interface SpanSource {
  calls: readonly Pick<CallView, 'outputIds'>[];
  spans: readonly ViewSpan[];
  itemById(id: string): Item | undefined;
  variants: ReadonlyMap<string, Item>;
}

/** Reads calls' entries from spans; keeps the last few it built. */
export class ViewTimeline {
  private readonly timeline: ContextTimeline;
  private readonly viewOf = new Map<Span, ViewSpan>();
  private readonly recent = new Map<number, CallEntryView[]>();
  private readonly fresh: Set<ViewSpan>;

  constructor(private readonly source: SpanSource) {
    this.fresh = newSpans(source.spans, source.calls);
    const spans = source.spans.map((v): Span => {
      const item = (v.variant ? source.variants.get(v.id) : undefined) ?? source.itemById(v.id) ?? placeholder(v.id);
      const span = { item, from: v.from, to: v.to, order: v.order };
      this.viewOf.set(span, v);
      return span;
    });
    this.timeline = new ContextTimeline(spans, source.calls.length);
  }

  entriesAt(ci: number): CallEntryView[] {
    let out = this.recent.get(ci);
    if (out) return out;
    const active = this.timeline.spansAt(ci).map((s) => this.viewOf.get(s)!);
    const regions = this.timeline.entriesAt(ci);
    out = active.map((v, i) => ({ id: v.id, region: regions[i]!.region, tokens: v.tokens, variant: v.variant, isNew: v.from === ci && this.fresh.has(v) }));
    this.recent.set(ci, out);
    if (this.recent.size > 4) this.recent.delete(this.recent.keys().next().value!);
    return out;
  }
}

function placeholder(id: string): Item {
  return { id, role: 'assistant', kind: 'message', text: '', source: { file: '', line: null } } as Item;
}
