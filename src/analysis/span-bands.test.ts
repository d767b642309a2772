import { describe, expect, it } from 'vitest';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { buildAnalysisView, type CallBands } from './analysis-view';
import type { Item } from '../model/types';
import { RECAP_FLAG, regionFlags, regionsOf, SYSTEM_FLAG } from './regions';
import { bandsFromSpans } from './span-bands';
import type { ViewSpan } from './view-types';

describe('bandsFromSpans', () => {
  it.each(fixtureTranscripts().map((r) => [r.name, r.session] as const))('gives every call of %s the bands its entry list adds up to', (_, s) => {
    const view = buildAnalysisView(s, { count: (t) => t.length, ghosts: false });
    // The view's bands are calibrated against reported usage; each call's factor turns counts into them.
    const roleOf = new Map(view.items.map((it) => [it.id, it.role]));
    for (const call of view.calls) {
      const want: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
      const items: CallBands = { ...want };
      for (const e of call.entries) {
        const role = roleOf.get(e.id);
        // A recap counts in the summary band from its first call on.
        const band = role === 'system' || role === 'developer' ? 'system' : e.isNew && e.region !== 'summary' ? 'newInput' : e.region;
        want[band] += e.tokens;
        items[band]++;
      }
      const keys = (Object.keys(want) as (keyof CallBands)[]).filter((k) => k !== 'tools' && k !== 'output');
      // Each item at its fitted size (counted × scale + framing) where the rest of the prompt is the unrecorded prefix;
      // else the items share the recorded part in proportion.
      const fitted = keys.reduce((n, k) => n + Math.round(want[k] * call.scale + call.perItem * items[k]), 0);
      const counted = call.entries.reduce((n, e) => n + e.tokens, 0);
      const size =
        call.prefixUnrecorded && fitted <= call.contextTokens
          ? (k: keyof CallBands) => want[k] * call.scale + call.perItem * items[k]
          : (k: keyof CallBands) => want[k] * (counted > 0 ? (call.contextTokens - (call.unrecordedPrefixTokens ?? 0)) / counted : 1);
      const got = { ...call.bands, tools: 0, output: 0 };
      // Each band is rounded to whole tokens; the remainder goes to the largest.
      for (const k of keys) expect(Math.abs(got[k] - size(k))).toBeLessThanOrEqual(Object.keys(want).length);
      // The bands add up to the calibrated context.
      const sum = Object.entries(call.bands).reduce((n, [k, v]) => (k === 'output' ? n : n + v), 0);
      expect(sum).toBe(call.contextTokens);
    }
  });
});

/** The straightforward pass: every call scans every span (what the sweep replaced), region rule as regions.ts says. */
function bandsByScan(spans: readonly ViewSpan[], calls: readonly { outputIds: readonly string[] }[], itemOf: (s: ViewSpan) => Item) {
  const sorted = [...spans].sort((a, b) => a.order - b.order);
  // First sent at its first call: no span of its id ended there, and the call before did not write it.
  const fresh = new Set(sorted.filter((s) => s.from > 0 && !spans.some((o) => o.id === s.id && o.to === s.from) && !calls[s.from - 1]!.outputIds.includes(s.id)));
  return calls.map((_, ci) => {
    const sent = sorted.filter((s) => s.from <= ci && ci < s.to);
    const flags = sent.map((s) => regionFlags(itemOf(s)));
    const regions = regionsOf(flags);
    const bands: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
    const items: CallBands = { ...bands };
    let counted = 0;
    sent.forEach((s, k) => {
      const f = flags[k]!;
      counted += s.tokens;
      const band = f & SYSTEM_FLAG ? 'system' : fresh.has(s) && s.from === ci && !(f & RECAP_FLAG) ? 'newInput' : regions[k]!;
      bands[band] += s.tokens;
      items[band]++;
    });
    return { bands, items, counted };
  });
}

describe('bandsFromSpans against a scan of every call', () => {
  it('gives the same bands on hand-made contexts: stacked recaps, system items, masked variants, a first user turn', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed % n;
    };
    const kinds: Pick<Item, 'role' | 'kind'>[] = [
      { role: 'system', kind: 'message' },
      { role: 'user', kind: 'message' },
      { role: 'assistant', kind: 'message' },
      { role: 'assistant', kind: 'tool_call' },
      { role: 'tool', kind: 'tool_result' },
      { role: 'user', kind: 'summary' },
      { role: 'system', kind: 'summary' },
    ];
    for (let round = 0; round < 200; round++) {
      const callCount = 1 + rand(12);
      const spanCount = rand(30);
      const items = new Map<string, Item>();
      const spans: ViewSpan[] = [];
      for (let k = 0; k < spanCount; k++) {
        // Some ids come back in a second span (a masked variant after its original), some spans are empty.
        const id = k > 0 && rand(5) === 0 ? spans[rand(spans.length)]!.id : `i${k}`;
        if (!items.has(id)) {
          const shape = kinds[rand(round % 3 === 0 ? 5 : kinds.length)]!;
          items.set(id, { id, ...shape, text: 'x', tokens: null } as unknown as Item);
        }
        const from = rand(callCount + 1);
        const to = from + rand(callCount + 1 - from);
        spans.push({ id, variant: false, from, to, order: rand(spanCount + 1) + (rand(2) ? 0.5 : 0), tokens: 1 + rand(50) });
      }
      const calls = Array.from({ length: callCount }, () => ({ outputIds: spans.filter(() => rand(8) === 0).map((s) => s.id) }));
      const itemOf = (s: ViewSpan) => items.get(s.id)!;
      expect(bandsFromSpans(spans, calls, itemOf)).toEqual(bandsByScan(spans, calls, itemOf));
    }
  });
});
