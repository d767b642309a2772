import { describe, expect, it } from 'vitest';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { buildAnalysisView, type CallBands } from './analysis-view';

describe('bandsFromSpans', () => {
  it.each(fixtureTranscripts().map((r) => [r.name, r.session] as const))('gives every call of %s the bands its entry list adds up to', (_, s) => {
    const view = buildAnalysisView(s, { count: (t) => t.length, ghosts: false });
    // The view's bands are calibrated against reported usage; each call's factor turns counts into them.
    const roleOf = new Map(view.items.map((it) => [it.id, it.role]));
    for (const call of view.calls) {
      const want: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
      for (const e of call.entries) {
        const role = roleOf.get(e.id);
        if (role === 'system' || role === 'developer') want.system += e.tokens;
        else if (e.isNew) want.newInput += e.tokens;
        else want[e.region] += e.tokens;
      }
      const counted = call.entries.reduce((n, e) => n + e.tokens, 0);
      const f = counted > 0 ? (call.contextTokens - call.unrecordedPrefixTokens) / counted : 1;
      const got = { ...call.bands, tools: 0, output: 0 };
      // Each band is rounded to whole tokens; the remainder goes to the largest.
      for (const k of Object.keys(want) as (keyof CallBands)[]) expect(Math.abs(got[k] - want[k] * f)).toBeLessThanOrEqual(Object.keys(want).length);
      // The bands add up to the calibrated context.
      const sum = Object.entries(call.bands).reduce((n, [k, v]) => (k === 'output' ? n : n + v), 0);
      expect(sum).toBe(call.contextTokens);
    }
  });
});
