// Summary audit: identifiers kept, lost, needed later and invented; instruction-like sentences.
export { extractIdentifiers, looksLikeHost, FILE_EXTENSIONS } from './identifiers';
export type { Identifier, IdentifierKind } from './identifiers';
export { canonicalKey, containsToken, dateSupported, datesMatch, foundIn, haystack, normalizeNumber, parseDate, quantityKey } from './normalize';
export type { DateParts, Haystack } from './normalize';
export { stripHarnessText } from './harness-text';
export { daysOf, isNoise } from './noise';
export { survivalKindOf, SURVIVAL_KINDS, totalSurvival } from './survival';
export type { Survival, SurvivalKind } from './survival';
export { findInstructionLike, isInstructionLike, sentences } from './instructions';
export { auditSummary, distinctIdentifiers } from './audit-summary';
export type { AuditInput, LaterReference, SummaryAudit } from './audit-summary';
export { auditInputFor, auditSession, cwdOf, fetchMetaOf, keptVerbatimOf, laterEntry, renderForAudit } from './audit-session';
export type { CompactionAudit } from './audit-session';
