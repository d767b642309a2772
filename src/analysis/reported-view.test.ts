// The first view's figures (from reported usage alone) are the final ones wherever the provider reported them.
import { expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import type { Session } from '../model/types';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { describeSamples, readSample } from '../test/shared-samples';
import { estimateTokens } from '../tokens';
import { analyzeSession } from './analyze-session';
import { reportedView } from './reported-view';

function agrees(session: Session): void {
  const r = reportedView(session)!;
  const a = analyzeSession(session, { count: (t) => estimateTokens(t, 'o200k_base'), defer: ['audits', 'lints'] });
  const f = a.facts;
  expect(r.calls.map((c) => [c.id, c.compactionId])).toEqual(a.contexts.calls.map((c) => [c.id, c.compactionId]));
  expect(r.figures.calls).toBe(f.calls);
  expect(r.figures.compactions).toBe(f.compactions.total);
  expect(r.figures.hitRate).toBe(f.cache?.hitRate ?? null);
  expect([r.figures.reportedInputTokens, r.figures.reportedCalls, r.figures.reportedOutputTokens, r.figures.models]).toEqual([f.reportedInputTokens, f.reportedCalls, f.reportedOutputTokens, f.models]);
  // A peak only where every call reported its prompt: then it is the final, reported one.
  if (r.figures.peak) expect([r.figures.peak.tokens, r.figures.peak.call, f.peakSource]).toEqual([f.peakContextTokens, f.peakCall, 'reported']);
  else expect(f.peakSource === 'reported' && a.calibration.calls.every((c) => c.reportedPrompt !== null && c.reportedPrompt > 0)).toBe(false);
}

it('gives the final calls, compactions, hit rate and reported sums on every fixture transcript', () => {
  const all = fixtureTranscripts();
  expect(all.length).toBeGreaterThan(10);
  for (const { name, session } of all) {
    try {
      agrees(session);
    } catch (e) {
      throw new Error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
});

it('leaves a request log to the analysis (its calls come from comparing the requests)', () => {
  const log = JSON.stringify({ request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, response: { choices: [{ message: { role: 'assistant', content: 'hello' } }], usage: { prompt_tokens: 9, completion_tokens: 2 } } });
  const session = loadFiles([{ name: 'log.jsonl', bytes: new TextEncoder().encode(`${log}\n`) }]).sessions[0]!;
  expect(session.requests.length).toBeGreaterThan(0);
  expect(reportedView(session)).toBeNull();
});

describeSamples('the reported view on the shared samples', () => {
  it.each([['claude-code-compacted.jsonl'], ['claude-code-short.jsonl'], ['claude-code-tool-heavy.jsonl'], ['codex-rollout-cache.jsonl'], ['codex-rollout-tiny.jsonl']])('agrees with the analysis on %s', (name) => {
    const session = loadFiles([readSample(name)]).sessions[0]!;
    agrees(session);
    // The 3 MB sample: one compaction, a cache hit rate and a reported peak, all before any count.
    if (name === 'claude-code-compacted.jsonl') {
      const r = reportedView(session)!;
      expect(r.figures.compactions).toBe(1);
      expect(r.figures.hitRate).not.toBeNull();
      expect(r.calls.filter((c) => c.compactionId).length).toBe(1);
    }
  });
});
