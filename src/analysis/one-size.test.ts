// Issue 31 #12: one summary, one size. A recorded item is sized once per segment (counted × the fitted scale + its
// framing), the ratio the context view states; the budget bands apply it at every call, the summary's first included,
// and what the reported prompt holds beyond the items is the unrecorded prefix. Where the fit starts over, the view
// says why (a model switch, a new tool list).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { buildAnalysisView } from './analysis-view';

const text = readFileSync(new URL('../cache/__fixtures__/claude-code-compaction-miss.jsonl', import.meta.url), 'utf8');
const count = (t: string) => Math.ceil(t.length / 4);
const view = (body: string) => buildAnalysisView(loadFiles([{ name: 'session.jsonl', bytes: new TextEncoder().encode(body) }]).sessions[0]!, { count });

describe('one summary, one size', () => {
  it('gives the summary the same band at every call after the compaction, its fitted size', () => {
    const v = view(text);
    const c = v.compactions[0]!;
    const after = v.calls.slice(c.call! - 1);
    expect(after.length).toBeGreaterThan(1);
    const size = Math.round(v.tokens.get(c.summaryId!)! * after[0]!.scale + after[0]!.perItem);
    expect(after.map((k) => k.bands.summary)).toEqual(after.map(() => size));
    // The bands still add up to the reported prompt; the rest of it is the unrecorded prefix.
    for (const k of after) expect(Object.entries(k.bands).reduce((n, [b, t]) => (b === 'output' ? n : n + t), 0)).toBe(k.contextTokens);
  });

  it('says where the fitted ratio starts over, and why', () => {
    // The last two calls on another model: a segment of their own.
    let n = 0;
    const switched = text
      .split('\n')
      .map((l) => (l.includes('"type":"assistant"') && ++n >= 4 ? l.replace('"model":"claude-opus-4-6"', '"model":"claude-sonnet-4-5"') : l))
      .join('\n');
    const v = view(switched);
    expect(v.calls.map((k) => k.segment.why)).toEqual([null, null, null, 'the model switched from claude-opus-4-6 to claude-sonnet-4-5', 'the model switched from claude-opus-4-6 to claude-sonnet-4-5']);
    expect(v.calls[4]!.segment.since).toBe(4);
  });
});
