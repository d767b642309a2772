// The re-fetch tax of compactions: tool calls after a compaction that fetch again what it removed.
export { callTarget, targetKey, type CallTarget } from './call-target';
export { refetchTax, type CompactionRefetch, type Refetch, type RefetchInput } from './refetch-tax';
