// Token meter of the analysis engine: encodings, estimates, exact counters, the content memo and the worker pool.
export { ENCODINGS, isEncodingName, nativeEncoding, pickEncoding, type EncodingChoice, type EncodingName } from './encoding';
export { estimateTokens } from './estimate';
export { DEFAULT_MAX_RUN, splitLongRuns, type RunSplit } from './split-runs';
export { splitAtSeams } from './seams';
export {
  DEFAULT_ENCODER,
  ENCODERS,
  counterFromEncoder,
  createTokenCounter,
  isEncoderId,
  loadEncoder,
  type CounterOptions,
  type EncodeLength,
  type EncoderId,
  type TokenCount,
  type TokenCounter,
} from './counter';
export { loadRankTable, setRankTableSource, type RankTable, type RankTableSource } from './rank-tables';
export { ContentMap, TokenMemo, contentHash, sampleKey, type MemoStats } from './memo';
export {
  DEFAULT_JOB_CHARS,
  createTokenPool,
  type CountOptions,
  type CountProgress,
  type CountReply,
  type CountRequest,
  type PoolOptions,
  type PoolWorker,
  type PoolWorkerHooks,
  type SpawnWorker,
  type TokenPool,
} from './pool';
export { createCountHandler, spawnInline, type CountHandler, type HandlerOptions } from './worker-handler';
export { meterTokens, sumCounts, type MeterOptions, type MeteredCount, type TokenFigures, type TokenMeter } from './meter';
