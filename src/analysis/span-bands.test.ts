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
          : (k: keyof CallBands) => want[k] * (counted > 0 ? (call.contextTokens - call.unrecordedPrefixTokens) / counted : 1);
      const got = { ...call.bands, tools: 0, output: 0 };
      // Each band is rounded to whole tokens; the remainder goes to the largest.
      for (const k of keys) expect(Math.abs(got[k] - size(k))).toBeLessThanOrEqual(Object.keys(want).length);
      // The bands add up to the calibrated context.
      const sum = Object.entries(call.bands).reduce((n, [k, v]) => (k === 'output' ? n : n + v), 0);
      expect(sum).toBe(call.contextTokens);
    }
  });
});
