export { applyLintRules, lintSession, type LintInput } from './lint-session';
export type { Lint, LintRule } from './lint-types';
export { hasHeader, sectionsPresent, wordCount, SCHEMA_SECTIONS, MAX_SUMMARY_TOKENS, MAX_SUMMARY_WORDS } from './summary-schema';
