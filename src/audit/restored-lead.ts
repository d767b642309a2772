// The words before the files Claude Code put back beside a summary, and the caveat where it put some back unrecorded,
// said one way by the panel, the report and `check`.
import type { CompactionAudit } from './audit-session';

type Restored = NonNullable<CompactionAudit['restored']>;

/** "Claude Code attached 3 files again and the plan beside the summary; what they hold is not counted lost:" */
export function restoredLead(restored: Restored): string {
  const files = restored.filter((r) => r.kind !== 'plan').length;
  const plan = restored.some((r) => r.kind === 'plan');
  const what = [files === 1 ? 'one file again' : files > 1 ? `${files} files again` : '', plan ? 'the plan' : ''].filter(Boolean).join(' and ');
  return `Claude Code attached ${what} beside the summary; what ${restored.length === 1 ? 'it holds' : 'they hold'} is not counted lost:`;
}

/**
 * Claude Code reads the files the agent used last into the context again after compacting (up to five); up to 2.1.88
 * it did so without recording which (claude-code-attachments.ts), so what they held may be listed lost here.
 */
export function unrecordedRestoreNote(version: string): string {
  return `Claude Code ${version} reads up to five files the agent used last into the context again after compacting, and does not record which: values of those files may be listed lost.`;
}

/** The version whose note a session's audits carry (every compaction of it alike), said once by each view. */
export function unrecordedRestoreVersion(audits: readonly ({ restoredUnrecorded?: string } | null | undefined)[]): string | undefined {
  return audits.find((a) => a?.restoredUnrecorded)?.restoredUnrecorded;
}
