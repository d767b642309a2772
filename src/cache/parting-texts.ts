// Where two consecutive calls' prompts part inside a unit, the cache pass counts the serialization the two units
// share (`compare` in prefix.ts). Which texts those are depends on content alone: found here without digests,
// counts or verdicts, so a caller can count them with the rest before the pass runs (a whole pass took 20–40 ms
// on the bench's 500-call log; this takes a few).
import type { CallContext } from '../analysis/context-types';
import { ContextCursor, type ContextTimeline } from '../analysis/context-timeline';
import { sharedSerialLength } from './divergence';
import { sameContent, serializeUnit, TOOLS_UNIT_ID, unitOf, unitsOf, type PromptUnit } from './item-hash';

/** A call's prompt as the cache pass orders it: the tool schemas (when sent), then its items. */
interface Units {
  n: number;
  /** The tool schemas' unit, when sent (it leads the prompt). */
  tools: PromptUnit | null;
  at(j: number): PromptUnit;
}

function toolsOf(call: CallContext): PromptUnit | null {
  return call.tools != null && call.tools !== '' ? { id: TOOLS_UNIT_ID, item: null, text: call.tools } : null;
}

/**
 * The shared start of each unit where a call's prompt parts from the previous call's, each text once. A replayed
 * transcript's prompts are walked with the context cursor (as the cache pass reads them, prompt-units.ts), which
 * costs each call its changes, not its length: the spans two calls share from the start are the same content, so
 * only what follows is compared.
 */
export function partingTexts(calls: readonly CallContext[], timeline: ContextTimeline | null): string[] {
  const out = new Set<string>();
  const cursor = timeline ? new ContextCursor(timeline) : null;
  const spans = timeline?.spans ?? [];
  let last: PromptUnit[] | null = null;
  let lastTools: PromptUnit | null = null;
  calls.forEach((call, ci) => {
    const tools = toolsOf(call);
    const lead = tools ? 1 : 0;
    let prev: Units | null = null;
    let cur: Units;
    let k = 0;
    if (cursor) {
      cursor.moveTo(ci);
      const c = cursor;
      cur = { n: c.n + lead, tools, at: (j) => (j < lead ? tools! : unitOf(spans[c.keyAt(j - lead)]!.item)) };
      if (ci > 0) {
        // The previous prompt as the cursor keeps it: the shared leading spans, then what this step overwrote.
        const t = lastTools;
        const pl = t ? 1 : 0;
        prev = { n: c.prevN + pl, tools: t, at: (j) => (j < pl ? t! : unitOf(spans[c.prevKeyAt(j - pl)]!.item)) };
        // Leading spans the two share are the same content, behind the same tool schemas.
        if (pl === lead && (!lead || t!.text === tools!.text)) k = lead + c.same;
      }
      lastTools = tools;
    } else {
      const units = unitsOf(call);
      cur = { n: units.length, tools, at: (j) => units[j]! };
      if (last) {
        const before = last;
        prev = { n: before.length, tools: null, at: (j) => before[j]! };
      }
      last = units;
    }
    if (!prev) return;
    const n = Math.min(prev.n, cur.n);
    // Past the shared spans, units are compared as the pass does.
    while (k < n && sameContent(prev.at(k), cur.at(k))) k++;
    if (k < prev.n && k < cur.n) {
      const chars = sharedSerialLength(prev.at(k), cur.at(k));
      if (chars > 0) out.add(serializeUnit(cur.at(k)).slice(0, chars));
    }
  });
  return [...out];
}
