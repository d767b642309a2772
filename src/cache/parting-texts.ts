// Where two consecutive calls' prompts part inside a unit, the cache pass counts the serialization the two units
// share (`compare` in prefix.ts). Which texts those are depends on content alone: found here without digests,
// counts or verdicts, so a caller can count them with the rest before the pass runs (a whole pass took 20–40 ms
// on the bench's 500-call log; this takes a few).
import type { CallContext } from '../analysis/context-types';
import type { ContextTimeline } from '../analysis/context-timeline';
import { sharedSerialLength } from './divergence';
import { sameContent, serializeUnit, TOOLS_UNIT_ID, unitOf, unitsOf, type PromptUnit } from './item-hash';

/** A call's prompt as the cache pass orders it: the tool schemas (when sent), then its items. */
interface Units {
  n: number;
  lead: 0 | 1;
  /** Span index of each item unit when the calls come from a timeline: equal indices are the same content. */
  keys: Int32Array | null;
  at(j: number): PromptUnit;
}

function promptOf(call: CallContext, ci: number, timeline: ContextTimeline | null): Units {
  const lead: 0 | 1 = call.tools != null && call.tools !== '' ? 1 : 0;
  if (!timeline) {
    const units = unitsOf(call);
    return { n: units.length, lead, keys: null, at: (j) => units[j]! };
  }
  // A replayed transcript's prompts come from its spans, as the cache pass reads them (prompt-units.ts).
  const tools: PromptUnit | null = lead ? { id: TOOLS_UNIT_ID, item: null, text: call.tools! } : null;
  const keys = timeline.activeSpans(ci);
  const spans = timeline.spans;
  return { n: keys.length + lead, lead, keys, at: (j) => (j < lead ? tools! : unitOf(spans[keys[j - lead]!]!.item)) };
}

/** The shared start of each unit where a call's prompt parts from the previous call's, each text once. */
export function partingTexts(calls: readonly CallContext[], timeline: ContextTimeline | null): string[] {
  const out = new Set<string>();
  let prev: Units | null = null;
  calls.forEach((call, ci) => {
    const cur = promptOf(call, ci, timeline);
    if (prev) {
      const n = Math.min(prev.n, cur.n);
      let k = 0;
      // Leading spans the two share are the same content; past them, units are compared as the pass does.
      if (prev.keys && cur.keys && prev.lead === cur.lead && (!cur.lead || prev.at(0).text === cur.at(0).text)) {
        const a = prev.keys;
        const b = cur.keys;
        const m = Math.min(a.length, b.length);
        let same = 0;
        while (same < m && a[same] === b[same]) same++;
        k = cur.lead + same;
      }
      while (k < n && sameContent(prev.at(k), cur.at(k))) k++;
      if (k < prev.n && k < cur.n) {
        const chars = sharedSerialLength(prev.at(k), cur.at(k));
        if (chars > 0) out.add(serializeUnit(cur.at(k)).slice(0, chars));
      }
    }
    prev = cur;
  });
  return [...out];
}
