// Research metrics per trajectory (Self-Sum, Agent-Omit, iterated summarization), shared by the inspector's
// research panels and corpus mode.
export { agentTurns, type AgentTurn } from './agent-turns';
export { itemCounter, type CountText, type TokenSource } from './token-source';
export { selfSumSegments, type FedSummary, type SelfSumReport, type SelfSumSegment, type SelfSumStep, type SelfSumStepKind, type SelfSumSummary } from './self-sum-metrics';
export { agentOmitStats, type AgentOmitStats, type ObservationRecord, type OmitRefProblem, type OmitTurn } from './agent-omit-metrics';
export { iterationStats, type IterationRow, type IterationStats, type IterationTotals } from './iteration-metrics';
export { omitCell, percentShares, SHARE_ORDER, stripCells, turnShareStack, turnShareTotal, type OmitCell, type ShareKey, type ShareMode, type ShareSegment, type StripCell } from './research-charts';
export { sentCalls, callByOutput, type SentCall } from './call-contexts';
export { judgedSummaries, rerunTrajectory, type RerunSummary } from './judge-trajectories';
