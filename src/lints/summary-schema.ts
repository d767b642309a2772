// The course's summary schema: a load-bearing header and four sections.
import { SCHEMA_HEADER } from '../model/markers';

export const SCHEMA_SECTIONS = ['Decisions', 'Entities', 'Facts', 'Open Items'] as const;

export const MAX_SUMMARY_WORDS = 200;
export const MAX_SUMMARY_TOKENS = 512;

export function hasHeader(text: string): boolean {
  return text.trimStart().startsWith(SCHEMA_HEADER);
}

/** Sections present, matched as `**Decisions:**`, `Decisions:` or `### Decisions` at a line start. */
export function sectionsPresent(text: string): string[] {
  return SCHEMA_SECTIONS.filter((name) => new RegExp(`^\\s*(?:[-*]\\s*)?(?:\\*\\*|#+\\s*)?${name}\\s*:?(?:\\*\\*)?\\s*:?`, 'mi').test(text));
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
