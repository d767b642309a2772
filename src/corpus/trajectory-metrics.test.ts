// Expected rows of the three small corpora in __fixtures__, one per research style, counted in words so every
// token figure can be checked by hand. The trajectories imitate the papers' own appendix examples: Self-Sum's
// ALFWorld turns (000), Agent-Omit's WebShop turns (002) and iterated-summarization traces (003).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import type { CorpusRow } from './corpus-row';
import { processCorpusFile, textChunks } from './corpus-stream';
import { trajectoryMetrics } from './trajectory-metrics';
import { auditSession } from '../audit/audit-session';
import { SURVIVAL_KINDS } from '../audit/survival';
import { continuedSession } from '../test/continued-session';

const DIR = join(import.meta.dirname, '__fixtures__');
const words = { count: (t: string) => t.split(/\s+/).filter(Boolean).length, counter: 'words' };

async function rowsOf(file: string): Promise<CorpusRow[]> {
  const rows: CorpusRow[] = [];
  await processCorpusFile(file, textChunks(readFileSync(join(DIR, file)), 97), words, { row: (r) => rows.push(r), issue: () => {} });
  return rows;
}

const none = { thought_omission_turns: [], observation_omission_turns: [], omissions: 0, omitted_thoughts: 0, omitted_observations: 0 };

describe('trajectoryMetrics', () => {
  it('takes output tokens from the file where it reports them, counting only the calls that report none', () => {
    // The Codex fixture reports each call's output (120, 210, 40, 30); a count of the texts would be far less.
    const text = readFileSync(join(import.meta.dirname, '../formats/__fixtures__/codex-rollout.jsonl'), 'utf8');
    const session = loadText('codex-rollout.jsonl', text).sessions[0]!;
    expect(trajectoryMetrics(session, words)).toMatchObject({ turns: 4, output_tokens: 120 + 210 + 40 + 30 });
    // A trajectory that reports nothing keeps the count (the Self-Sum rows below).
  });

  it('carries the responses billed on abandoned branches apart from the turns and their tokens, and the cost with them', () => {
    const text = readFileSync(join(import.meta.dirname, '../formats/__fixtures__/claude-code-off-branch.jsonl'), 'utf8');
    const session = loadText('claude-code-off-branch.jsonl', text).sessions[0]!;
    const row = trajectoryMetrics(session, words);
    expect(row).toMatchObject({ turns: 4, output_tokens: 337, off_branch_responses: 2, off_branch_prompt_tokens: 37709, off_branch_output_tokens: 324 });
    // Sonnet 4.5, every write at the 1-hour price: $3 input, $6 write, $0.30 read, $15 output per million.
    const usd = (i: number, w: number, r: number, o: number) => (i * 3 + w * 6 + r * 0.3 + o * 15) / 1e6;
    const calls = usd(3, 5210, 12004, 96) + usd(1, 812, 17214, 61) + usd(10, 1290, 18759, 142) + usd(6, 310, 20049, 38);
    expect(row.cost_usd).toBeCloseTo(calls + usd(10, 906, 18026, 318) + usd(8, 733, 18026, 6), 5);
  });

  it('measures a Self-Sum corpus: turns, summaries and the turns they fire at, tokens, success and reward', async () => {
    const rows = await rowsOf('self-sum-corpus.jsonl');
    expect(rows.map((r) => [r.id, r.line])).toEqual([
      ['alf_001', 1],
      ['alf_002', 2],
      ['alf_003', 3],
    ]);
    // The summary action and the summary are one agent turn (the third); the summary closes segment 1.
    expect(rows[0]).toMatchObject({ format: 'self-sum', items: 15, turns: 4, tool_calls: 4, summaries: 1, summary_turns: [3], compactions: 1, success: true, reward: 1, ...none });
    // Two summaries in consecutive turns, with no action between them.
    expect(rows[1]).toMatchObject({ items: 11, turns: 4, tool_calls: 2, summaries: 2, summary_turns: [2, 3], success: false, reward: 0.2 });
    // `score` is read as the reward; no success flag means null, not false.
    expect(rows[2]).toMatchObject({ items: 4, turns: 1, summaries: 0, summary_turns: [], tokens_saved: 0, success: null, reward: 0.5 });
    // One call: the context is the task (7 words), the output the thought (4) and the action (4).
    expect(rows[2]).toMatchObject({ total_tokens: 7, peak_context_tokens: 7, output_tokens: 8 });
  });

  it('measures an Agent-Omit corpus folder: omitted thoughts and observations, the turns of each, tokens saved', async () => {
    const [a] = await rowsOf('agent-omit-corpus/webshop-01.json');
    const [b] = await rowsOf('agent-omit-corpus/webshop-02.json');
    // Turn 2 thinks nothing (`<think></think>`); turn 3 omits tool response 1 (8 words, nothing in its place).
    expect(a).toMatchObject({ id: 'webshop-01', line: null, format: 'agent-omit', turns: 3, tool_calls: 3, omissions: 2, thought_omission_turns: [2], observation_omission_turns: [3] });
    expect(a).toMatchObject({ omitted_thoughts: 1, omitted_observations: 1, tokens_saved: 8, summaries: 0, success: null, reward: null });
    expect(b).toMatchObject({ id: 'webshop-02', turns: 2, omissions: 1, thought_omission_turns: [2], observation_omission_turns: [], omitted_observations: 0, tokens_saved: 0, success: false, reward: 0 });
  });

  it('measures a reasoning-trace corpus: one turn per iteration, a summary after each, tokens per context', async () => {
    const [a, b] = await rowsOf('reasoning-trace-corpus.jsonl');
    expect(a).toMatchObject({ id: 'trace_a', line: 1, format: 'reasoning-trace', turns: 2, summaries: 2, summary_turns: [1, 2], success: true, reward: null, ...none });
    // Call 1 sees the question (5); call 2 only the second prompt (48), which restates the question and summary 1.
    expect(a).toMatchObject({ total_tokens: 5 + 48, peak_context_tokens: 48, output_tokens: 21 + 17 });
    // Each summary takes out its iteration's thinking and answer: (17 + 4 − 13) + (13 + 4 − 12).
    expect(a!.tokens_saved).toBe(13);
    expect(b).toMatchObject({ id: 'trace_b', line: 2, turns: 1, summaries: 0, total_tokens: 5, output_tokens: 6, success: false });
  });

  it('uses recorded before/after figures when the file has them and reports provider usage', () => {
    const text = readFileSync(join(import.meta.dirname, '../formats/__fixtures__/claude-code-session.jsonl'), 'utf8');
    const s = loadText('claude-code-session.jsonl', text).sessions[0]!;
    const row = trajectoryMetrics(s, words);
    expect(row).toMatchObject({ format: 'claude-code', turns: 6, summaries: 1, compactions: 2, context_window: 200_000, errors: 2 });
    // The microcompact records 42,000 → 33,000; the compact records only its preTokens, so its saving is
    // counted: the 13 replaced items (102 words) minus the 69-word summary.
    expect(s.compactions.map((c) => [c.kind, c.tokensBefore, c.tokensAfter])).toEqual([
      ['microcompact', 42_000, 33_000],
      ['compact', 48_210, null],
    ]);
    expect(row.tokens_saved).toBe(9_000 + (102 - 69));
    expect(row.reported_input_tokens).toBe(34_116);
    expect(row.lost_identifiers).toBeGreaterThan(0);
  });

  it("carries the summary audit's survival by kind and invented instructions, summed over compactions", () => {
    const text = readFileSync(join(import.meta.dirname, '../formats/__fixtures__/claude-code-session.jsonl'), 'utf8');
    const s = loadText('claude-code-session.jsonl', text).sessions[0]!;
    const row = trajectoryMetrics(s, words) as unknown as Record<string, number>;
    const audits = auditSession(s);
    let evicted = 0;
    for (const kind of SURVIVAL_KINDS) {
      expect([row[`evicted_${kind}`], row[`kept_${kind}`]], kind).toEqual([
        audits.reduce((n, a) => n + a.survival[kind].evicted, 0),
        audits.reduce((n, a) => n + a.survival[kind].kept, 0),
      ]);
      evicted += row[`evicted_${kind}`]!;
    }
    expect(evicted).toBeGreaterThan(0);
    expect(row['invented_instructions']).toBe(audits.reduce((n, a) => n + a.inventedInstructions.length, 0));
    expect(row['summaries_not_judged']).toBe(0);
  });

  it('counts the summaries that read turns the file does not hold, and judges none of their values invented', () => {
    const row = (parent: string, pre: number) => trajectoryMetrics(loadText('d32a8ce8.jsonl', continuedSession(parent, pre)).sessions[0]!, words);
    const continued = row('a790157c-in-the-other-file', 158_881);
    expect([continued.summaries_not_judged, continued.invented_identifiers, continued.invented_instructions]).toEqual([1, 0, 0]);
    const held = row('never-written', 51_600);
    expect(held.summaries_not_judged).toBe(0);
    expect(held.invented_identifiers).toBeGreaterThan(0);
  });

  it('counts every item object once, however many calls send it', () => {
    const s = loadText('t.json', readFileSync(join(DIR, 'agent-omit-corpus/webshop-02.json'), 'utf8')).sessions[0]!;
    const seen: string[] = [];
    trajectoryMetrics(s, { counter: 'spy', count: (t) => (seen.push(t), 1) });
    // 7 items; the last observation arrives after the last call, so no call sends it.
    expect(s.items.length).toBe(7);
    expect(seen.length).toBe(6);
  });
});

describe('trajectoryMetrics on side conversations', () => {
  it('names the session a sidechain file belongs to, so a corpus can count each run once', () => {
    const file = 'claude-code-session.agent-acompact.jsonl';
    const text = readFileSync(join(import.meta.dirname, '../formats/__fixtures__', file), 'utf8');
    const s = loadText(file, text).sessions[0]!;
    expect(trajectoryMetrics(s, words).sidechain_of).toBe('7f3c2a10-5d1e-4c7a-9b21-0c0ffee51200');
    const main = loadText('m.json', readFileSync(join(DIR, 'agent-omit-corpus/webshop-02.json'), 'utf8')).sessions[0]!;
    expect(trajectoryMetrics(main, words).sidechain_of).toBeNull();
  });
});
