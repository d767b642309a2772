// The words before the files Claude Code put back beside a summary, said one way by the panel and the report.
import type { CompactionAudit } from './audit-session';

type Restored = NonNullable<CompactionAudit['restored']>;

/** "Claude Code attached 3 files again and the plan beside the summary; what they hold is not counted lost:" */
export function restoredLead(restored: Restored): string {
  const files = restored.filter((r) => r.kind !== 'plan').length;
  const plan = restored.some((r) => r.kind === 'plan');
  const what = [files === 1 ? 'one file again' : files > 1 ? `${files} files again` : '', plan ? 'the plan' : ''].filter(Boolean).join(' and ');
  return `Claude Code attached ${what} beside the summary; what ${restored.length === 1 ? 'it holds' : 'they hold'} is not counted lost:`;
}
