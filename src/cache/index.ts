// Prompt-cache prefix analysis: public surface.
export { analyzeCachePrefix, type CachePrefixOptions, type CacheReport } from './prefix';
export { reportedCacheable, reportedPromptTokens, ttlOfCall, type ReportedTtl } from './reported';
export {
  ANTHROPIC_LOOKBACK_BLOCKS,
  DEFAULT_TTL_MS,
  ONE_HOUR_TTL_MS,
  PROVIDER_RULES,
  anthropicMinTokens,
  claudeVersion,
  providerOf,
  roundPrefix,
  ruleForApi,
  ruleForCall,
  type ProviderRule,
  type RoundContext,
} from './provider-rules';
export { describeDivergence, type Divergence } from './divergence';
export { isMarkerLike, isMaskedResult, isSummaryLike, structuralCause, type CacheBreakCause } from './cause';
export { DigestCache, hashUnit, headerOf, itemHeader, serializeItem, unitsOf, TOOLS_UNIT_ID, type PromptUnit, type UnitDigest } from './item-hash';
export { naivePrefix, type NaivePrefix } from './naive-prefix';
