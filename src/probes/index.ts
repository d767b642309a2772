// Probes: questions generated from what a compaction evicted, scored offline from the summary and, with an
// endpoint, answered twice and judged.
export { generateProbes, PROBE_KINDS, type Probe, type ProbeInput, type ProbeKey, type ProbeKind } from './generate';
export { kindScores, mergeKindScores, scoreOffline, type KindScores, type ProbeScore } from './offline';
export { answerMessages, judgeMessages, judgeProbe, parseProbeScore, renderItems, PROBE_ANSWER_SYSTEM, PROBE_JUDGE_SYSTEM, type ProbeComplete, type ProbeJudgement, type ProbeMaterial, type ProbeMessage, type ProbeStore } from './judge';
