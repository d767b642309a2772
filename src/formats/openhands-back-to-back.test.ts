import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

// Two condensations with no model call between them, as OpenHands V0 0.48 wrote them in thefaftek-git/tls_scanner
// @df4e7f6f trajectory.json (events 133 and 134: forgotten 8–69, then 8–70, both summary_offset 4; Devstral through
// LM Studio, no cache figures). The fixture is hand-written in that shape, small.
const text = readFileSync(new URL('./__fixtures__/openhands-double-condensation.json', import.meta.url), 'utf8');
const load = () => loadText('trajectory.json', text).sessions[0]!;

describe('openhands: two condensations before one call', () => {
  it("sends only the newest condensation's summary, as View.from_events does", () => {
    const s = load();
    expect(s.compactions.map((c) => [c.id, c.summaryId, c.replacedIds])).toEqual([
      ['c0', 'e17.summary', ['e8.thought', 'e8', 'e9', 'e10.thought', 'e10', 'e11']],
      // The second forgets 8–12 (8–11 again) and takes the place of the first summary.
      ['c1', 'e18.summary', ['e8.thought', 'e8', 'e9', 'e10.thought', 'e10', 'e11', 'e12.thought', 'e12', 'e17.summary']],
    ]);
    const calls = sessionContexts(s).calls;
    expect(calls).toHaveLength(5);
    const summaries = calls.map((c) => c.entries.filter((e) => e.item.kind === 'summary').map((e) => e.item.id));
    expect(summaries).toEqual([[], [], [], ['e18.summary'], ['e18.summary']]);
    expect(calls[3]!.entries.map((e) => e.item.id)).toEqual(['e1', 'e4', 'e18.summary', 'e13', 'e14']);
  });

  it('gives the condensation no call saw alone the last reported prompt before it, and leaves what it left unknown', () => {
    const s = load();
    // No call was sent what the first condensation left: it has no call, and its size after is not known.
    // OpenHands records no size with a condensation: the engine takes the last reported prompt, and says so.
    expect(s.compactions.map((c) => [c.tokensBefore, c.tokensAfter])).toEqual([
      [null, null],
      [null, null],
    ]);
    const a = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) });
    expect(a.compactions.map((c) => [c.call, c.tokensBefore, c.tokensAfter, c.tokensBeforeSource, c.tokensAfterSource])).toEqual([
      [null, 15_890, null, 'reported', null],
      [4, 15_890, 4_662, 'reported', 'reported'],
    ]);
  });

  it('reads the usage a plain reading of the file gives: each model_response once', () => {
    const plain = new Map<string, [number, number]>();
    for (const e of JSON.parse(text) as { tool_call_metadata?: { model_response: { id: string; usage: { prompt_tokens: number; completion_tokens: number } } } }[]) {
      const r = e.tool_call_metadata?.model_response;
      if (r && !plain.has(r.id)) plain.set(r.id, [r.usage.prompt_tokens, r.usage.completion_tokens]);
    }
    const engine = sessionContexts(load()).calls.map((c) => [reportedPromptTokens(c), c.usage!.output]);
    expect(engine).toEqual([...plain.values()]);
    expect(engine).toHaveLength(5);
  });
});
