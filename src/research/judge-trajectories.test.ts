import { describe, expect, it } from 'vitest';
import { countWords } from '../cache/test-builders';
import { modelCalls } from '../analysis/calls';
import { rerunSession } from '../compaction/rerun';
import { createJudge, type JudgeMessage } from '../corpus/judge';
import { judgedSummaries, rerunTrajectory } from './judge-trajectories';
import { demoSession } from './test-support';

const REPLY = JSON.stringify({
  summary_timing: { necessity: 4, timeliness: 4, task_awareness: 5, avoidance_of_redundancy: 5 },
  summary_content_quality: { coverage_of_critical_information: 3, faithfulness_to_observations: 5, abstraction_level: 4, future_utility: 4 },
  overall_score: 4,
  justification: 'ok',
});

describe('rerunTrajectory', () => {
  it('puts the re-run summaries where it compacted, with no recorded summary or restating turn left', async () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = await rerunSession(s, { strategy: 'summarize-middle', trigger: { kind: 'turns', every: 6 }, count: countWords, rule: 'exact' });
    expect(r.events.length).toBeGreaterThan(1);
    const t = rerunTrajectory(s, r.events);
    const summaries = judgedSummaries(t);
    expect(summaries.map((x) => x.text)).toEqual(r.events.map((e) => e.summaryText));
    for (const id of ['m24.summary', 'm34.summary', 'm25', 'm35', 'm22.call', 'm23']) expect(t.items.some((it) => it.id === id), id).toBe(false);
    // Each re-run summary sits right before the first thing its call wrote.
    const calls = modelCalls(s);
    for (const e of r.events) {
      const at = t.items.findIndex((it) => it.id === e.summaryId);
      const next = t.items.slice(at + 1).find((it) => it.kind !== 'summary')!;
      // (Or, when the recorded policy wrote all of that call, the first turn kept after it.)
      const from = s.items.findIndex((it) => it.id === calls[e.callIndex]!.itemIds[0]);
      const firstKept = s.items.slice(from).find((it) => t.items.some((x) => x.id === it.id))!;
      expect(next.id).toBe(firstKept.id);
    }
  });

  it('lets the Self-Sum judge score the recorded and the re-run summaries on one rubric', async () => {
    const s = demoSession('alfworld-self-sum.json');
    const r = await rerunSession(s, { strategy: 'summarize-middle', trigger: { kind: 'turns', every: 6 }, count: countWords, rule: 'exact' });
    const sent: JudgeMessage[][] = [];
    const judge = createJudge({ model: 'm', complete: async (m) => (sent.push(m), { ok: true, text: REPLY }) });
    const recorded = await judge.judge(s);
    const rerun = await judge.judge(rerunTrajectory(s, r.events));
    expect(recorded.ok && rerun.ok).toBe(true);
    expect(sent).toHaveLength(2);
    const [a, b] = sent.map((m) => m[0]!.content);
    expect(a).toContain(`SUMMARY: ${s.items.find((it) => it.id === 'm24.summary')!.text}`);
    expect(b).not.toContain(s.items.find((it) => it.id === 'm24.summary')!.text);
    expect(b).toContain(`SUMMARY: ${r.events[0]!.summaryText}`);
  });

  it('gives a trajectory without re-run summaries nothing to judge', async () => {
    const s = demoSession('alfworld-self-sum.json');
    const judge = createJudge({ model: 'm', complete: async () => ({ ok: true, text: REPLY }) });
    expect(await judge.judge(rerunTrajectory(s, []))).toEqual({ ok: false, key: null, reason: 'the trajectory has no summary to judge' });
  });
});
