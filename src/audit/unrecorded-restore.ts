// Claude Code reads up to five files the agent used last into the context again after a compaction. From 2.1.92 it
// records them as `file` attachments beside the summary (audit-session.ts `besideSummary`, claude-code-attachments.ts);
// no public file of 2.1.88 or before records which (every mirrored session: recorded in each version 2.1.92-2.1.232
// that restored any, never in 1.0.x-2.1.88). The audit cannot tell which files came back, so it says where it cannot.
import type { CompactionEvent, Session } from '../model/types';

/** The first version not known to read files again unrecorded: 2.1.89-2.1.91 were not seen either way. */
const RECORDS_RESTORED_FILES = [2, 1, 89] as const;

/** Is `version` (`2.0.74`) a Claude Code known to read files again unrecorded (2.1.88 or before)? Unknown is not. */
export function restoresUnrecorded(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  for (let k = 0; k < 3; k++) {
    const v = Number(m[k + 1]);
    if (v !== RECORDS_RESTORED_FILES[k]) return v < RECORDS_RESTORED_FILES[k]!;
  }
  return false;
}

/**
 * `restoredUnrecorded` of a compaction's audit: the version of a Claude Code that read files into the context again
 * after this compaction without recording which (a compact, not a microcompaction, with no file attached beside its
 * summary, `restoredAny`).
 */
export function unrecordedRestoreOf(session: Session, event: CompactionEvent, restoredAny: boolean): { restoredUnrecorded?: string } {
  const version = session.meta['version'];
  if (session.format !== 'claude-code' || event.kind !== 'compact' || restoredAny || typeof version !== 'string' || !restoresUnrecorded(version)) return {};
  return { restoredUnrecorded: version };
}
