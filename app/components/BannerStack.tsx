// The banners under the top bar (load problems and notices) as one stack, newest first. At most three show, so a
// burst of problems never pushes the session off the screen; the rest wait behind "Show all", and every banner can
// be dismissed, one by one or all at once.
import { useState } from 'react';
import { useApp } from '../store';
import type { Notice } from '../store/share-slice';
import type { LoadReport } from '../store/session-slice';
import { ReportBanner } from './IssueList';
import { Untrusted } from './Untrusted';
import './share.css';

/** Banners shown before the rest fold behind "Show all". */
export const BANNERS_SHOWN = 3;

type Banner = { kind: 'report'; seq: number; report: LoadReport } | { kind: 'notice'; seq: number; notice: Notice };

function NoticeBanner({ n, onDismiss }: { n: Notice; onDismiss(): void }) {
  return (
    <div className={`banner banner-${n.tone === 'info' ? 'info' : n.tone === 'warn' ? 'warn' : 'error'}`} role="status">
      {/* A notice may quote a file's name or title: its control characters show as marks. */}
      <p>
        <Untrusted text={n.text} />
      </p>
      {n.action ? (
        <button
          type="button"
          onClick={() => {
            onDismiss();
            void n.action!.run();
          }}
        >
          {n.action.label}
        </button>
      ) : null}
      <button type="button" className="link banner-dismiss" onClick={onDismiss} aria-label="Dismiss notice">
        Dismiss
      </button>
    </div>
  );
}

export function BannerStack() {
  const reports = useApp((s) => s.reports);
  const notices = useApp((s) => s.notices);
  const [all, setAll] = useState(false);
  const banners: Banner[] = [...reports.map((report): Banner => ({ kind: 'report', seq: report.seq, report })), ...notices.map((notice): Banner => ({ kind: 'notice', seq: notice.seq ?? 0, notice }))].sort((a, b) => b.seq - a.seq);
  if (banners.length === 0) return null;
  const shown = all ? banners : banners.slice(0, BANNERS_SHOWN);
  const hidden = banners.length - shown.length;
  const s = useApp.getState();
  return (
    <div className="banner-stack" role="group" aria-label="Messages">
      <div className="banner-list">
        {shown.map((b) =>
          b.kind === 'report' ? (
            <ReportBanner key={`r${b.report.id}`} r={b.report} onDismiss={() => s.dismissReport(b.report.id)} />
          ) : (
            <NoticeBanner key={`n${b.notice.id}`} n={b.notice} onDismiss={() => s.dismissNotice(b.notice.id)} />
          ),
        )}
      </div>
      {banners.length > BANNERS_SHOWN ? (
        <p className="banner-more small">
          {hidden > 0 ? `${hidden} older message${hidden === 1 ? '' : 's'} not shown · ` : ''}
          <button type="button" className="link" onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? 'Show the newest three' : `Show all ${banners.length}`}
          </button>{' '}
          ·{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              s.dismissAllReports();
              s.dismissAllNotices();
              setAll(false);
            }}
          >
            Dismiss all
          </button>
        </p>
      ) : null}
    </div>
  );
}
