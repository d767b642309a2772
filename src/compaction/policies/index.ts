// Harness compaction policies: presets over the strategies, and the harness strategies themselves.
export { POLICIES, POLICY_IDS, isPolicyId, policyForFormat, policyDefaults, policyDefaultsRule, policyInfo, policySession, policyValues, resolvePolicy, type PolicyId, type PolicySession, type PolicyPreset, type PolicyValues, type ResolvedPolicy } from './presets';
export { CLAUDE_CODE_DEFAULTS, claudeCodeCompact, recentFileReads, type ClaudeCodeParams } from './claude-code';
export { CODEX_DEFAULTS, codexCompact, isInitialContext, type CodexParams } from './codex';
export { OPENHANDS_DEFAULTS, openhandsCondense, type OpenHandsParams } from './openhands';
export { INSPECT_EDIT_PLACEHOLDER, INSPECT_TRIM_DEFAULTS, inspectTrim, type InspectTrimParams } from './inspect';
export { SERVER_COMPACT_DEFAULTS, serverCompact, type ServerCompactParams } from './anthropic-server';
