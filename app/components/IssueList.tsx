// The one place load problems are shown: file, line and field for each.
import type { ParseIssue } from '../../src/model/types';
import type { LoadReport } from '../store/session-slice';
import { showControls } from '../../src/model/visible-text';
import { plain, Untrusted } from './Untrusted';

export function formatIssueLocation(issue: ParseIssue): string {
  // A file name is untrusted text: its control characters show as marks.
  const parts = [showControls(issue.file)];
  if (issue.line !== null) parts.push(`line ${issue.line}`);
  if (issue.field !== null) parts.push(`field ${issue.field}`);
  return parts.join(' · ');
}

const SHOWN = 50;

/** One load's problems, file, line and field for each. */
export function ReportBanner({ r, onDismiss }: { r: LoadReport; onDismiss(): void }) {
  const errors = r.issues.filter((i) => i.severity === 'error');
  const warnings = r.issues.length - errors.length;
  return (
    <section role="alert" aria-label={`Problems loading ${plain(r.files.join(', '))}`} className={`report ${errors.length ? 'report-error' : 'report-warning'}`}>
      <header>
        <strong>
          {errors.length ? `${errors.length} error${errors.length > 1 ? 's' : ''}` : ''}
          {errors.length && warnings ? ', ' : ''}
          {warnings ? `${warnings} warning${warnings > 1 ? 's' : ''}` : ''} loading <Untrusted text={r.files.join(', ')} />
        </strong>
        <span className="muted">{r.loadedSessions ? ` — ${r.loadedSessions} session${r.loadedSessions > 1 ? 's' : ''} loaded anyway` : ' — nothing loaded from these files; open sessions are untouched'}</span>
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss">
          Dismiss
        </button>
      </header>
      <ul>
        {r.issues.slice(0, SHOWN).map((issue, i) => (
          <li key={i} className={issue.severity}>
            <code>{formatIssueLocation(issue)}</code> <Untrusted text={issue.message} />
          </li>
        ))}
        {r.issues.length > SHOWN ? <li className="muted">…and {r.issues.length - SHOWN} more</li> : null}
      </ul>
    </section>
  );
}
