// A replay measures its prompt by the provider's reported figures, not by our calibrated count: on a hand-made
// Claude Code session whose counted and reported sizes differ by 4 % near the threshold, the trigger fires where
// the reported prompt crosses it.
import { describe, expect, it } from 'vitest';
import { countedPerCall } from '../analysis/counted-tokens';
import { sessionContexts } from '../analysis/session-analysis';
import { countWords } from '../cache/test-builders';
import { loadText } from '../load/loader';
import type { Session } from '../model/types';
import { originalBaseline } from './baseline';
import { rerunSession } from './rerun';

const SESSION = '00000000-0000-4000-8000-000000000032';

/** A Claude Code session: one user request, then per call a Bash tool use and its result of `words[k]` words. */
function claudeCodeSession(words: number[], reported: (k: number) => number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  const push = (rec: Record<string, unknown>) => {
    const uuid = `r-${lines.length}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, sessionId: SESSION, version: '2.1.39', cwd: '/work', uuid, timestamp: new Date(Date.UTC(2026, 2, 2, 2, 0, lines.length)).toISOString(), ...rec }));
    parent = uuid;
  };
  push({ type: 'user', message: { role: 'user', content: 'Run the migration steps one by one and report.' } });
  words.forEach((n, k) => {
    const prompt = reported(k);
    push({ type: 'assistant', requestId: `req_${k}`, message: { model: 'claude-opus-4-6', id: `msg_${k}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `tu_${k}`, name: 'Bash', input: { command: `step ${k}` } }], usage: { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: prompt - 4, output_tokens: 20 } } });
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu_${k}`, content: Array.from({ length: n }, (_, i) => `w${k}_${i}`).join(' ') }] } });
  });
  return lines.join('\n');
}

function load(text: string): Session {
  return loadText('session.jsonl', text).sessions[0]!;
}

describe('a replay fed the reported prompt', () => {
  // 42 calls; from call 31 (1-based) on, the provider reports 4 % more than the items explain (a reminder the file
  // never records), and the outputs grow slowly: counting alone crosses a threshold calls after the provider did.
  const words = [...Array(30).fill(150), ...Array(12).fill(20)];
  const counted = countedPerCall(sessionContexts(load(claudeCodeSession(words, () => 1000))), countWords).tokens;
  const reported = (k: number) => Math.round((500 + counted[k]!) * (k >= 30 ? 1.04 : 1));
  const session = load(claudeCodeSession(words, reported));
  const threshold = 5200;

  it('fires where the reported figure crosses the threshold, not where the calibrated count does', async () => {
    const cal = originalBaseline(session, { count: countWords }).calibration.calls;
    const firstReported = cal.findIndex((c) => c.reportedPrompt! >= threshold);
    const firstModelled = cal.findIndex((c) => c.modelledTokens >= threshold);
    expect(firstReported).toBe(30);
    // The counted size, calibrated on the whole session, is about 4 % short there and crosses calls later.
    expect((cal[30]!.reportedPrompt! - cal[30]!.modelledTokens) / cal[30]!.reportedPrompt!).toBeGreaterThan(0.035);
    expect(firstModelled).toBeGreaterThanOrEqual(firstReported + 2);

    const r = await rerunSession(session, { strategy: 'claude-code-compact', trigger: { kind: 'tokens', threshold }, count: countWords });
    expect(r.events[0]!.callIndex).toBe(firstReported);
    // The trigger was fed the provider's figure: no estimate, no band.
    expect(r.calls[firstReported]!.measuredBefore).toBe(reported(firstReported));
    expect(r.calls[firstReported]!.measureSource).toBe('reported');
    expect(r.events[0]!.band).toBe(0);
    expect(r.events[0]!.fireWindow).toEqual({ early: firstReported, late: firstReported });
    for (const c of r.calls.slice(0, firstReported)) expect(c.measuredBefore).toBe(reported(c.index));
  });

  it('after its own compaction measures the recorded prompt less what it removed plus what it inserted, with a band', async () => {
    const r = await rerunSession(session, { strategy: 'claude-code-compact', trigger: { kind: 'tokens', threshold }, count: countWords });
    const k = r.events[0]!.callIndex + 1;
    const c = r.calls[k]!;
    expect(c.measureSource).toBe('anchored');
    expect(c.band).toBeGreaterThan(0);
    // Far below the recorded prompt: most of the history went into one summary.
    expect(c.measuredBefore).toBeLessThan(reported(k) / 2);
    // The unrecorded prefix the provider reported (500 tokens and the 4 %) stays in the figure.
    expect(c.measuredBefore).toBeGreaterThan(500);
  });
});
