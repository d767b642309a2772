// Re-running compaction: strategies, triggers, prompts, the offline summarizer, rerun and sweep.
export type { SummarizeFailure, SummarizeRequest, SummarizeResult, Summarizer } from './summarizer';
export type { CompactionDeps, CompactionFallback, CompactionOutcome, ReplacementLabel, StrategyFn, SummarizerCall } from './types';
export {
  ANSWER_ONLY_TEMPLATE,
  DEFAULT_PROMPTS,
  ITERATED_BACKTRACKING_PROMPT,
  ITERATED_BASE_PROMPT,
  ITERATED_BLOCK_TEMPLATE,
  ITERATED_SYSTEM_PROMPT,
  MASK_PLACEHOLDER,
  SCHEMA_HEADER,
  SCHEMA_SYSTEM_PROMPT,
  SCHEMA_USER_PROMPT,
  TRUNCATION_MARKER,
  XML_SYSTEM_PROMPT,
  XML_USER_PROMPT,
  fillPrompt,
  placeholdersOf,
  type PromptId,
  type PromptInfo,
} from './prompts';
export { cutSplitsPair, pairGroups, pairSpans, safeCut, splitPairs } from './tool-pairs';
export { isRecap, layout, stepStarts, turnStarts, type Layout, type LayoutParams, type TurnUnit, type TurnUnitChoice } from './layout';
export { renderSlice, type SliceRender } from './render-slice';
export { DEFAULT_TRIGGER, describeTrigger, parseTrigger, shouldFire, tokenLimit, type Trigger, type TriggerDecision, type TriggerState } from './triggers';
export { OFFLINE_MAX_WORDS, offlineSummarizer, offlineSummary } from './offline-summarizer';
export { billTotals, cacheBilling, modelledBill, priceCall, reportedBill, type BillTotals, type CacheBilling, type CallBill } from './prompt-bill';
export { ReplayMeter, type MeasureSource, type PromptMeasure } from './replay-meter';
export { dropOldest, DROP_OLDEST_DEFAULTS, type DropOldestParams } from './strategies/drop-oldest';
export { summarizeMiddle, SUMMARIZE_MIDDLE_DEFAULTS, type SummarizeMiddleParams, type SummaryRender } from './strategies/summarize-middle';
export { observationMasking, OBSERVATION_MASKING_DEFAULTS, type ObservationMaskingParams } from './strategies/observation-masking';
export { omission, OMISSION_DEFAULTS, EMPTY_THOUGHT, omittedPlaceholder, type OmissionParams } from './strategies/omission';
export { iterated, ITERATED_DEFAULTS, ITERATED_METHODS, type IteratedMethod, type IteratedParams } from './strategies/iterated';
export {
  STRATEGIES,
  STRATEGY_DEFAULTS,
  STRATEGY_IDS,
  effectivePrompts,
  isStrategyId,
  resolveParams,
  runStrategy,
  strategyInfo,
  type AnyStrategyParams,
  type EffectivePrompt,
  type ParamSpec,
  type StrategyId,
  type StrategyInfo,
  type StrategyParamsMap,
} from './strategy-registry';
export { originalBaseline, type OriginalBaseline, type RecordedCompaction } from './baseline';
export type { CallFigures, IdentifierTotals, SideMetrics } from './metrics';
export { newItemsPerCall, recordedMatches, rerunSession, type FireWindow, type RecordedMatch, type RecordedProbes, type RerunCall, type RerunEvent, type RerunOptions, type RerunProgress, type RerunResult, type RerunStatus } from './rerun';
export { gridCombinations, sweepSession, type GridValue, type SweepOptions, type SweepResult, type SweepRow } from './sweep';
export * from './policies';
export { auditColumns, LaterToolText, type AuditColumns, type Survival } from './audit-columns';
export { COMPARE_POLICIES, comparePolicies, corpusComparison, CORPUS_FIELDS, fireText, type CompareOptions, type CorpusField, type CorpusPolicyRow, type PolicyComparison, type PolicyRow } from './policy-compare';
