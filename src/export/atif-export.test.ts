import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../analysis/analysis-view';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles, loadText } from '../load/loader';
import { atifText, atifTrajectory } from './atif-export';

const count = (t: string) => Math.ceil(t.length / 4);
const fixture = (name: string) => ({ name, bytes: readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url)) });

function analysed(...names: string[]) {
  const session = loadFiles(names.map(fixture)).sessions[0]!;
  return { session, view: buildAnalysisView(session, { count, ghosts: false }) };
}

describe('ATIF export', () => {
  it('writes a Claude Code session as a trajectory our ATIF reader (and Harbor) reads: a step per call with its usage', () => {
    const { session, view } = analysed('claude-code-session.jsonl', 'claude-code-session.agent-acompact.jsonl');
    const back = loadText('session.atif.json', atifText([{ session, view }], { version: 't' }));
    expect(back.issues).toEqual([]);
    const s = back.sessions[0]!;
    expect([s.format, s.id, s.model, s.meta['schema_version'], s.meta['agent']]).toEqual(['atif', session.id, session.model, 'ATIF-v1.6', 'claude-code']);
    // Every model call is an agent step; prompt_tokens is the whole prompt (the cache inside it), cached_tokens the read.
    expect(s.responses.map((r) => [r.usage?.input, r.usage?.cacheRead, r.usage?.output])).toEqual(view.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.output]));
    // The cache write travels in metrics.extra and comes back inside the same prompt: the same usage, call by call.
    const again = buildAnalysisView(s, { count, ghosts: false });
    expect(again.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.cacheWrite])).toEqual(view.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.cacheWrite]));
    expect(view.calls.every((c) => (c.usage?.cacheWrite ?? 0) > 0)).toBe(true);
    expect(sessionContexts(s).calls).toHaveLength(view.calls.length);
    const t = atifTrajectory(session, view);
    expect(t.extra['compactions']).toEqual([
      { kind: 'microcompact', trigger: 'auto', before_step: 8, tokens_before: 42000, tokens_after: 33000, replaced_items: 2 },
      { kind: 'compact', trigger: 'manual', before_step: 10, tokens_before: 48210, tokens_after: 3805, replaced_items: 13 },
    ]);
    // The /compact comes back as a context-management step with its summary as the handoff the next agent read; the
    // microcompact, which has no summary, is listed in the trajectory's extra.
    expect(s.compactions.map((c) => c.trigger)).toEqual(['compaction']);
    const summary = s.items.find((i) => i.id === s.compactions[0]!.summaryId)!;
    expect(summary.text).toMatch(/^This session is being continued from a previous conversation/);
  });

  it('pairs each tool result with the step that called the tool, and keeps the transcript after the last call', () => {
    const { session, view } = analysed('claude-code-session.jsonl');
    const t = atifTrajectory(session, view);
    const withCalls = t.steps.filter((s) => s.tool_calls?.length);
    expect(withCalls.length).toBeGreaterThan(0);
    for (const step of withCalls) {
      const ids = step.tool_calls!.map((c) => c.tool_call_id);
      for (const r of step.observation?.results ?? []) expect(ids).toContain(r.source_call_id);
    }
    // Nothing the session holds is left out: every item is a step, a call, a result or a step's text.
    const texts = JSON.stringify(t.steps);
    for (const it of session.items.filter((i) => i.kind === 'message' && i.text.length > 20)) expect(texts).toContain(JSON.stringify(it.text.slice(0, 20)).slice(1, -1));
    expect(t.final_metrics.total_steps).toBe(t.steps.length);
    expect(t.final_metrics.total_prompt_tokens).toBe(view.facts.reportedInputTokens);
  });

  it("writes a session whose calls come from a request log once: the transcript beside it adds no steps, and each compaction's summary is the handoff the next call reads", () => {
    const demo = (f: string) => ({ name: f, bytes: readFileSync(new URL(`../../public/demos/${f}`, import.meta.url)) });
    const session = loadFiles(['coding-agent.transcript.json', 'coding-agent.compaction-log.jsonl', 'coding-agent.requests.jsonl'].map(demo)).sessions[0]!;
    const view = buildAnalysisView(session, { count, ghosts: false });
    const t = atifTrajectory(session, view);
    // One agent step per call, each with its usage; the summaries are user steps right after their system step.
    expect(t.steps.filter((s) => s.source === 'agent')).toHaveLength(view.calls.length);
    expect(t.steps.filter((s) => s.source === 'agent').every((s) => s.metrics?.prompt_tokens !== undefined)).toBe(true);
    const handoffs = t.steps.flatMap((s, k) => (s.extra?.['context_management'] ? [t.steps[k + 1]!.source] : []));
    expect(handoffs).toEqual(['user', 'user']);
    const back = loadText('demo.atif.json', atifText([{ session, view }])).sessions[0]!;
    const again = buildAnalysisView(back, { count, ghosts: false });
    expect(again.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.output])).toEqual(view.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.output]));
    // The two summarizing compactions come back before the same calls.
    expect(again.compactions.map((c) => c.call)).toEqual(view.compactions.map((c) => c.call));
  });

  it('keeps the cache write split by lifetime, so each miss costs the same read back', () => {
    const { session, view } = analysed('claude-code-cache-forensics.jsonl');
    expect(view.calls.some((c) => (c.usage?.cacheWrite1h ?? 0) > 0)).toBe(true);
    const back = loadText('cf.atif.json', atifText([{ session, view }])).sessions[0]!;
    const again = buildAnalysisView(back, { count, ghosts: false });
    const usage = (v: typeof view) => v.calls.map((c) => [c.reportedPrompt, c.usage?.cacheRead, c.usage?.cacheWrite, c.usage?.cacheWrite5m, c.usage?.cacheWrite1h]);
    expect(usage(again)).toEqual(usage(view));
    expect(again.cache.map((r) => [r.cacheBreak, r.missTokens, r.missCostUsd])).toEqual(view.cache.map((r) => [r.cacheBreak, r.missTokens, r.missCostUsd]));
  });

  it('writes several sessions as JSONL, one trajectory per line', () => {
    const a = analysed('otlp-genai-pydantic-ai.json');
    const b = analysed('otlp-genai-events.json');
    const lines = atifText([a, b]).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { session_id: string }).session_id)).toEqual([a.session.id, b.session.id]);
  });
});
