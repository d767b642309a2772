import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { splitCorpusJsonl, loadCorpusLine } from './corpus-jsonl';
import { createJudge, JUDGE_RUBRIC, JudgeCache, judgeKey, judgeMessages, parseJudgeReply, renderTrajectory, sampleIndices, type JudgeMessage, type JudgeScores, type JudgeStore } from './judge';

const DIR = join(import.meta.dirname, '__fixtures__');
const lines = splitCorpusJsonl(readFileSync(join(DIR, 'self-sum-corpus.jsonl'), 'utf8'));
const session = (i: number) => loadCorpusLine('c.jsonl', lines[i]!.line, lines[i]!.text).sessions[0]!;

const REPLY = `Here is my evaluation.
"""json {"summary_timing": {"necessity": 4, "timeliness": 5, "task_awareness": 4, "avoidance_of_redundancy": 3},
 "summary_content_quality": {"coverage_of_critical_information": 5, "faithfulness_to_observations": "5", "abstraction_level": 4, "future_utility": 4},
 "overall_score": 4, "justification": "Summarized right after taking the mug {as a subgoal}."} """`;

describe('JUDGE_RUBRIC', () => {
  it('is the paper\'s Table 10 prompt with its eight criteria and the trajectory slot', () => {
    expect(JUDGE_RUBRIC).toMatch(/^You are an expert evaluator of long-horizon language agents\./);
    for (const c of ['Necessity', 'Timeliness', 'Task Awareness', 'Avoidance of Redundancy', 'Coverage of Critical Information', 'Faithfulness to Observations', 'Abstraction Level', 'Future Utility']) {
      expect(JUDGE_RUBRIC).toContain(`${c}:`);
    }
    expect(JUDGE_RUBRIC.endsWith('The trajectory is as follows:\n{trajectory}')).toBe(true);
    expect(JUDGE_RUBRIC).not.toContain('{{');
  });
});

describe('renderTrajectory', () => {
  it('writes one line per item with its step and what it is, summaries included', () => {
    const text = renderTrajectory(session(0));
    expect(text.split('\n').slice(0, 4)).toEqual([
      '[step 0] system: You are an agent in ALFWorld. Think inside <think></think>, act inside <action></action>, choose <action>summary</action> to summarize.',
      '[step 0] user: Your task is to put a clean mug on the desk.',
      '[step 1] agent think: The mug is on the counter.',
      '[step 1] agent action: go to countertop 1',
    ]);
    expect(text).toContain('[step 3] SUMMARY: Holding mug 1 from countertop 1. Next: clean it at sinkbasin 1.');
  });

  it('cuts long items in the middle to fit, never the summary', () => {
    const s = session(0);
    s.items[1]!.text = `START ${'x'.repeat(5000)} END`;
    const text = renderTrajectory(s, { maxChars: 1500 });
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(text).toMatch(/START x+ … \[\d+ characters cut\] … x+ END/);
    expect(text).toContain('SUMMARY: Holding mug 1 from countertop 1. Next: clean it at sinkbasin 1.');
  });

  it('puts the rendering into the rubric as the one user message', () => {
    const m = judgeMessages('T$&T');
    expect(m).toHaveLength(1);
    expect(m[0]!.content.endsWith('The trajectory is as follows:\nT$&T')).toBe(true);
  });
});

describe('parseJudgeReply', () => {
  it('reads the eight scores past the preamble and fence, and averages timing and content', () => {
    const r = parseJudgeReply(REPLY);
    expect(r).toEqual({
      ok: true,
      scores: {
        timing: 4,
        content: 4.5,
        overall: 4,
        criteria: { necessity: 4, timeliness: 5, task_awareness: 4, avoidance_of_redundancy: 3, coverage_of_critical_information: 5, faithfulness_to_observations: 5, abstraction_level: 4, future_utility: 4 },
        justification: 'Summarized right after taking the mug {as a subgoal}.',
      },
    });
  });

  it('names what is missing or out of range, and replies with no JSON', () => {
    expect(parseJudgeReply('{"summary_timing": {"necessity": 7}}')).toEqual({
      ok: false,
      reason:
        'missing or out-of-range scores (1–5 expected): summary_timing.necessity, summary_timing.timeliness, summary_timing.task_awareness, summary_timing.avoidance_of_redundancy, summary_content_quality.coverage_of_critical_information, summary_content_quality.faithfulness_to_observations, summary_content_quality.abstraction_level, summary_content_quality.future_utility',
    });
    expect(parseJudgeReply('I cannot judge this.')).toEqual({ ok: false, reason: 'the reply holds no JSON object' });
    expect(parseJudgeReply('{"a": }')).toMatchObject({ ok: false, reason: expect.stringMatching(/^the reply's JSON does not parse/) });
  });
});

describe('createJudge', () => {
  it('asks once per trajectory and model, then answers from the cache', async () => {
    const sent: JudgeMessage[][] = [];
    const judge = createJudge({ model: 'm', complete: async (m) => (sent.push(m), { ok: true, text: REPLY }) });
    const a = await judge.judge(session(0));
    const b = await judge.judge(session(0));
    expect(a).toMatchObject({ ok: true, cached: false, scores: { timing: 4, content: 4.5 } });
    expect(b).toMatchObject({ ok: true, cached: true, key: a.key });
    expect(sent).toHaveLength(1);
    expect(sent[0]![0]!.content).toContain('SUMMARY: Holding mug 1');
    expect(a.key).toBe(await judgeKey('m', renderTrajectory(session(0))));
  });

  it('keys by the summaries and their trajectory: another summary is judged again', async () => {
    let calls = 0;
    const cache = new JudgeCache();
    const judge = createJudge({ model: 'm', cache, complete: async () => (calls++, { ok: true, text: REPLY }) });
    const s = session(0);
    await judge.judge(s);
    s.items.find((it) => it.kind === 'summary')!.text = 'Holding mug 2.';
    await judge.judge(s);
    expect(calls).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('reads and writes through an injected store', async () => {
    const stored = new Map<string, JudgeScores>();
    const store: JudgeStore = { get: async (k) => stored.get(k), set: async (k, v) => void stored.set(k, v) };
    await createJudge({ model: 'm', cache: new JudgeCache(store), complete: async () => ({ ok: true, text: REPLY }) }).judge(session(0));
    expect(stored.size).toBe(1);
    const again = await createJudge({ model: 'm', cache: new JudgeCache(store), complete: async () => ({ ok: false, reason: 'offline' }) }).judge(session(0));
    expect(again).toMatchObject({ ok: true, cached: true });
  });

  it('returns failures as values: endpoint failures, unreadable replies, trajectories without summaries', async () => {
    const failing = createJudge({ model: 'm', complete: async () => ({ ok: false, reason: 'HTTP 401: bad key' }) });
    expect(await failing.judge(session(0))).toMatchObject({ ok: false, reason: 'HTTP 401: bad key' });
    const garbled = createJudge({ model: 'm', complete: async () => ({ ok: true, text: 'no idea' }) });
    expect(await garbled.judge(session(0))).toMatchObject({ ok: false, reason: 'the reply holds no JSON object' });
    expect(await garbled.judge(session(2))).toEqual({ ok: false, key: null, reason: 'the trajectory has no summary to judge' });
    const plain = loadText('p.json', readFileSync(join(DIR, 'agent-omit-corpus/webshop-02.json'), 'utf8')).sessions[0]!;
    expect((await garbled.judge(plain)).ok).toBe(false);
  });
});

describe('sampleIndices', () => {
  it('spreads a fixed-size sample over the list, the same for the same seed', () => {
    expect(sampleIndices(10, 3, 0)).toEqual([0, 3, 6]);
    expect(sampleIndices(10, 3, 1)).toEqual([1, 4, 7]);
    expect(sampleIndices(3, 5)).toEqual([0, 1, 2]);
    expect(sampleIndices(5, 0)).toEqual([]);
    expect(new Set(sampleIndices(1000, 50, 7)).size).toBe(50);
  });
});
